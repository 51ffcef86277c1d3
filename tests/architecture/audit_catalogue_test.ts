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

/**
 * Append-only: the table is named by its repository alone (besides the schema, the tenancy list
 * and its migration), whose one delete is the retention job's (jobs/registry.ts through
 * pruneAuditLogs). A company's deletion (server/companies/repository.ts deleteCompanyData) takes
 * its rows with every other tenant table, by the list of tables, not by name.
 */
Deno.test("architecture - only the audit repository names audit_logs; its one delete is the retention job's", async () => {
  const files = await filesOf("server", "db", "jobs", "routes", "scripts", "main.ts");
  const naming: string[] = [];
  const deleting: string[] = [];
  for (const file of files) {
    const text = await Deno.readTextFile(`${ROOT}${file}`);
    if (/\baudit_logs\b(?!\.ts)/.test(text)) naming.push(file);
    if (text.includes("deleteAuditLogsBefore")) deleting.push(file);
  }
  assert.deepEqual(
    naming.filter((f) => !f.startsWith("db/migrations/")),
    ["db/schema.ts", "db/tenancy.ts", "server/audit/repository.ts"],
  );
  assert.deepEqual(deleting, ["server/audit/repository.ts", "server/audit/service.ts"]);
  const repository = await Deno.readTextFile(`${ROOT}server/audit/repository.ts`);
  assert.equal(repository.match(/updateTable|deleteFrom/g)?.length, 1);
  assert.doesNotMatch(repository, /updateTable/);
  const service = await Deno.readTextFile(`${ROOT}server/audit/service.ts`);
  assert.equal(service.match(/deleteAuditLogsBefore\(/g)?.length, 1, "one call: pruneAuditLogs");
  const jobs = await Deno.readTextFile(`${ROOT}jobs/registry.ts`);
  assert.match(jobs, /tick: pruneAuditLogs/);
});

/** /audit names each action and each kind of record in the reader's language. */
Deno.test("architecture - every audit action and entity has its label in each language", async () => {
  const sources = await Promise.all(
    (await filesOf("server")).map((file) => Deno.readTextFile(`${ROOT}${file}`)),
  );
  // recordAudit and auditBy name the record's kind as `entity: "<name>"`.
  const entities = [
    ...new Set(
      sources.flatMap((text) => [...text.matchAll(/entity: "([a-z]+)"/g)].map((m) => m[1])),
    ),
  ].sort();
  assert.ok(entities.includes("user") && entities.includes("invoice"), entities.join());
  for (const lang of ["pt", "en", "es"]) {
    const audit = JSON.parse(await Deno.readTextFile(`${ROOT}locales/${lang}.json`)).audit;
    const missing = [
      ...AUDIT_ACTIONS.filter((a) => typeof audit.actions[a] !== "string"),
      ...entities.filter((e) => typeof audit.entities[e] !== "string"),
    ];
    assert.deepEqual(missing, [], `${lang}: audit labels missing`);
  }
});
