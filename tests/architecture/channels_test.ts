import assert from "node:assert/strict";
import { filesOf, ROOT } from "./source_files.ts";
import { CHANNEL_KINDS } from "../../contract/channels.ts";

/**
 * The channel port (issue 45): what a WhatsApp channel is and how it spells an address are known
 * only inside server/whatsapp/providers/ (and the kinds' one declaration, contract/channels.ts).
 * Everywhere else asks capabilities and holds opaque addresses:
 * - no file names a channel kind ("beta", "simulator", "cloud_api" as a string), bar KIND_ALLOWED;
 * - no file writes a WhatsApp Web identity's server part (`@s.whatsapp.net`, `@g.us`, `@lid`,
 *   `@c.us`) or calls the JID parsers: addresses are made and read through the neutral names of
 *   providers/address.ts (addressOfContact, phoneOfAddress, ...);
 * - no identifier says "jid" except LEGACY_NAMES: field and column names that the Baileys and
 *   simulator suites (and stored rows) spell so, each with its reason.
 */

const INSIDE = ["server/whatsapp/providers/", "contract/channels.ts"];
const inside = (file: string) => INSIDE.some((p) => file.startsWith(p));

/** Files that may write a kind's name as a string, with the reason. */
const KIND_ALLOWED: Record<string, string> = {
  "islands/lib/shell/menu.ts": "the /simulator page's menu key, a page name, not a channel test",
};

/** Names with "jid" that stay outside providers/, each with its reason. */
const LEGACY_NAMES: Record<string, string> = {
  chatJid: "ProviderEvent field the provider contract suite asserts (tests/whatsapp/)",
  participantJid: "ProviderEvent field the Baileys suite asserts",
  phoneJid: "ProviderEvent field the Baileys and simulator suites assert",
  lidJid: "ProviderEvent field the Baileys suite asserts",
  jid: "the contact event's field and checkNumber's answer, asserted by the suites",
  toJid: "outbox column (db/migrations/0010); holds an address",
  remoteJid: "messages column (seeds' Message); holds an address",
};

/** User-typed numbers may be pasted WhatsApp ids: reading that text is input, not an address. */
const SUFFIX_ALLOWED: Record<string, string> = {
  "server/contacts/numbers.ts": "accepts a pasted WhatsApp id as typed input",
  "server/importer/entities/contacts.ts":
    "reads the numbers another system stored, some of them LIDs written as WhatsApp ids",
};

async function outsideFiles(): Promise<string[]> {
  const files = await filesOf("server", "routes", "islands", "jobs", "contract", "main.ts");
  assert.ok(files.length > 300, "the walk found the source files");
  return files.filter((f) => !inside(f) && !/_test\.tsx?$/.test(f));
}

/** The text without comments, so a sentence about a JID is not a use of one. */
async function codeOf(file: string): Promise<string> {
  const text = await Deno.readTextFile(`${ROOT}${file}`);
  return text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`])\/\/[^\n]*/g, "$1");
}

Deno.test("architecture - no file outside providers/ names a channel kind", async () => {
  const kinds = new RegExp(`["'\`](${CHANNEL_KINDS.join("|")})["'\`]`, "g");
  const offenders: string[] = [];
  for (const file of await outsideFiles()) {
    if (KIND_ALLOWED[file]) continue;
    for (const m of (await codeOf(file)).matchAll(kinds)) offenders.push(`${file}: ${m[0]}`);
  }
  assert.deepEqual(offenders, []);
});

Deno.test("architecture - no file outside providers/ spells or parses a JID", async () => {
  const suffix = /@(s\.whatsapp\.net|g\.us|lid|c\.us)\b/g;
  const parsers = /\b(parseJid|isGroupJid|normalizeJid|jidOfContact|phoneOf|lidOf|groupOf)\(/g;
  const offenders: string[] = [];
  for (const file of await outsideFiles()) {
    const code = await codeOf(file);
    if (!SUFFIX_ALLOWED[file]) {
      for (const m of code.matchAll(suffix)) offenders.push(`${file}: ${m[0]}`);
    }
    for (const m of code.matchAll(parsers)) offenders.push(`${file}: ${m[0]}`);
    for (const m of code.matchAll(/\b\w*(jid|Jid|JID)\w*\b/g)) {
      if (!Object.hasOwn(LEGACY_NAMES, m[0])) offenders.push(`${file}: ${m[0]}`);
    }
  }
  assert.deepEqual(offenders, []);
});
