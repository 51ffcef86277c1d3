import assert from "node:assert/strict";
import { filesOf, ROOT } from "./source_files.ts";

/**
 * Issue 42: who may see a ticket is decided in one place, contract/ticket_audience.ts, and what
 * one may do to a ticket or another record beside the role table, contract/record_policy.ts.
 * A file that compares a ticket's queue with the user's queues, its owner with the caller, or
 * filters tickets by the caller in SQL decides visibility by hand: the property test
 * (tests/api/ticket_audience_property_test.ts) would not see its answer, and a change of the rule
 * would not reach it. These patterns are what the eight old copies looked like.
 */
const DECIDES: { name: string; pattern: RegExp }[] = [
  {
    name: "a ticket's queue among the user's queues",
    pattern:
      /\bqueueIds\.includes\(\s*[\w.]*queueId\b|\bqueues\.some\(\(?\w+\)?\s*=>\s*\w+\.id\s*===\s*[\w.]*queueId\b/,
  },
  {
    name: "a ticket's owner compared with the caller",
    pattern:
      /\b(ticket|placement|card|row|t|p)\.userId\s*[!=]==?\s*[\w.]*(viewer|member|user|auth|scope)\.(userId|id)\b|\b(viewer|member|user|auth|scope)\.(userId|id)\s*[!=]==?\s*(ticket|placement|card|row|t|p)\.userId\b/,
  },
  {
    name: "tickets filtered by the caller in SQL",
    pattern:
      /["'`]t\.(userId|queueId)["'`],\s*["'`](=|in)["'`],\s*(viewer|auth|member)\.(userId|queueIds)\b/,
  },
  {
    name: "the old hand-written helpers",
    pattern: /\b(userInQueue|allTicketSees|canViewTicket\s*=|function canSee)\b/,
  },
];

/** The homes, and the few files allowed to restate a rule, each with its reason. */
const ALLOWED: Record<string, string> = {
  "contract/ticket_audience.ts": "the audience rule's home",
  "contract/record_policy.ts": "the record rules' home (who may act on a ticket)",
  "server/tickets/list_conditions_repository.ts":
    "the lists' SQL of inTicketList / inNotifications, shaped for the indexes; proven equal by the property test",
  "server/kanban/repository.ts":
    "the board's SQL of onKanbanBoard; proven equal by the property test",
  "server/tickets/transitions.ts":
    "a transition, not visibility: accepting an open ticket another attendant holds is refused",
  "server/push/capture.ts":
    "which pushes a person wants, not visibility: 'a new ticket in my queues' narrows the audience (mayHearTicket) it is always checked against",
  "islands/lib/shell/AppShell.tsx":
    "a deleted queue among the user's memberships reloads the session; no ticket is involved",
};

Deno.test("architecture - no file outside the rule's home decides who sees a ticket", async () => {
  const offenders: string[] = [];
  for (const file of await filesOf("server", "islands", "routes", "contract", "jobs")) {
    if (Object.hasOwn(ALLOWED, file)) continue;
    const lines = (await Deno.readTextFile(`${ROOT}${file}`)).split("\n");
    lines.forEach((line, i) => {
      for (const { name, pattern } of DECIDES) {
        if (pattern.test(line)) offenders.push(`${file}:${i + 1} (${name}): ${line.trim()}`);
      }
    });
  }
  assert.deepEqual(offenders, []);
  for (const file of Object.keys(ALLOWED)) {
    assert.ok((await Deno.stat(`${ROOT}${file}`)).isFile, `ALLOWED names ${file}, which is gone`);
  }
});

Deno.test("architecture - the visibility patterns catch the old copies", () => {
  const caught = (line: string) => DECIDES.some(({ pattern }) => pattern.test(line));
  for (
    const line of [
      "return placement.queueId === null || member.queueIds.includes(placement.queueId);",
      "if (placement.userId !== null) return placement.userId === member.userId;",
      "if (ticket.userId != null && ticket.userId !== user.id) return false;",
      "if (queueId !== null && !user.queues.some((q) => q.id === queueId)) return false;",
      "if (card.queueId === null || !viewer.queueIds.includes(card.queueId)) return false;",
      'all.push(eb.or([eb("t.userId", "is", null), eb("t.userId", "=", viewer.userId)]));',
      'const mine = eb("t.queueId", "in", viewer.queueIds);',
      "return await userInQueue(db, auth.companyId, auth.userId, ticket.queueId);",
      "function allTicketSees(member: Viewer, placement: TicketPlacement, isGroup: boolean) {",
    ]
  ) assert.ok(caught(line), line);
  for (
    const line of [
      "return mayReadTicket(viewer, audienceTicket(ticket));",
      "queueIds: auth.queueIds ?? await userQueueIds(db, auth.companyId, auth.userId),",
      "if (!supervised.every((id) => queueIds.includes(id))) {",
      "const mine = m.userId === userId;",
    ]
  ) assert.ok(!caught(line), line);
});

/**
 * A 403 is the policy's answer: the table (contract/policy.ts, `assertAllowed`) or a record rule
 * beside it (contract/record_policy.ts, `assertRecord`: reading a ticket, the reports' scope,
 * acting on a record). A `forbidden(` thrown by hand elsewhere is a rule the table cannot show and
 * a change of it cannot reach. Only the policy's assertion and the error's definition say it.
 */
const HAND_REFUSALS: Record<string, string> = {
  "server/auth/policy.ts": "the policy's own assertion (assertAllowed, assertRecord)",
  "server/errors.ts": "where forbidden() is defined",
};

Deno.test("architecture - refusals come from the policy table or its record rules", async () => {
  const offenders: string[] = [];
  for (const file of await filesOf("server", "routes", "jobs")) {
    if (Object.hasOwn(HAND_REFUSALS, file)) continue;
    const text = await Deno.readTextFile(`${ROOT}${file}`);
    if (/\bforbidden\(/.test(text)) offenders.push(file);
  }
  assert.deepEqual(offenders, []);
  for (const file of Object.keys(HAND_REFUSALS)) {
    assert.match(await Deno.readTextFile(`${ROOT}${file}`), /\bforbidden\(/, `${file} is listed`);
  }
});
