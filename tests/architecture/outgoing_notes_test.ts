import assert from "node:assert/strict";
import { filesOf, ROOT } from "./source_files.ts";

/**
 * Issue 43 item 2(c): an event that leaves the system (a webhook out, a push) is noted in the
 * transaction of its change, so that it is delivered also when the process dies right after the
 * commit (server/events/outgoing.ts). Read from the files: every `emit` of such an event in
 * server/ passes the note's key (`outgoing`). One told without it would be queued from memory
 * only, and lost with the process.
 */

const text = (path: string) => Deno.readTextFile(`${ROOT}${path}`);

/** OUTGOING_EVENTS as server/events/outgoing.ts lists them. */
async function outgoingEvents(): Promise<Set<string>> {
  const source = await text("server/events/outgoing.ts");
  const list = source.match(/export const OUTGOING_EVENTS = \[([^\]]*)\]/);
  assert.ok(list, "OUTGOING_EVENTS is declared in server/events/outgoing.ts");
  return new Set([...list[1].matchAll(/"([\w.]+)"/g)].map((m) => m[1]));
}

/** The text between the parentheses that open at `open` (balanced). */
function argumentsAt(source: string, open: number): string {
  let depth = 0;
  for (let i = open; i < source.length; i++) {
    if (source[i] === "(") depth++;
    else if (source[i] === ")" && --depth === 0) return source.slice(open + 1, i);
  }
  return source.slice(open + 1);
}

Deno.test("architecture - every emit of an event that leaves the system carries its note's key", async () => {
  const noted = await outgoingEvents();
  assert.ok(noted.has("message.created") && noted.has("chat.message"));
  const missing: string[] = [];
  let seen = 0;
  for (const file of await filesOf("server")) {
    const source = await text(file);
    for (const m of source.matchAll(/\.emit\(/g)) {
      const args = argumentsAt(source, m.index + m[0].length - 1).trim();
      const name = args.startsWith("ticketChange(")
        ? "ticket.updated"
        : /^"([\w.]+)"/.exec(args)?.[1];
      if (!name || !noted.has(name)) continue;
      seen++;
      if (!/\boutgoing\b/.test(args)) {
        const line = source.slice(0, m.index).split("\n").length;
        missing.push(`${file}:${line} ${name}`);
      }
    }
  }
  assert.ok(seen > 20, `the emits were found (${seen})`);
  assert.deepEqual(missing, [], "told without a note (lost if the process dies after commit)");
});
