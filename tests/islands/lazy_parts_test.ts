import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";

const ISLANDS = fileURLToPath(new URL("../../islands/", import.meta.url));

/** The one module that may use React's lazy and Suspense (lazyPart, whenOpen). */
const MECHANISM = "lib/ui/deferred.tsx";

async function* sources(dir: string): AsyncGenerator<string> {
  for await (const entry of Deno.readDir(dir)) {
    const path = `${dir}${entry.name}`;
    if (entry.isDirectory) yield* sources(`${path}/`);
    else if (/\.(ts|tsx)$/.test(entry.name)) yield path;
  }
}

Deno.test("islands - one way to load a part on demand: lazyPart/whenOpen of lib/ui/deferred.tsx", async () => {
  const offenders: string[] = [];
  for await (const file of sources(ISLANDS)) {
    const rel = file.slice(ISLANDS.length);
    if (rel === MECHANISM) continue;
    const text = await Deno.readTextFile(file);
    if (/\blazy\s*\(|<Suspense\b|\bSuspense\b\s*[,}]/.test(text)) offenders.push(rel);
  }
  assert.deepEqual(offenders, []);
});
