import type { TicketStatus } from "../../db/schema.ts";
import type { TestApp } from "./app.ts";

/**
 * Direct inserts of the records ticket tests start from (queues, connections, contacts,
 * tickets, messages), so that each test states only what it is about.
 */
export async function addQueue(t: TestApp, companyId: number, name: string, color?: string) {
  const now = t.clock.now().toISOString();
  const row = await t.deps.db.insertInto("queues").values({
    companyId,
    name,
    color: color ?? `#${(Math.random() * 0xffffff | 0).toString(16).padStart(6, "0")}`,
    orderQueue: null,
    integrationId: null,
    promptId: null,
    mediaPath: null,
    mediaName: null,
    createdAt: now,
    updatedAt: now,
  }).returning("id").executeTakeFirstOrThrow();
  return row.id;
}

export async function addUserToQueues(
  t: TestApp,
  companyId: number,
  userId: number,
  queueIds: number[],
) {
  await t.deps.db.insertInto("user_queues")
    .values(queueIds.map((queueId) => ({ companyId, userId, queueId }))).execute();
}

export async function addWhatsapp(
  t: TestApp,
  companyId: number,
  name: string,
  options: {
    isDefault?: boolean;
    provider?: string;
    complationMessage?: string;
    ratingMessage?: string;
    status?: string;
  } = {},
) {
  const now = t.clock.now().toISOString();
  const row = await t.deps.db.insertInto("whatsapps").values({
    companyId,
    name,
    number: null,
    promptId: null,
    isDefault: options.isDefault ? 1 : 0,
    provider: options.provider ?? "simulator",
    complationMessage: options.complationMessage ?? "",
    ratingMessage: options.ratingMessage ?? "",
    status: options.status ?? "DISCONNECTED",
    createdAt: now,
    updatedAt: now,
  }).returning("id").executeTakeFirstOrThrow();
  return row.id;
}

export async function addContact(
  t: TestApp,
  companyId: number,
  name: string,
  number: string,
  options: { isGroup?: boolean } = {},
) {
  const now = t.clock.now().toISOString();
  const row = await t.deps.db.insertInto("contacts").values({
    uuid: crypto.randomUUID(),
    companyId,
    name,
    number,
    lid: null,
    whatsappId: null,
    isGroup: options.isGroup ? 1 : 0,
    createdAt: now,
    updatedAt: now,
  }).returning("id").executeTakeFirstOrThrow();
  return row.id;
}

export async function addTicket(
  t: TestApp,
  companyId: number,
  input: {
    contactId: number;
    whatsappId?: number | null;
    status?: TicketStatus;
    userId?: number | null;
    queueId?: number | null;
    unreadMessages?: number;
    isGroup?: boolean;
    lastMessage?: string;
    at?: string;
  },
) {
  const at = input.at ?? t.clock.now().toISOString();
  const row = await t.deps.db.insertInto("tickets").values({
    uuid: crypto.randomUUID(),
    companyId,
    contactId: input.contactId,
    whatsappId: input.whatsappId ?? null,
    userId: input.userId ?? null,
    queueId: input.queueId ?? null,
    queueOptionId: null,
    status: input.status ?? "pending",
    isGroup: input.isGroup ? 1 : 0,
    integrationId: null,
    promptId: null,
    unreadMessages: input.unreadMessages ?? 0,
    lastMessage: input.lastMessage ?? "",
    acceptedAt: null,
    closedAt: null,
    createdAt: at,
    updatedAt: at,
  }).returning(["id", "uuid"]).executeTakeFirstOrThrow();
  return row;
}

export async function addMessage(
  t: TestApp,
  companyId: number,
  input: {
    ticketId: number;
    body: string;
    fromMe?: boolean;
    read?: boolean;
    at?: string;
    contactId?: number | null;
    quotedMsgId?: number | null;
  },
) {
  const at = input.at ?? t.clock.now().toISOString();
  const row = await t.deps.db.insertInto("messages").values({
    companyId,
    ticketId: input.ticketId,
    contactId: input.contactId ?? null,
    whatsappId: null,
    wid: null,
    remoteJid: null,
    participant: null,
    body: input.body,
    fromMe: input.fromMe ? 1 : 0,
    read: input.read ? 1 : 0,
    mediaType: null,
    mediaUrl: null,
    mediaName: null,
    quotedMsgId: input.quotedMsgId ?? null,
    dataJson: null,
    createdAt: at,
    updatedAt: at,
  }).returning("id").executeTakeFirstOrThrow();
  return row.id;
}

export async function setSetting(t: TestApp, companyId: number, key: string, value: string) {
  await t.deps.db.updateTable("settings").set({ value }).where("companyId", "=", companyId)
    .where("key", "=", key).execute();
}

export async function ticketRow(t: TestApp, id: number) {
  return await t.deps.db.selectFrom("tickets").selectAll().where("id", "=", id)
    .executeTakeFirstOrThrow();
}

/** A company scene: two queues, a default connection, a contact, the user in queue 1. */
export async function scene(t: TestApp, company: { id: number; user: { id: number } }) {
  const q1 = await addQueue(t, company.id, "Vendas");
  const q2 = await addQueue(t, company.id, "Suporte");
  const whatsappId = await addWhatsapp(t, company.id, "Principal", { isDefault: true });
  const contactId = await addContact(t, company.id, "Maria Souza", "5511999990001");
  await addUserToQueues(t, company.id, company.user.id, [q1]);
  return { q1, q2, whatsappId, contactId };
}
