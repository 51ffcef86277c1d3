import assert from "node:assert/strict";
import { byTimeLeft, formatLeft, SLA_WARN_MS, slaState } from "../../contract/sla.ts";

const NOW = Date.parse("2026-11-23T12:00:00.000Z");
const at = (minutes: number) => new Date(NOW + minutes * 60_000).toISOString();

function ticket(id: number, over: Partial<Parameters<typeof slaState>[0]> = {}) {
  return {
    id,
    status: "open" as const,
    firstResponseDueAt: null,
    resolutionDueAt: null,
    slaBreachedAt: null,
    resolutionPausedAt: null,
    ...over,
  };
}

Deno.test("sla state - neutral, amber within the warning, red once the breach is recorded", () => {
  assert.equal(slaState(ticket(1), NOW), null);
  assert.deepEqual(slaState(ticket(1, { firstResponseDueAt: at(40) }), NOW), {
    level: "ok",
    dueAt: at(40),
    leftMs: 40 * 60_000,
  });
  assert.equal(
    slaState(ticket(1, { firstResponseDueAt: at(SLA_WARN_MS / 60_000) }), NOW)?.level,
    "warn",
  );
  // A first response given in time leaves its instant behind: the resolution is next.
  const answered = slaState(
    ticket(1, { firstResponseDueAt: at(-5), resolutionDueAt: at(90) }),
    NOW,
  );
  assert.equal(answered?.dueAt, at(90));
  assert.equal(
    slaState(ticket(1, { slaBreachedAt: at(-1), resolutionDueAt: at(90) }), NOW)?.level,
    "late",
  );
  assert.equal(slaState(ticket(1, { status: "closed", slaBreachedAt: at(-1) }), NOW), null);
});

Deno.test("sla state - time left reads in minutes, hours and days; sorting puts late first, none last", () => {
  assert.equal(formatLeft(30_000), "<1m");
  assert.equal(formatLeft(12 * 60_000), "12m");
  assert.equal(formatLeft(125 * 60_000), "2h 05m");
  assert.equal(formatLeft(50 * 60 * 60_000), "2d 2h");
  const sorted = byTimeLeft([
    ticket(1),
    ticket(2, { resolutionDueAt: at(60) }),
    ticket(3, { slaBreachedAt: at(-3) }),
    ticket(4, { firstResponseDueAt: at(10) }),
  ], NOW);
  assert.deepEqual(sorted.map((t) => t.id), [3, 4, 2, 1]);
  // Issue 44 item 6: the user's pins stay first in this order too (issue 28), each group by
  // time left; a pinned ticket without a target went to the bottom.
  const pinned = byTimeLeft([
    ticket(1),
    { ...ticket(2, { resolutionDueAt: at(60) }), pinned: true },
    { ...ticket(3), pinned: true },
    ticket(4, { firstResponseDueAt: at(10) }),
  ], NOW);
  assert.deepEqual(pinned.map((t) => t.id), [2, 3, 4, 1]);
});

Deno.test("sla state - a resolution clock paused waiting on the customer shows 'paused' with what was left; a first response still ahead counts first", () => {
  // Paused 30 minutes ago with 50 minutes left (due 20 minutes from now in wall time).
  const paused = ticket(1, { resolutionDueAt: at(20), resolutionPausedAt: at(-30) });
  assert.deepEqual(slaState(paused, NOW), { level: "paused", dueAt: null, leftMs: 50 * 60_000 });
  // Past its old due instant it is still paused, not late (the server records no breach).
  const longAgo = ticket(1, { resolutionDueAt: at(-60), resolutionPausedAt: at(-90) });
  assert.equal(slaState(longAgo, NOW)?.level, "paused");
  const both = ticket(1, {
    firstResponseDueAt: at(10),
    resolutionDueAt: at(20),
    resolutionPausedAt: at(-30),
  });
  assert.equal(slaState(both, NOW)?.dueAt, at(10));
});
