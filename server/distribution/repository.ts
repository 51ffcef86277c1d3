import { sql } from "kysely";
import type { Database } from "../../db/client.ts";
import type { QueueDistribution, TicketUpdate } from "../../db/schema.ts";

/** SQL of distribution and service-level targets (issue 26), one company at a time. */

export type QueuePolicy = {
  id: number;
  distribution: QueueDistribution;
  distributionCursor: number | null;
  schedules: string;
  firstResponseMinutes: number | null;
  resolutionMinutes: number | null;
};

export async function queuePolicy(
  db: Database,
  companyId: number,
  queueId: number,
): Promise<QueuePolicy | undefined> {
  return await db.selectFrom("queues").select([
    "id",
    "distribution",
    "distributionCursor",
    "schedules",
    "firstResponseMinutes",
    "resolutionMinutes",
  ]).where("companyId", "=", companyId).where("id", "=", queueId).executeTakeFirst();
}

/** What deciding about a ticket needs of it. */
export async function ticketToPlace(db: Database, companyId: number, ticketId: number) {
  return await db.selectFrom("tickets").select([
    "id",
    "status",
    "userId",
    "queueId",
    "contactId",
    "whatsappId",
    "isGroup",
    "chatbot",
    "useIntegration",
    "promptId",
    "firstResponseDueAt",
    "resolutionDueAt",
  ]).where("companyId", "=", companyId).where("id", "=", ticketId).executeTakeFirst();
}

export type Attendant = {
  id: number;
  maxOpenTickets: number | null;
  active: number;
  /** The user's daily hours (HH:MM; null: any time). */
  startWork: string | null;
  endWork: string | null;
};

/**
 * The queue's attendants whose browser has a socket open (users.online, kept by the socket
 * presence), each with how many pending/open tickets they hold, by id.
 */
export async function onlineAttendants(
  db: Database,
  companyId: number,
  queueId: number,
): Promise<Attendant[]> {
  const rows = await db.selectFrom("user_queues as uq")
    .innerJoin("users as u", "u.id", "uq.userId")
    .select([
      "u.id",
      "u.maxOpenTickets",
      "u.startWork",
      "u.endWork",
      sql<number>`(SELECT COUNT(*) FROM tickets held WHERE held.companyId = ${companyId}
        AND held.userId = u.id AND held.status <> 'closed')`.as("active"),
    ])
    .where("uq.companyId", "=", companyId).where("uq.queueId", "=", queueId)
    .where("u.companyId", "=", companyId).where("u.online", "=", 1)
    .orderBy("u.id").execute();
  return rows.map((r) => ({ ...r, active: Number(r.active) }));
}

/**
 * Gives a waiting ticket to a user in ONE guarded UPDATE: it must still be pending and nobody's,
 * and the user must still hold fewer than `capacity` pending/open tickets, counted by the same
 * statement (SQLite runs it under the write lock, so two processes on the database cannot both
 * see room for the last place). Returns whether it did.
 */
