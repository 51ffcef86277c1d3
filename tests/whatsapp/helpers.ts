import assert from "node:assert/strict";
import type { TestApp, TestCompany } from "../helpers/app.ts";

/** Creates a simulator connection through the API and scans its QR: it is CONNECTED after. */
export async function connectSimulator(
  t: TestApp,
  company: TestCompany,
  fields: Record<string, unknown> = {},
): Promise<number> {
  const res = await t.request("POST", "/api/whatsapp", {
    token: company.admin.token,
    body: { name: `Sim ${crypto.randomUUID().slice(0, 8)}`, provider: "simulator", ...fields },
  });
  assert.equal(res.status, 201, await res.clone().text());
  const { id } = await res.json();
  const scan = await t.request("POST", `/api/simulator/${id}/scan`, { token: company.admin.token });
  assert.equal(scan.status, 200, await scan.clone().text());
  return id;
}

export type Delivery = {
  stored: boolean;
  duplicate?: boolean;
  id: number | null;
  wid: string | null;
  ticketId: number | null;
  ignored?: string;
};

/** A phone sends a message to the connection; resolves with the simulator's receipt. */
export async function phoneSends(
  t: TestApp,
  token: string,
  whatsappId: number,
  message: Record<string, unknown>,
): Promise<Delivery & { status: number }> {
  const res = await t.request("POST", `/api/simulator/${whatsappId}/messages`, {
    token,
    body: message,
  });
  const body = await res.json();
  return { status: res.status, ...body };
}

export type SentItem = {
  seq: number;
  id: string;
  to: string;
  body: string;
  media: { mimetype: string; filename: string; size: number; ptt: boolean } | null;
  quotedId: string | null;
  ack: number;
  deleted: boolean;
};

/** What the connection sent, as the simulated phones received it. */
export async function sentBy(t: TestApp, token: string, whatsappId: number): Promise<SentItem[]> {
  const res = await t.request("GET", `/api/simulator/${whatsappId}/sent`, { token });
  assert.equal(res.status, 200, await res.clone().text());
  return (await res.json()).sent;
}

/** Sets a company setting directly (the settings API belongs to another resource). */
export async function setSetting(t: TestApp, companyId: number, key: string, value: string) {
  const now = t.clock.now().toISOString();
  await t.deps.db.insertInto("settings").values({
    companyId,
    key,
    value,
    createdAt: now,
    updatedAt: now,
  })
    .onConflict((oc) => oc.columns(["companyId", "key"]).doUpdateSet({ value, updatedAt: now }))
    .execute();
}

let queueSeq = 0;

/** Inserts a queue directly (queues have their own API elsewhere). */
export async function createQueue(
  t: TestApp,
  companyId: number,
  fields: {
    name?: string;
    greetingMessage?: string;
    outOfHoursMessage?: string;
    schedules?: string;
  } = {},
): Promise<number> {
  const now = t.clock.now().toISOString();
  queueSeq++;
  const row = await t.deps.db.insertInto("queues").values({
    companyId,
    name: fields.name ?? `Queue ${queueSeq}`,
    color: `#${String(100000 + queueSeq).slice(-6)}`,
    greetingMessage: fields.greetingMessage ?? "",
    outOfHoursMessage: fields.outOfHoursMessage ?? "",
    schedules: fields.schedules ?? "[]",
    orderQueue: queueSeq,
    integrationId: null,
    promptId: null,
    mediaPath: null,
    mediaName: null,
    createdAt: now,
    updatedAt: now,
  }).returning("id").executeTakeFirstOrThrow();
  return row.id;
}

/** Inserts an option of a queue's chatbot tree. */
export async function createOption(
  t: TestApp,
  companyId: number,
  queueId: number,
  fields: { title: string; option: string; message?: string; parentId?: number | null },
): Promise<number> {
  const now = t.clock.now().toISOString();
  const row = await t.deps.db.insertInto("queue_options").values({
    companyId,
    queueId,
    parentId: fields.parentId ?? null,
    title: fields.title,
    option: fields.option,
    message: fields.message ?? "",
    mediaPath: null,
    mediaName: null,
    createdAt: now,
    updatedAt: now,
  }).returning("id").executeTakeFirstOrThrow();
  return row.id;
}

export function base64(text: string): string {
  return btoa(text);
}
