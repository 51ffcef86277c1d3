import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";

/**
 * Issue 33: what a process loads at start is what it uses. The page islands and React's server
 * renderer load with the first page (routes/pages/ssr.tsx), @libsql/client only for a remote
 * database (db/worker.ts). Walks the static imports of a root with `deno info --json` (dynamic
 * `import()`s and type-only imports are not followed) and lists what it reaches.
 */
const ROOT = fileURLToPath(new URL("../../", import.meta.url));

type Dependency = { code?: { specifier: string }; isDynamic?: boolean };
type Module = { specifier: string; dependencies?: Dependency[] };

async function staticallyReached(root: string, dynamicToo = false): Promise<string[]> {
  const { stdout, code } = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", root],
    cwd: ROOT,
    stdout: "piped",
    stderr: "null",
  }).output();
  assert.equal(code, 0, `deno info ${root}`);
  const graph = JSON.parse(new TextDecoder().decode(stdout)) as {
    roots: string[];
    modules: Module[];
    redirects: Record<string, string>;
  };
  const bySpecifier = new Map(graph.modules.map((m) => [m.specifier, m]));
  const reached = new Set<string>();
  const visit = (specifier: string) => {
    const resolved = graph.redirects[specifier] ?? specifier;
    if (reached.has(resolved)) return;
    reached.add(resolved);
    for (const dependency of bySpecifier.get(resolved)?.dependencies ?? []) {
      if (dependency.code && (dynamicToo || !dependency.isDynamic)) {
        visit(dependency.code.specifier);
      }
    }
  };
  graph.roots.forEach(visit);
  return [...reached];
}

Deno.test("startup - main.ts loads no page island and no React server renderer until a page is asked for", async () => {
  const reached = await staticallyReached("main.ts");
  assert.ok(
    reached.some((s) => s.endsWith("/routes/pages/index.ts")),
    "the walk reaches the pages",
  );
  const eager = reached.filter((s) =>
    /\/islands\/[A-Z]\w*Page\.tsx$/.test(s) || s.endsWith("/routes/pages/ssr.tsx") ||
    /^npm:\/?react-dom@/.test(s)
  );
  assert.deepEqual(eager, []);
});

/**
 * Deno loads the module graph of a literal `import("...")` when the importing module loads (parsed
 * sources held for the life of the process, run or not): React's server renderer and the islands
 * cost an idle server 21-28 MB that way (docs/scaling.md, third round). routes/pages/render.ts
 * imports them from a URL in a variable, which `deno info` (like `deno run`) cannot follow.
 */
Deno.test("startup - no literal dynamic import reaches React's server renderer or an island", async () => {
  const reached = await staticallyReached("main.ts", true);
  assert.ok(
    reached.some((s) => s.endsWith("/routes/pages/render.ts")),
    "the walk reaches the renderer",
  );
  const eager = reached.filter((s) =>
    /\/islands\/[A-Z]\w*Page\.tsx$/.test(s) || s.endsWith("/routes/pages/ssr.tsx") ||
    /^npm:\/?react-dom@/.test(s)
  );
  assert.deepEqual(eager, []);
});

Deno.test("startup - each page route loads the island it names, and that island exists", async () => {
  const source = await Deno.readTextFile(`${ROOT}routes/pages/index.ts`);
  const routes = [
    ...source.matchAll(
      /island: "(\w+)",\s*load: islandModule<typeof import\("([^"]+)"\)>\(\s*"(\w+)",?\s*\)/g,
    ),
  ];
  assert.equal(routes.length, [...source.matchAll(/island: "/g)].length, "every route matched");
  for (const [, island, typeOf, loaded] of routes) {
    assert.equal(typeOf, `../../islands/${island}.tsx`);
    assert.equal(loaded, island);
    await Deno.stat(`${ROOT}islands/${island}.tsx`);
  }
});

/**
 * Packages only some requests or some companies need (issue 33 item 2): each is imported where it
 * is first used (a WhatsApp session, an XLSX file, an AI turn, a mail, a 2FA enrolment's QR code,
 * a charge, /api-docs, a remote database, a Redis broker, PostgreSQL), never by main.ts' static imports.
 */
const LOADED_AT_FIRST_USE = [
  "@whiskeysockets/baileys",
  "exceljs",
  "openai",
  "nodemailer",
  "qrcode",
  "pix-utils",
  "swagger-ui-dist",
  "@libsql/client",
  "@redis/client",
  "pg",
  "react",
  "react-dom",
];

Deno.test("startup - main.ts imports the heavy packages where they are first used", async () => {
  const reached = await staticallyReached("main.ts");
  const packages = new Set(
    reached.filter((s) => s.startsWith("npm:")).map((s) =>
      s.replace(/^npm:\/?((?:@[^/@]+\/)?[^/@]+).*$/, "$1")
    ),
  );
  assert.ok(packages.has("hono"), "the walk reaches the npm packages");
  assert.deepEqual(LOADED_AT_FIRST_USE.filter((name) => packages.has(name)), []);
});

Deno.test("startup - the database thread loads @libsql/client only for a remote database", async () => {
  const reached = await staticallyReached("db/worker.ts");
  assert.ok(reached.some((s) => /^npm:\/?libsql@/.test(s)), "the walk reaches libsql");
  assert.deepEqual(reached.filter((s) => /^npm:\/?@libsql\/client@/.test(s)), []);
});
