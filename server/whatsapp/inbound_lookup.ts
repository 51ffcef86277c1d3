import { sql } from "kysely";
import type { Database } from "../../db/client.ts";
import type { Contact } from "../../db/schema.ts";
import { DEFAULT_SETTINGS } from "../settings/defaults.ts";

/** The settings the pipeline honours (seeds/001 section 2). */
export type PipelineSettings = { CheckMsgIsGroup: string; call: string; scheduleType: string };

/** What the pipeline needs of a contact's latest ticket on the connection. */
export type TicketState = {
  id: number;
  status: string;
  userId: number | null;
  queueId: number | null;
  chatbot: number;
  queueOptionId: number | null;
  amountUsedBotQueues: number;
  awaitingRating: number;
};

export type InboundLookup = {
  settings: PipelineSettings;
  /** The (connection, WhatsApp id) key is already stored. */
  seen?: { id: number; ticketId: number };
  /** Contacts matching the phone number/group id or the LID, each with its latest ticket here. */
  candidates: { contact: Contact; latest?: TicketState }[];
};

type Row = Contact & {
  sCheckMsgIsGroup: string | null;
  sCall: string | null;
  sScheduleType: string | null;
  seenId: number | null;
  seenTicketId: number | null;
  latest: string | null;
};

/**
 * Everything an inbound message needs to know before writing, in ONE query (the client's
 * per-query cost dominates the pipeline): the three settings, whether the idempotency key is
 * already stored, the contact candidates and each one's latest ticket on this connection (an
 * open ticket first, else the newest closed one, for rating answers).
 */
export async function lookupInbound(
  db: Database,
  companyId: number,
  whatsappId: number,
  wid: string,
  number: string,
  lid: string | undefined,
): Promise<InboundLookup> {
  const { rows } = await sql<Row>`
    SELECT
      (SELECT value FROM settings WHERE companyId = ${companyId} AND key = 'CheckMsgIsGroup')
        AS sCheckMsgIsGroup,
      (SELECT value FROM settings WHERE companyId = ${companyId} AND key = 'call') AS sCall,
      (SELECT value FROM settings WHERE companyId = ${companyId} AND key = 'scheduleType')
        AS sScheduleType,
      seen.id AS seenId,
      seen.ticketId AS seenTicketId,
      c.*,
      (SELECT json_object(
          'id', t.id, 'status', t.status, 'userId', t.userId, 'queueId', t.queueId,
          'chatbot', t.chatbot, 'queueOptionId', t.queueOptionId,
          'amountUsedBotQueues', t.amountUsedBotQueues, 'awaitingRating', t.awaitingRating)
        FROM tickets t
        WHERE t.companyId = ${companyId} AND t.contactId = c.id AND t.whatsappId = ${whatsappId}
        ORDER BY t.status = 'closed', t.id DESC LIMIT 1) AS latest
    FROM (SELECT 1) AS base
    LEFT JOIN messages seen ON seen.whatsappId = ${whatsappId} AND seen.wid = ${wid}
    LEFT JOIN contacts c ON c.companyId = ${companyId}
      AND (c.number = ${number} OR c.lid = ${lid ?? null})
  `.execute(db);
  const first = rows[0];
  const settings: PipelineSettings = {
    CheckMsgIsGroup: first?.sCheckMsgIsGroup ?? DEFAULT_SETTINGS.CheckMsgIsGroup,
    call: first?.sCall ?? DEFAULT_SETTINGS.call,
    scheduleType: first?.sScheduleType ?? DEFAULT_SETTINGS.scheduleType,
  };
  const candidates: InboundLookup["candidates"] = [];
  for (const row of rows) {
    if (row.id === null || row.id === undefined) continue;
    const {
      sCheckMsgIsGroup: _g,
      sCall: _c,
      sScheduleType: _s,
      seenId: _i,
      seenTicketId: _t,
      latest,
      ...contact
    } = row;
    candidates.push({
      contact: contact as Contact,
      latest: latest ? JSON.parse(latest) as TicketState : undefined,
    });
  }
  return {
    settings,
    seen: first?.seenId != null ? { id: first.seenId, ticketId: first.seenTicketId! } : undefined,
    candidates,
  };
}
