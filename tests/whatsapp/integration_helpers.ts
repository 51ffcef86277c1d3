import assert from "node:assert/strict";
import type { TestApp, TestCompany } from "../helpers/app.ts";
import { eventually } from "../helpers/eventually.ts";
import { connectSimulator, sentBy } from "./helpers.ts";

/** Shared by the queue integration tests: an integration, a queue and a connection routed to it. */
export const ENV = { INTEGRATIONS_ALLOW_PRIVATE_URLS: "true" };

export async function integration(t: TestApp, c: TestCompany, body: Record<string, unknown>) {
  const res = await t.request("POST", "/api/queueIntegration", { token: c.admin.token, body });
  assert.equal(res.status, 201, await res.clone().text());
  return await res.json() as { id: number; secret: string };
}

/** A queue bound to the integration, and a connection whose only queue it is. */
export async function routedTo(t: TestApp, c: TestCompany, integrationId: number) {
  const res = await t.request("POST", "/api/queue", {
    token: c.admin.token,
    body: { name: `Bot ${integrationId}`, color: `#0000${10 + integrationId}`, integrationId },
  });
  assert.equal(res.status, 201, await res.clone().text());
  const queueId = (await res.json()).id as number;
  const wid = await connectSimulator(t, c, { queueIds: [queueId] });
  return { queueId, wid };
}

export async function ticketOf(t: TestApp, id: number) {
  return await t.deps.db.selectFrom("tickets").selectAll().where("id", "=", id)
    .executeTakeFirstOrThrow();
}

export async function bodiesSent(t: TestApp, c: TestCompany, wid: number, count: number) {
  return await eventually(async () => {
    const sent = await sentBy(t, c.admin.token, wid);
    return sent.length >= count ? sent : undefined;
  });
}
