import assert from "node:assert/strict";
import { filesOf, ROOT } from "./source_files.ts";

/**
 * Every event of the catalogue (server/events/domain.ts `DomainEvents`) is produced and its
 * production is watched (issue 43 item 4), read from the files:
 * - a producer: a file of server/ (tests aside) emits it by name, `emit("x.y", ...)`, or, for
 *   ticket.updated and ticket.closed, through `emit(ticketChange(...), ...)` (domain.ts names
 *   both as what ticketChange returns);
 * - watched: a test names it (a listener on the bus, a webhook assertion), or a test waits for a
 *   socket channel the event's route in server/realtime/listeners.ts sends on
 *   (`company-<id>-<channel>` ends with `-<channel>` followed by a quote).
 * A catalogue entry nothing emits, or whose effect no test looks at, fails here.
 */

const text = (path: string) => Deno.readTextFile(`${ROOT}${path}`);

async function catalogue(): Promise<string[]> {
  const domain = await text("server/events/domain.ts");
  const body = domain.slice(domain.indexOf("export type DomainEvents = {"));
  const block = body.slice(0, body.indexOf("\n};"));
  return [...block.matchAll(/^ {2}"([\w.]+)":/gm)].map((m) => m[1]);
}

/** What `ticketChange` may return, read from its signature. */
async function ticketChangeNames(): Promise<string[]> {
  const domain = await text("server/events/domain.ts");
  const signature = domain.match(/export function ticketChange\([^)]*\):([^{]+)\{/);
  assert.ok(signature, "ticketChange is declared in server/events/domain.ts");
  return [...signature[1].matchAll(/"([\w.]+)"/g)].map((m) => m[1]);
}

async function producedNames(): Promise<Set<string>> {
  const produced = new Set<string>();
  const viaTicketChange = await ticketChangeNames();
  for (const file of await filesOf("server")) {
    const source = await text(file);
    for (const m of source.matchAll(/\.emit\(\s*"([\w.]+)"/g)) produced.add(m[1]);
    if (/\.emit\(\s*ticketChange\(/.test(source)) viaTicketChange.forEach((n) => produced.add(n));
  }
  return produced;
}

/** Each route's channels: the literal channel of its send calls, and of the helpers it calls. */
async function routeChannels(): Promise<Map<string, Set<string>>> {
  const sources = (await text("server/realtime/listeners.ts")) + "\n" +
    (await text("server/realtime/publish.ts"));
  const channelsIn = (code: string) =>
    [...code.matchAll(
      /send(?:Filtered|EveryCompany)?\(\s*hub,\s*(?:[^,]+,\s*)?["`]([\w]+(?:-user)?)/g,
    )]
      .map((m) => m[1]);
  /** A helper's body: from `function name(` to the next top-level declaration. */
  const helper = (name: string) => {
    const at = sources.search(new RegExp(`function ${name}\\(`));
    if (at < 0) return "";
    const rest = sources.slice(at + 1);
    const end = rest.search(/\n(?:export )?(?:async )?function |\nconst |\nexport const /);
    return rest.slice(0, end < 0 ? undefined : end);
  };
  const listeners = await text("server/realtime/listeners.ts");
  const routes = listeners.slice(listeners.indexOf("const ROUTES: Routes = {"));
  const entries = [...routes.matchAll(/^ {2}"([\w.]+)":/gm)];
  const out = new Map<string, Set<string>>();
  entries.forEach((m, i) => {
    const block = routes.slice(m.index, entries[i + 1]?.index ?? routes.indexOf("\n};"));
    const channels = new Set(channelsIn(block));
    for (const call of block.matchAll(/\b(publish\w+)\b/g)) {
      channelsIn(helper(call[1])).forEach((c) => channels.add(c));
    }
    out.set(m[1], channels);
  });
  return out;
}

async function testSources(): Promise<string> {
  const parts: string[] = [];
  const walk = async (dir: string) => {
    for await (const entry of Deno.readDir(`${ROOT}${dir}`)) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory) await walk(path);
      else if (/_test\.tsx?$/.test(entry.name) && !path.startsWith("tests/architecture/")) {
        parts.push(await text(path));
      }
    }
  };
  await walk("tests");
  return parts.join("\n");
}

Deno.test("architecture - every catalogue event has a producer in server/ and a test that watches it", async () => {
  const names = await catalogue();
  assert.ok(names.length > 30, `catalogue read: ${names.length} events`);
  const produced = await producedNames();
  const unproduced = names.filter((n) => !produced.has(n));
  assert.deepEqual(unproduced, [], "catalogue events no server code emits");
  const strays = [...produced].filter((n) => !names.includes(n));
  assert.deepEqual(strays, [], "emitted names outside the catalogue");

  const channels = await routeChannels();
  const tests = await testSources();
  const watched = (name: string) =>
    tests.includes(`"${name}"`) ||
    [...channels.get(name) ?? []].some((c) => new RegExp(`-${c}["\`]`).test(tests));
  const unwatched = names.filter((n) => !watched(n));
  assert.deepEqual(unwatched, [], "catalogue events no test names or listens to (channel)");
});
