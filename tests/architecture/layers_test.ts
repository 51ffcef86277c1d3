import assert from "node:assert/strict";
import { filesOf, ROOT } from "./source_files.ts";

/**
 * The layers of ARCHITECTURE.md, read from the files (imports and query calls), so a breach fails
 * here instead of waiting for a review:
 * - `contract/` is pure: it imports only `contract/` (no package, no I/O);
 * - the server side (server/, jobs/, db/, routes/api/, scripts/, main.ts) imports nothing of
 *   `islands/`; only `routes/pages/` renders island components on the server;
 * - routes never import a repository: a route validates and calls a service;
 * - SQL (Kysely's query builders and the `sql` tag) only in `db/` and in repositories
 *   (`repository.ts`, `*_repository.ts`), bar the few files of QUERY_ALLOWED with their reason.
 */

/** Every import specifier of a file (static, dynamic and re-exports), resolved from the root. */
export async function importsOf(file: string): Promise<string[]> {
  const text = await Deno.readTextFile(`${ROOT}${file}`);
  const specs = [
    ...text.matchAll(/(?:^|\n)\s*(?:import|export)[^"';]*?from\s*["']([^"']+)["']/g),
    ...text.matchAll(/(?:^|\n)\s*import\s*["']([^"']+)["']/g),
    ...text.matchAll(/import\(\s*["']([^"']+)["']\s*\)/g),
  ].map((m) => m[1]);
  return specs.map((s) =>
    s.startsWith(".") ? new URL(s, `file:///${file}`).pathname.slice(1) : `npm:${s}`
  );
}

const QUERY_CALL =
  /\.(selectFrom|insertInto|updateTable|deleteFrom|replaceInto|mergeInto|with|withRecursive)\(|\bsql(<[^>]*>)?`|\bsql\.(raw|ref|lit|id|join|val|table)\(/g;

/** Files outside repositories that may still run SQL, each with its reason (at most 5). */
const QUERY_ALLOWED: Record<string, string> = {};

const isRepository = (file: string) => /(^|\/|_)repository\.ts$/.test(file);

Deno.test("architecture - contract/ is pure: it imports only contract/", async () => {
  const offenders: string[] = [];
  for (const file of await filesOf("contract")) {
    for (const target of await importsOf(file)) {
      if (!target.startsWith("contract/")) offenders.push(`${file} -> ${target}`);
    }
  }
  assert.deepEqual(offenders, []);
});

Deno.test("architecture - the server side imports nothing of islands/ (routes/pages renders them)", async () => {
  const offenders: string[] = [];
  const files = await filesOf("server", "jobs", "db", "routes/api", "scripts", "main.ts");
  assert.ok(files.length > 200, "the walk found the server's files");
  for (const file of files) {
    for (const target of await importsOf(file)) {
      if (target.startsWith("islands/")) offenders.push(`${file} -> ${target}`);
    }
  }
  assert.deepEqual(offenders, []);
});

Deno.test("architecture - routes import no repository", async () => {
  const found: string[] = [];
  const files = await filesOf("routes");
  assert.ok(files.length > 40, "the walk found the routes");
  for (const file of files) {
    if ((await importsOf(file)).some(isRepository)) found.push(file);
  }
  assert.deepEqual(found, [], "routes importing repositories: call a service instead");
});

Deno.test("architecture - SQL only in db/ and repositories", async () => {
  const found: string[] = [];
  const files = await filesOf("server", "routes", "jobs", "scripts", "main.ts");
  assert.ok(files.filter(isRepository).length > 30, "the walk found the repositories");
  for (const file of files) {
    if (isRepository(file) || file in QUERY_ALLOWED) continue;
    const text = await Deno.readTextFile(`${ROOT}${file}`);
    if (text.match(QUERY_CALL)) found.push(file);
  }
  assert.deepEqual(found, [], "query calls outside repositories: move them into a repository");
  assert.ok(Object.keys(QUERY_ALLOWED).length <= 5, "at most five allowed exceptions");
});
