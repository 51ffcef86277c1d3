import assert from "node:assert/strict";
import { AUDIT_ACTIONS } from "../../contract/audit.ts";
import { filesOf, ROOT } from "./source_files.ts";

/**
 * Issue 30: no dead entry in the audit catalogue. Each action of contract/audit.ts is written by
 * the server somewhere (its name as a literal in server/, where recordAudit and auditBy take it);
 * tests/api/audit_coverage_test.ts then performs each one and finds its row.
 */
Deno.test("architecture - every audit action is written by the server", async () => {
  const sources = await Promise.all(
    (await filesOf("server")).map((file) => Deno.readTextFile(`${ROOT}${file}`)),
  );
  const text = sources.join("\n");
  const dead = AUDIT_ACTIONS.filter((action) => !text.includes(`"${action}"`));
  assert.deepEqual(dead, [], "actions of contract/audit.ts that no server file writes");
});
