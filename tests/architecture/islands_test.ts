import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";

const ISLANDS = fileURLToPath(new URL("../../islands/", import.meta.url));

async function* sources(dir: string): AsyncGenerator<string> {
  for await (const entry of Deno.readDir(dir)) {
    const path = `${dir}${entry.name}`;
    if (entry.isDirectory) yield* sources(`${path}/`);
    else if (/\.(ts|tsx)$/.test(entry.name)) yield path;
  }
}

Deno.test("islands - import nothing from server/ or db/ (DESIGN 'Boundaries')", async () => {
  const offenders: string[] = [];
  for await (const file of sources(ISLANDS)) {
    const text = await Deno.readTextFile(file);
    for (const match of text.matchAll(/(?:from|import)\s*\(?\s*["']([^"']+)["']/g)) {
      if (/(^|\/)(server|db|routes|jobs)\//.test(match[1])) {
        offenders.push(`${file.slice(ISLANDS.length)}: ${match[1]}`);
      }
    }
  }
  assert.deepEqual(offenders, []);
});

Deno.test("islands - every page island default-exports a component", async () => {
  for await (const entry of Deno.readDir(ISLANDS)) {
    if (!entry.isFile || !entry.name.endsWith(".tsx")) continue;
    const mod = await import(`${ISLANDS}${entry.name}`);
    assert.equal(typeof mod.default, "function", entry.name);
  }
});

Deno.test("islands - an area never imports another area; islands/lib/ imports no area (README 'Where a file goes')", async () => {
  const offenders: string[] = [];
  for await (const file of sources(ISLANDS)) {
    const rel = file.slice(ISLANDS.length);
    const parts = rel.split("/");
    // Page entries (islands/<Page>.tsx) assemble areas: they may import any.
    if (parts.length === 1) continue;
    const own = parts[0];
    const text = await Deno.readTextFile(file);
    for (const match of text.matchAll(/(?:from|import)\s*\(?\s*["'](\.[^"']+)["']/g)) {
      const path = new URL(match[1], `file://${file}`).pathname;
      // contract/ is shared by every area (and the server).
      if (!path.startsWith(ISLANDS)) continue;
      const target = path.slice(ISLANDS.length);
      const area = target.split("/")[0];
      if (target.split("/").length === 1 || area === "lib" || area === own) continue;
      offenders.push(`${rel} -> ${target}`);
    }
  }
  assert.deepEqual(offenders, []);
});
