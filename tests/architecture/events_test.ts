import assert from "node:assert/strict";
import { filesOf, ROOT } from "./source_files.ts";
import { CHANNELS } from "../../contract/events.ts";

/**
 * Typed events (ARCHITECTURE.md 'Events'), read from the files:
 * - islands take realtime data as the catalogue types it (contract/events.ts): no cast inside
 *   a handler of useRealtime, useResourceEvents, useChannels, realtime.on or useLiveList's
 *   onEvent/apply (the one untyped boundary is the socket client, islands/lib/socket.ts);
 * - the server publishes on the catalogue's channels only, every channel of the catalogue is
 *   published, and only server/realtime/ puts events on the hub: a service tells a domain event
 *   (server/events/) and listeners.ts maps it to channels and rooms.
 */

/** Comments and the contents of string literals blanked (so a paren or "as" in them is not code). */
function codeOf(text: string): string {
  let out = "";
  for (let i = 0; i < text.length;) {
    const two = text.slice(i, i + 2);
    if (two === "//" || two === "/*") {
      const end = two === "//" ? text.indexOf("\n", i) : text.indexOf("*/", i) + 2;
      const stop = end <= 1 || end === -1 ? text.length : end;
      out += text.slice(i, stop).replace(/[^\n]/g, " ");
      i = stop;
    } else if (`"'\``.includes(text[i])) {
      const quote = text[i];
      let j = i + 1;
      while (j < text.length && text[j] !== quote) j += text[j] === "\\" ? 2 : 1;
      out += quote + text.slice(i + 1, j).replace(/[^\n]/g, " ") + quote;
      i = j + 1;
    } else {
      out += text[i++];
    }
  }
  return out;
}

/** The text of each call's arguments: `name(` up to its closing parenthesis. */
function callArguments(code: string, name: RegExp): { at: number; args: string }[] {
  const calls: { at: number; args: string }[] = [];
  for (const match of code.matchAll(name)) {
    const open = match.index! + match[0].length - 1;
    let depth = 0;
    let i = open;
    for (; i < code.length; i++) {
      if (code[i] === "(") depth++;
      else if (code[i] === ")" && --depth === 0) break;
    }
    calls.push({ at: match.index!, args: code.slice(open + 1, i) });
  }
  return calls;
}

const lineOf = (text: string, at: number) => text.slice(0, at).split("\n").length;

/** The code of the handlers an island gives to the realtime subscriptions. */
const SUBSCRIPTION =
  /\b(useRealtime|useResourceEvents|useChannels|useLiveList|realtime\.on)\b(<[^>(]*>)?\(/g;
const CAST = /\bas\s+(?!const\b)[A-Za-z{[(]/;

Deno.test("events - islands never cast realtime data: the catalogue types every handler", async () => {
  const files = (await filesOf("islands")).filter((f) => f !== "islands/lib/socket.ts");
  const offenders: string[] = [];
  let handlers = 0;
  for (const file of files) {
    const code = codeOf(await Deno.readTextFile(`${ROOT}${file}`));
    for (const { at, args } of callArguments(code, SUBSCRIPTION)) {
      handlers++;
      if (CAST.test(args)) offenders.push(`${file}:${lineOf(code, at)}`);
      // A handler given by name (`apply: applyChatEvent`) is read where the file defines it.
      for (const [, name] of args.matchAll(/\b(?:apply|onEvent):\s*([A-Za-z_]\w*)\s*[,}\n]/g)) {
        const start = code.search(new RegExp(`\\bfunction ${name}\\(`));
        assert.ok(start >= 0, `${file}: ${name} is defined here`);
        if (CAST.test(code.slice(start, code.indexOf("\n}", start)))) {
          offenders.push(`${file}:${lineOf(code, start)}`);
        }
      }
    }
  }
  assert.ok(handlers >= 40, `the walk found the subscriptions (${handlers})`);
  assert.deepEqual(offenders, []);
});

Deno.test("events - the check sees a cast inside a handler", () => {
  const code = codeOf(`useRealtime("ticket", (data) => {
    const d = data as { action?: string }; // "as" in a comment is not code
  });
  useRealtime("tag", () => void load("as x"));`);
  const found = callArguments(code, SUBSCRIPTION).map(({ args }) => CAST.test(args));
  assert.deepEqual(found, [true, false]);
});

/** `send(hub, companyId, "<channel>"`, and the hub's own methods, anywhere on the server. */
const PUBLISH_CALL =
  /\b(send|sendFiltered|sendEveryCompany)\(\s*hub\s*,\s*(?:[^,()]+,\s*)?(["`])([^"`]+)\2/g;
const HUB_CALL = /\.(publish|publishFiltered|publishEveryCompany)\(/g;

Deno.test("events - the server publishes the catalogue's channels, all of them, only from server/realtime/", async () => {
  const published = new Set<string>();
  const outside: string[] = [];
  const unknown: string[] = [];
  for (const file of await filesOf("server", "routes", "jobs", "main.ts")) {
    const text = await Deno.readTextFile(`${ROOT}${file}`);
    const code = codeOf(text);
    for (const match of text.matchAll(PUBLISH_CALL)) {
      const channel = match[3].replace(/\$\{[^}]+\}/, "<id>");
      published.add(channel);
      if (!(CHANNELS as string[]).includes(channel) && channel !== "chat-<id>") {
        unknown.push(`${file}: ${channel}`);
      }
    }
    const onHub = [...code.matchAll(HUB_CALL)].length > 0 ||
      [...code.matchAll(/\bsend(Filtered|EveryCompany)?\(\s*hub\b/g)].length > 0;
    // server/redis/ calls Redis's PUBLISH (a Redis channel, never the hub: what crosses it comes
    // back through server/realtime/redis_fanout.ts).
    const redisOnly = file.startsWith("server/redis/") &&
      !/\bsend(Filtered|EveryCompany)?\(\s*hub\b/.test(code);
    if (onHub && !file.startsWith("server/realtime/") && !redisOnly) outside.push(file);
  }
  assert.deepEqual(unknown, [], "channels missing from contract/events.ts");
  assert.deepEqual(outside, [], "only server/realtime/ publishes (services emit domain events)");
  const silent = CHANNELS.filter((c) => !published.has(c));
  assert.deepEqual(silent, [], "catalogue channels nothing publishes");
  assert.ok(published.has("chat-<id>"), "the chat room channel is published");
});
