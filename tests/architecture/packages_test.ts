import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";

/**
 * Issue 36 item 8: the app's import map and lockfile hold only what the app imports, so
 * `deno task start` (and a release archive) never downloads a browser or a test parser. The
 * packages only tests use are pinned in tests/helpers/packages.ts and locked in tests/deno.lock;
 * a command run without `--lock=tests/deno.lock` that touches them would write them into the
 * root lockfile, which this test catches.
 */
const ROOT = fileURLToPath(new URL("../../", import.meta.url));

async function testOnlyPackages(): Promise<string[]> {
  const text = await Deno.readTextFile(`${ROOT}tests/helpers/packages.ts`);
  return [...text.matchAll(/"npm:((?:@[^/"]+\/)?[^@"]+)@/g)].map((m) => m[1]);
}

Deno.test("packages - deno.json and deno.lock name no test-only package", async () => {
  const testOnly = [...new Set(await testOnlyPackages())];
  assert.ok(testOnly.includes("playwright-core"), "the test packages were read");
  const lock = JSON.parse(await Deno.readTextFile(`${ROOT}deno.lock`));
  const config = await Deno.readTextFile(`${ROOT}deno.json`);
  const locked = [...Object.keys(lock.specifiers ?? {}), ...Object.keys(lock.npm ?? {})];
  const found = testOnly.filter((name) =>
    config.includes(`npm:${name}@`) ||
    locked.some((entry) => entry.startsWith(`npm:${name}@`) || entry.startsWith(`${name}@`))
  );
  assert.deepEqual(found, [], "test-only packages belong in tests/deno.lock");
});