export async function giveTicket(
  db: Database,
  companyId: number,
  ticketId: number,
  userId: number,
  capacity: number | null,
  patch: TicketUpdate,
): Promise<boolean> {
  let q = db.updateTable("tickets").set({ ...patch, userId, status: "open" })
    .where("companyId", "=", companyId).where("id", "=", ticketId)
    .where("status", "=", "pending").where("userId", "is", null);
  if (capacity !== null) {
    q = q.where(sql<boolean>`(SELECT COUNT(*) FROM tickets held
      WHERE held.companyId = ${companyId} AND held.userId = ${userId}
        AND held.status <> 'closed') < ${capacity}`);
  }
  const result = await q.executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Where round-robin stopped: the user given the queue's last ticket. */
export async function moveCursor(db: Database, companyId: number, queueId: number, userId: number) {
  await db.updateTable("queues").set({ distributionCursor: userId })
    .where("companyId", "=", companyId).where("id", "=", queueId).execute();
}

/** Sets the due instants once (both still unset). */
export async function setDueDates(
  db: Database,
  companyId: number,
  ticketId: number,
  due: { firstResponseDueAt: string | null; resolutionDueAt: string | null },
) {
  await db.updateTable("tickets").set(due).where("companyId", "=", companyId)
    .where("id", "=", ticketId).where("firstResponseDueAt", "is", null)
    .where("resolutionDueAt", "is", null).execute();
}

/**
 * Stops the ticket's resolution clock at `at` (issue 26, pausing): only while it runs, has a
 * target not yet missed, a person holds the ticket (a greeting to a ticket still waiting in
 * 'Aguardando' leaves the customer waiting on us), and its queue pauses for the customer.
 * Returns whether it did.
 */
export async function pauseResolution(
  db: Database,
  companyId: number,
  ticketId: number,
  at: string,
): Promise<boolean> {
  const pausing = db.selectFrom("queues").select("id").where("companyId", "=", companyId)
    .where("pauseWhenWaitingOnCustomer", "=", 1);
  const result = await db.updateTable("tickets").set({ resolutionPausedAt: at })
    .where("companyId", "=", companyId).where("id", "=", ticketId)
    .where("resolutionPausedAt", "is", null).where("resolutionDueAt", "is not", null)
    .where("slaBreachedAt", "is", null).where("status", "=", "open")
    .where("userId", "is not", null).where("queueId", "in", pausing).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** A paused resolution clock with its queue's hours (to count the pause as the target counts). */
export async function pausedResolution(db: Database, companyId: number, ticketId: number) {
  return await db.selectFrom("tickets as t").leftJoin("queues as q", "q.id", "t.queueId")
    .select(["t.resolutionPausedAt", "t.resolutionDueAt", "q.schedules"])
    .where("t.companyId", "=", companyId).where("t.id", "=", ticketId)
    .where("t.resolutionPausedAt", "is not", null).where("t.resolutionDueAt", "is not", null)
    .executeTakeFirst();
}

/**
 * Restarts the clock with its new due instant; guarded by the pause that was read, so a second
 * handling of the same message (or another process) finds nothing and does not push it twice.
 */
export async function resumeResolution(
  db: Database,
  companyId: number,
  ticketId: number,
  pausedAt: string,
  resolutionDueAt: string,
): Promise<boolean> {
  const result = await db.updateTable("tickets")
    .set({ resolutionPausedAt: null, resolutionDueAt })
    .where("companyId", "=", companyId).where("id", "=", ticketId)
    .where("resolutionPausedAt", "=", pausedAt).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Waiting tickets (pending, nobody's, with people) of the company's distributing queues. */
export async function waitingTickets(db: Database, companyId: number, limit: number) {
  const rows = await db.selectFrom("tickets as t")
    .innerJoin("queues as q", "q.id", "t.queueId")
    .select(["t.id", "t.queueId"])
    .where("t.companyId", "=", companyId).where("t.status", "=", "pending")
    .where("t.userId", "is", null).where("t.chatbot", "=", 0).where("t.useIntegration", "=", 0)
    .where("t.promptId", "is", null).where("q.distribution", "<>", "off")
    .orderBy("t.createdAt").orderBy("t.id").limit(limit).execute();
  return rows as { id: number; queueId: number }[];
}

/**
 * Takes back a ticket distribution gave `userId` at `distributedAt`, if it is still theirs and
 * untouched since: guarded by both, so a second tick (or process) finds nothing to take.
 */
export async function takeBack(
  db: Database,
  companyId: number,
  ticketId: number,
  userId: number,
  distributedAt: string,
  stamp: string,
): Promise<boolean> {
  const result = await db.updateTable("tickets")
    .set({
      userId: null,
      status: "pending",
      distributedAt: null,
      acceptedAt: null,
      updatedAt: stamp,
    })
    .where("companyId", "=", companyId).where("id", "=", ticketId)
    .where("userId", "=", userId).where("distributedAt", "=", distributedAt)
    .where("status", "=", "open").executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
