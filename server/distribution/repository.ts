import { sql } from "kysely";
import type { Database } from "../../db/client.ts";
import { isPostgres } from "../../db/engine.ts";
import type { QueueDistribution, TicketUpdate } from "../../db/schema.ts";
import { countedHours, type WorkingHoursEntry } from "../queues/hours.ts";

/** SQL of distribution and service-level targets (issue 26), one company at a time. */

export type QueuePolicy = {
  id: number;
  distribution: QueueDistribution;
  distributionCursor: number | null;
  /** The hours that count (countedHours: none while the company does not manage hours). */
  hours: WorkingHoursEntry[];
  firstResponseMinutes: number | null;
  resolutionMinutes: number | null;
};

/** The company's scheduleType setting and its own hours, beside a queue's row. */
const HOURS_INPUTS = (companyId: number) =>
  [
    sql<string | null>`(SELECT s.value FROM settings s WHERE s.companyId = ${companyId}
      AND s.key = 'scheduleType')`.as("scheduleType"),
    sql<string | null>`(SELECT c.schedules FROM companies c WHERE c.id = ${companyId})`
      .as("companySchedules"),
  ] as const;

export async function queuePolicy(
  db: Database,
  companyId: number,
  queueId: number,
): Promise<QueuePolicy | undefined> {
  const row = await db.selectFrom("queues").select([
    "id",
    "distribution",
    "distributionCursor",
    "schedules",
    "firstResponseMinutes",
    "resolutionMinutes",
    ...HOURS_INPUTS(companyId),
  ]).where("companyId", "=", companyId).where("id", "=", queueId).executeTakeFirst();
  if (!row) return undefined;
  const { schedules, scheduleType, companySchedules, ...policy } = row;
  return { ...policy, hours: countedHours(scheduleType, schedules, companySchedules) };
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
 *
 * PostgreSQL runs writers side by side, each counting from its own snapshot: two processes could
 * both see room for the last place. There the user's row is locked first (FOR UPDATE, in the same
 * transaction), so givers of one user take turns, and the UPDATE, which reads a new snapshot
 * once the lock is held, counts the ticket the previous one gave (issue 46).
 */
export async function giveTicket(
  db: Database,
  companyId: number,
  ticketId: number,
  userId: number,
  capacity: number | null,
  patch: TicketUpdate,
): Promise<boolean> {
  const give = async (tx: Database) => {
    if (capacity !== null && isPostgres(tx)) {
      await tx.selectFrom("users").select("id").where("companyId", "=", companyId)
        .where("id", "=", userId).forUpdate().execute();
    }
    let q = tx.updateTable("tickets").set({ ...patch, userId, status: "open" })
      .where("companyId", "=", companyId).where("id", "=", ticketId)
      .where("status", "=", "pending").where("userId", "is", null);
    if (capacity !== null) {
      q = q.where(sql<boolean>`(SELECT COUNT(*) FROM tickets held
        WHERE held.companyId = ${companyId} AND held.userId = ${userId}
          AND held.status <> 'closed') < ${capacity}`);
    }
    const result = await q.executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  };
  if (capacity === null || !isPostgres(db) || db.isTransaction) return await give(db);
  return await db.transaction().execute(give);
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
  const row = await db.selectFrom("tickets as t").leftJoin("queues as q", "q.id", "t.queueId")
    .select([
      "t.resolutionPausedAt",
      "t.resolutionDueAt",
      "q.schedules",
      ...HOURS_INPUTS(companyId),
    ])
    .where("t.companyId", "=", companyId).where("t.id", "=", ticketId)
    .where("t.resolutionPausedAt", "is not", null).where("t.resolutionDueAt", "is not", null)
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    resolutionPausedAt: row.resolutionPausedAt,
    resolutionDueAt: row.resolutionDueAt,
    hours: countedHours(row.scheduleType, row.schedules, row.companySchedules),
  };
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

/**
 * The company's tickets waiting on a queue's targets (one queue, or all when null), not breached:
 * what a change of hours or targets dates again (issue 50). `startedAt`: when the clock started
 * (the ticket entered its queue or was reopened, as the timeline says; else its creation);
 * `answered`: a person already gave this cycle's first response (the breach scan's rule).
 */
export async function ticketsToRedate(db: Database, companyId: number, queueId: number | null) {
  let q = db.selectFrom("tickets as t")
    .select([
      "t.id",
      "t.queueId",
      "t.status",
      "t.firstResponseDueAt",
      "t.resolutionDueAt",
      sql<string>`coalesce((SELECT max(e.at) FROM ticket_events e WHERE e.ticketId = t.id
        AND e.companyId = ${companyId} AND e.kind IN ('reopened', 'queued')), t.createdAt)`
        .as("startedAt"),
      sql<number>`(t.acceptedAt IS NOT NULL AND EXISTS (SELECT 1 FROM messages m
        WHERE m.ticketId = t.id AND m.fromMe = 1 AND m.createdAt >= t.acceptedAt))`
        .as("answered"),
    ])
    .where("t.companyId", "=", companyId).where("t.status", "<>", "closed")
    .where("t.queueId", "is not", null).where("t.slaBreachedAt", "is", null)
    .where("t.resolutionPausedAt", "is", null);
  if (queueId !== null) q = q.where("t.queueId", "=", queueId);
  return await q.orderBy("t.id").execute();
}

/** New due instants for a ticket whose targets are not missed yet (guarded by that). */
export async function redate(
  db: Database,
  companyId: number,
  ticketId: number,
  due: { firstResponseDueAt: string | null; resolutionDueAt: string | null },
): Promise<boolean> {
  const result = await db.updateTable("tickets").set(due).where("companyId", "=", companyId)
    .where("id", "=", ticketId).where("slaBreachedAt", "is", null)
    .where("status", "<>", "closed").executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
