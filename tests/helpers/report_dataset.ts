import assert from "node:assert/strict";
import type { TestApp, TestCompany } from "./app.ts";
import { addContact, addMessage, addTicket, scene, setSetting } from "./tickets.ts";

/**
 * The reports (issue 27) on a hand-made period with known answers. Local days are São Paulo's
 * (UTC-3); the period is 2026-11-02..2026-11-04 = [2026-11-02T03:00Z, 2026-11-05T03:00Z).
 * Every transition goes through PUT /api/tickets (the service and its triggers write the
 * timeline); messages and ratings are inserted as the pipeline does (the triggers see them).
 */
export const PERIOD = "dateFrom=2026-11-02&dateTo=2026-11-04";

export function at(t: TestApp, iso: string) {
  t.clock.set(iso);
}

export async function act(t: TestApp, token: string, id: number, body: Record<string, unknown>) {
  const res = await t.request("PUT", `/api/tickets/${id}`, { token, body });
  assert.equal(res.status, 200, await res.clone().text());
}

export async function rate(
  t: TestApp,
  companyId: number,
  ticketId: number,
  userId: number,
  rate: number,
) {
  await t.deps.db.insertInto("user_ratings").values({
    companyId,
    ticketId,
    userId,
    rate,
    createdAt: t.clock.now().toISOString(),
  }).execute();
}

export async function dataset(t: TestApp, a: TestCompany) {
  const s = await scene(t, a);
  await setSetting(t, a.id, "sendGreetingAccepted", "disabled");
  await setSetting(t, a.id, "userRating", "disabled");
  const user = a.user.token;
  const admin = a.admin.token;
  const ticket = async (n: number, iso: string, queueId: number | null) => {
    const contactId = await addContact(t, a.id, `Cliente ${n}`, `55119000000${n}`);
    return (await addTicket(t, a.id, { contactId, queueId, whatsappId: s.whatsappId, at: iso })).id;
  };
  const message = (ticketId: number, iso: string, fromMe: boolean) =>
    addMessage(t, a.id, { ticketId, body: fromMe ? "resposta" : "<b>oi</b>", fromMe, at: iso });

  // T1: Mon Nov 2 09:00 local. Waits 120 s, first response 300 s, resolved in 3600 s, rated 3.
  const t1 = await ticket(1, "2026-11-02T12:00:00.000Z", s.q1);
  await message(t1, "2026-11-02T12:01:00.000Z", false);
  at(t, "2026-11-02T12:02:00.000Z");
  await act(t, user, t1, { action: "accept" });
  await message(t1, "2026-11-02T12:05:00.000Z", true);
  at(t, "2026-11-02T13:00:00.000Z");
  await act(t, user, t1, { action: "resolve" });
  at(t, "2026-11-02T13:01:00.000Z");
  await rate(t, a.id, t1, a.user.id, 3);

  // T2: waits 600 s, first response 1200 s, resolved in 7200 s, rated 1.
  const t2 = await ticket(2, "2026-11-02T14:00:00.000Z", s.q1);
  at(t, "2026-11-02T14:10:00.000Z");
  await act(t, user, t2, { action: "accept" });
  await message(t2, "2026-11-02T14:15:00.000Z", false);
  await message(t2, "2026-11-02T14:20:00.000Z", true);
  at(t, "2026-11-02T16:00:00.000Z");
  await act(t, user, t2, { action: "resolve" });
  at(t, "2026-11-02T16:05:00.000Z");
  await rate(t, a.id, t2, a.user.id, 1);

  // T3: waits 60 s, first response 120 s, resolved in 1800 s; reopened, answered 600 s after,
  // resolved 3600 s after the reopening, rated 3.
  const t3 = await ticket(3, "2026-11-03T10:00:00.000Z", s.q1);
  at(t, "2026-11-03T10:01:00.000Z");
  await act(t, user, t3, { action: "accept" });
  await message(t3, "2026-11-03T10:02:00.000Z", true);
  at(t, "2026-11-03T10:30:00.000Z");
  await act(t, user, t3, { action: "resolve" });
  at(t, "2026-11-03T11:00:00.000Z");
  await act(t, user, t3, { action: "reopen" });
  await message(t3, "2026-11-03T11:10:00.000Z", true);
  at(t, "2026-11-03T12:00:00.000Z");
  await act(t, user, t3, { action: "resolve" });
  at(t, "2026-11-03T12:01:00.000Z");
  await rate(t, a.id, t3, a.user.id, 3);

  // T4: queue 2, taken by the admin after 1800 s, answered after 2400 s, then transferred to
  // the user in queue 1 (a transfer, not a wait).
  const t4 = await ticket(4, "2026-11-03T20:00:00.000Z", s.q2);
  at(t, "2026-11-03T20:30:00.000Z");
  await act(t, admin, t4, { action: "accept" });
  await message(t4, "2026-11-03T20:40:00.000Z", true);
  at(t, "2026-11-03T21:00:00.000Z");
  await act(t, admin, t4, { action: "transfer", queueId: s.q1, userId: a.user.id });

  // T5: Nov 3 23:00 local (Nov 4 in UTC), waiting in queue 1.
  await ticket(5, "2026-11-04T02:00:00.000Z", s.q1);
  // T6: Nov 5 00:30 local: after the period.
  const t6 = await ticket(6, "2026-11-05T03:30:00.000Z", s.q1);
  at(t, "2026-11-05T03:31:00.000Z");
  await act(t, user, t6, { action: "accept" });
  // T7: created Nov 1 23:00 local (before), taken Nov 2 00:10 local (in): waited 4200 s.
  const t7 = await ticket(7, "2026-11-02T02:00:00.000Z", s.q1);
  at(t, "2026-11-02T03:10:00.000Z");
  await act(t, user, t7, { action: "accept" });

  // A tag on T1 and T3.
  const tag = await t.deps.db.insertInto("tags").values({
    companyId: a.id,
    name: "VIP",
    createdAt: t.clock.now().toISOString(),
    updatedAt: t.clock.now().toISOString(),
  }).returning("id").executeTakeFirstOrThrow();
  await t.deps.db.insertInto("ticket_tags").values([
    { companyId: a.id, ticketId: t1, tagId: tag.id },
    { companyId: a.id, ticketId: t3, tagId: tag.id },
  ]).execute();
  return { ...s, t1, t3, t4, tagId: tag.id };
}

export async function get<T>(t: TestApp, token: string, path: string): Promise<T> {
  const res = await t.request("GET", path, { token });
  assert.equal(res.status, 200, await res.clone().text());
  return await res.json() as T;
}

export type Row = Record<string, unknown> & { ratings: Record<string, number> };
