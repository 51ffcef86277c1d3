import assert from "node:assert/strict";
import { filesOf, ROOT } from "./source_files.ts";

/**
 * Issue 43 item 1, one rule: every local date or hour of a company is on its zone's clock, read
 * from its setting (`companyTimeZone`, server/settings/values.ts) and computed by
 * contract/time_zone.ts. So the server names no zone of its own: no "America/..." literal, no
 * DEFAULT_TIME_ZONE, no fixed offset, except the setting's default and its error text.
 */
const ALLOWED = new Set(["server/settings/defaults.ts", "server/settings/rules.ts"]);
const ZONE_BY_HAND = [
  /["'`]America\/[A-Za-z_]+["'`]/,
  /\bDEFAULT_TIME_ZONE\b/,
  /["'`][+-]\d+ hours["'`]/,
  /\bLOCAL_OFFSET\b/,
];

Deno.test("architecture - the server reads every local time on the company's zone, never a zone of its own", async () => {
  const offenders: string[] = [];
  for (const file of await filesOf("server", "routes", "jobs")) {
    if (ALLOWED.has(file)) continue;
    const text = await Deno.readTextFile(`${ROOT}${file}`);
    for (const pattern of ZONE_BY_HAND) {
      if (pattern.test(text)) offenders.push(`${file}: ${pattern}`);
    }
  }
  assert.deepEqual(offenders, []);
});
