import type { Database } from "../../db/client.ts";
import { crossCompany } from "../../db/tenancy.ts";
import type { SlaKind } from "../../contract/ticket_types.ts";

/**
 * SQL of outgoing_events (migration 0680; outgoing.ts). The job's scans look at every company's
 * rows on purpose (open rows past the grace, old captured rows); each row found is then claimed
 * and written with its company named.
 */

/** What a row names: enough to read the event back from the database. */
export type OutgoingSubject = {
  contactId?: number;
  ticketId?: number;
  messageId?: number;
  /** A ticket's placement before the change (a transfer is told by it). */
  before?: { status: string; queueId: number | null; userId: number | null };
  /** Who made a ticket's change (its pushes name them and spare them). */
  actor?: { id: number; name: string };
  /** ticket.slaBreached: which target was missed. */
  sla?: SlaKind;
  /** ticket.takenBack: its notice (taken_back_notices). */
  noticeId?: number;
  /** chat.message: the internal chat and its message. */
  chatId?: number;
  chatMessageId?: number;
};

/**
 * Notes an event that will leave the system, inside the transaction of the change it tells. The
 * key is the event's id everywhere after (the webhook's `id`, the push queue's key part); the
 * unique outgoing_events_once (eventKey) keeps it one event.
 */
export async function noteOutgoing(
  trx: Database,
  companyId: number,
  event: string,
  subject: OutgoingSubject,
  now: string,
): Promise<string> {
  return (await noteOutgoingMany(trx, companyId, [{ event, subject }], now))[0];
}

const NOTES_PER_INSERT = 500;

/** Several notes at once (the inbound pipeline's message and ticket, an import's contacts); keys in order. */
export async function noteOutgoingMany(
  trx: Database,
  companyId: number,
  items: { event: string; subject: OutgoingSubject }[],
  now: string,
): Promise<string[]> {
  if (items.length === 0) return [];
  const keys = items.map(() => crypto.randomUUID());
  const rows = items.map((item, i) => ({
    companyId,
    eventKey: keys[i],
    event: item.event,
    subject: JSON.stringify(item.subject),
    claimId: null,
    claimedUntil: null,
    createdAt: now,
    capturedAt: null,
  }));
  // An import notes thousands: each statement stays under SQLite's bound-variable limit.
  for (let at = 0; at < rows.length; at += NOTES_PER_INSERT) {
    await trx.insertInto("outgoing_events").values(rows.slice(at, at + NOTES_PER_INSERT)).execute();
  }
  return keys;
}

/** The live path queued it (or the job did): nothing left to recover. */
export async function markCaptured(db: Database, companyId: number, eventKey: string, now: string) {
  await db.updateTable("outgoing_events").set({ capturedAt: now, claimId: null })
    .where("eventKey", "=", eventKey).where("companyId", "=", companyId).execute();
}

/** markCaptured for many notes of one company at once (the live path closes them in batches). */
export async function markCapturedMany(
  db: Database,
  companyId: number,
  eventKeys: readonly string[],
  now: string,
) {
  for (let at = 0; at < eventKeys.length; at += CLOSES_PER_UPDATE) {
    await db.updateTable("outgoing_events").set({ capturedAt: now, claimId: null })
      .where("eventKey", "in", eventKeys.slice(at, at + CLOSES_PER_UPDATE))
      .where("companyId", "=", companyId).execute();
  }
}

/** Keys per closing statement: under SQLite's bound-variable limit with room to spare. */
const CLOSES_PER_UPDATE = 500;

/** Open rows noted before `before` and not under a live claim (outgoing_events_open). */
export async function openOutgoing(db: Database, before: string, now: string, limit: number) {
  return await crossCompany(db).selectFrom("outgoing_events")
    .select(["id", "companyId"])
    .where("capturedAt", "is", null).where("createdAt", "<", before)
    .where((eb) => eb.or([eb("claimedUntil", "is", null), eb("claimedUntil", "<", now)]))
    .orderBy("createdAt").orderBy("id").limit(limit).execute();
}

/**
 * Takes an open row for `claimId` until `until` (a lease); undefined when another tick (of this
 * process or another) holds it or it was captured meanwhile.
 */
export async function claimOutgoing(
  db: Database,
  companyId: number,
  id: number,
  claim: { claimId: string; until: string; now: string },
) {
  const claimed = await db.updateTable("outgoing_events")
    .set({ claimId: claim.claimId, claimedUntil: claim.until })
    .where("id", "=", id).where("companyId", "=", companyId).where("capturedAt", "is", null)
    .where((eb) => eb.or([eb("claimedUntil", "is", null), eb("claimedUntil", "<", claim.now)]))
    .executeTakeFirst();
  if (Number(claimed.numUpdatedRows) === 0) return undefined;
  return await db.selectFrom("outgoing_events").selectAll().where("id", "=", id)
    .where("companyId", "=", companyId).where("claimId", "=", claim.claimId).executeTakeFirst();
}

/** Captured rows older than `before`: their deliveries are queued, the note has done its work. */
export async function pruneCaptured(db: Database, before: string) {
  await crossCompany(db).deleteFrom("outgoing_events").where("capturedAt", "is not", null)
    .where("capturedAt", "<", before).execute();
}

/**
 * A message's event, and its ticket's ticket.updated when the change moved the ticket's preview
 * too (an edit or a deletion of the newest message): both noted, keys named.
 */
export async function noteMessage(
  trx: Database,
  companyId: number,
  event: "message.created" | "message.updated",
  message: { id: number; ticketId: number },
  now: string,
  previewed = false,
): Promise<{ message: string; ticket?: string }> {
  const [key, ticket] = await noteOutgoingMany(trx, companyId, [
    { event, subject: { ticketId: message.ticketId, messageId: message.id } },
    ...(previewed ? [{ event: "ticket.updated", subject: { ticketId: message.ticketId } }] : []),
  ], now);
  return { message: key, ticket };
}

/**
 * One change of a message (a reaction, a transcript, a downloaded file) and its message.updated
 * note, committed together; undefined when `change` changed nothing.
 */
export async function changeWithNote<R extends { id: number; ticketId: number }>(
  db: Database,
  companyId: number,
  now: string,
  change: (trx: Database) => Promise<R | undefined>,
): Promise<{ row: R; outgoing: string } | undefined> {
  return await db.transaction().execute(async (trx) => {
    const row = await change(trx);
    if (!row) return undefined;
    return {
      row,
      outgoing: (await noteMessage(trx, companyId, "message.updated", row, now)).message,
    };
  });
}

/**
 * Tickets let go at once (their queue or attendant deleted): each one's ticket.updated noted,
 * with where it sat before; the keys by ticket id.
 */
export async function noteReleased(
  trx: Database,
  companyId: number,
  tickets: { id: number; status: string; queueId: number | null; userId: number | null }[],
  now: string,
): Promise<Map<number, string>> {
  const keys = await noteOutgoingMany(
    trx,
    companyId,
    tickets.map(({ id, status, queueId, userId }) => ({
      event: "ticket.updated",
      subject: { ticketId: id, before: { status, queueId, userId } },
    })),
    now,
  );
  return new Map(tickets.map((t, i) => [t.id, keys[i]]));
}
