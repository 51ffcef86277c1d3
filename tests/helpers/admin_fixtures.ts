import type { TicketStatus } from "../../db/schema.ts";
import type { TestApp } from "./app.ts";
import { serve, TestSocket } from "./server.ts";

/** Direct inserts for the administration tests (rows other areas' APIs would create). */
export async function insertContact(
  t: TestApp,
  companyId: number,
  values: { name?: string; number?: string; email?: string; createdAt?: string; isGroup?: number } =
    {},
) {
  const stamp = values.createdAt ?? t.clock.now().toISOString();
  return await t.deps.db.insertInto("contacts").values({
    uuid: crypto.randomUUID(),
    companyId,
    name: values.name ?? "Contato",
    number: values.number ?? `55139${String(Math.floor(Math.random() * 1e8)).padStart(8, "0")}`,
    email: values.email ?? "",
    isGroup: values.isGroup ?? 0,
    lid: null,
    whatsappId: null,
    createdAt: stamp,
    updatedAt: stamp,
  }).returningAll().executeTakeFirstOrThrow();
}

export async function insertTicket(
  t: TestApp,
  companyId: number,
  values: {
    contactId?: number;
    status?: TicketStatus;
    userId?: number | null;
    queueId?: number | null;
    createdAt?: string;
    acceptedAt?: string | null;
    closedAt?: string | null;
    isGroup?: number;
  } = {},
) {
  const contactId = values.contactId ??
    (await insertContact(t, companyId, { createdAt: values.createdAt })).id;
  const stamp = values.createdAt ?? t.clock.now().toISOString();
  return await t.deps.db.insertInto("tickets").values({
    uuid: crypto.randomUUID(),
    companyId,
    contactId,
    status: values.status ?? "pending",
    whatsappId: null,
    userId: values.userId ?? null,
    queueId: values.queueId ?? null,
    queueOptionId: null,
    integrationId: null,
    promptId: null,
    isGroup: values.isGroup ?? 0,
    acceptedAt: values.acceptedAt ?? null,
    closedAt: values.closedAt ?? null,
    createdAt: stamp,
    updatedAt: stamp,
  }).returningAll().executeTakeFirstOrThrow();
}

export async function insertWhatsapp(t: TestApp, companyId: number, name = "Conexão") {
  const stamp = t.clock.now().toISOString();
  return await t.deps.db.insertInto("whatsapps").values({
    companyId,
    name,
    number: null,
    promptId: null,
    createdAt: stamp,
    updatedAt: stamp,
  }).returningAll().executeTakeFirstOrThrow();
}

/** A test app served on a port, for real sockets; always closed. */
export async function withServedApp(
  t: TestApp,
  fn: (wsUrl: string) => Promise<void>,
): Promise<void> {
  const s = serve(t);
  try {
    await fn(s.wsUrl);
  } finally {
    t.deps.hub.closeAll();
    await s.close();
  }
}

/** Connects a socket for each token and returns them (closed by withServedApp's closeAll). */
export async function sockets(wsUrl: string, ...tokens: string[]): Promise<TestSocket[]> {
  return await Promise.all(tokens.map((token) => TestSocket.connect(wsUrl, token)));
}
