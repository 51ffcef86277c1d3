import { sql } from "kysely";
import type { Database } from "../../../db/client.ts";
import type { Contact } from "../../../db/schema.ts";
import { DEFAULT_SETTINGS } from "../../settings/defaults.ts";
import { TIME_ZONE_SETTING, zoneOf } from "../../../contract/time_zone.ts";
import type { TicketViewRow } from "../../tickets/view.ts";
import { TAGS_JSON } from "../../tickets/view_repository.ts";

/** The settings the pipeline honours (seeds/001 section 2), and the company's clock. */
export type PipelineSettings = {
  CheckMsgIsGroup: string;
  call: string;
  scheduleType: string;
  timeZone: string;
};

/**
 * A contact's latest ticket on the connection: what routing needs, plus the names its view shows
 * (so that an ordinary message needs no second read to publish the ticket).
 */
export type TicketState =
  & Omit<
    TicketViewRow,
    "contactName" | "contactNumber" | "contactEmail" | "contactPic" | "contactIsGroup"
  >
  & {
    queueOptionId: number | null;
    amountUsedBotQueues: number;
    awaitingRating: number;
    botSession: string | null;
    botSessionAt: string | null;
  };

export type InboundLookup = {
  settings: PipelineSettings;
  /** The (connection, WhatsApp id) key is already stored. */
  seen?: { id: number; ticketId: number };
  /** Contacts matching the phone number/group id or the LID, each with its latest ticket here. */
  candidates: { contact: Contact; latest?: TicketState }[];
};

type Packed = {
  settings: {
    CheckMsgIsGroup: string | null;
    call: string | null;
    scheduleType: string | null;
    timeZone: string | null;
  };
  seen: { id: number; ticketId: number } | null;
  contact: Contact | null;
  // json() keeps nested JSON as JSON; tolerate text too (SQLite drops the JSON subtype across
  // some subquery boundaries).
  latest: (Omit<TicketState, "tagsJson"> & { tagsJson: unknown }) | string | null;
};

/**
 * Everything an inbound message needs to know before writing, in ONE query: the three settings,
 * whether the idempotency key is already stored, the contact candidates and each one's latest
 * ticket on this connection (an open one first, else the newest closed one, for rating answers).
 *
 * Each row comes back as ONE JSON column: @libsql/client builds every returned row column by
 * column with Object.defineProperty, which costs more than the query itself at this rate, while
 * JSON.parse of one string is cheap.
 */
export async function lookupInbound(
  db: Database,
  companyId: number,
  whatsappId: number,
  wid: string,
  number: string,
  lid: string | undefined,
): Promise<InboundLookup> {
  const { rows } = await sql<{ packed: string }>`
    SELECT json_object(
      'settings', json_object(
        'CheckMsgIsGroup',
        (SELECT value FROM settings WHERE companyId = ${companyId} AND key = 'CheckMsgIsGroup'),
        'call', (SELECT value FROM settings WHERE companyId = ${companyId} AND key = 'call'),
        'scheduleType',
        (SELECT value FROM settings WHERE companyId = ${companyId} AND key = 'scheduleType'),
        'timeZone',
        (SELECT value FROM settings WHERE companyId = ${companyId} AND key = ${TIME_ZONE_SETTING})),
      'seen', CASE WHEN seen.id IS NULL THEN NULL
        ELSE json_object('id', seen.id, 'ticketId', seen.ticketId) END,
      'contact', CASE WHEN c.id IS NULL THEN NULL ELSE json_object(
        'id', c.id, 'uuid', c.uuid, 'companyId', c.companyId, 'name', c.name,
        'number', c.number, 'lid', c.lid, 'email', c.email, 'profilePicUrl', c.profilePicUrl,
        'isGroup', c.isGroup, 'whatsappId', c.whatsappId, 'createdAt', c.createdAt,
        'updatedAt', c.updatedAt) END,
      'latest', json((SELECT json_object(
          'id', t.id, 'uuid', t.uuid, 'status', t.status, 'contactId', t.contactId,
          'userId', t.userId, 'queueId', t.queueId, 'whatsappId', t.whatsappId,
          'isGroup', t.isGroup, 'chatbot', t.chatbot, 'useIntegration', t.useIntegration,
          'integrationId', t.integrationId, 'promptId', t.promptId,
          'lastMessage', t.lastMessage, 'unreadMessages', t.unreadMessages,
          'companyId', t.companyId, 'createdAt', t.createdAt, 'updatedAt', t.updatedAt,
          'firstResponseDueAt', t.firstResponseDueAt, 'resolutionDueAt', t.resolutionDueAt,
          'slaBreachedAt', t.slaBreachedAt, 'resolutionPausedAt', t.resolutionPausedAt,
          'queueOptionId', t.queueOptionId, 'amountUsedBotQueues', t.amountUsedBotQueues,
          'awaitingRating', t.awaitingRating, 'botSession', t.botSession,
          'botSessionAt', t.botSessionAt, 'userName', u.name, 'queueName', q.name,
          'queueColor', q.color, 'whatsappName', w.name, 'whatsappStatus', w.status,
          'whatsappProvider', w.provider, 'referralJson', t.referral,
          'tagsJson', json(${TAGS_JSON}))
        FROM tickets t
        LEFT JOIN users u ON u.id = t.userId
        LEFT JOIN queues q ON q.id = t.queueId
        LEFT JOIN whatsapps w ON w.id = t.whatsappId
        -- '+': the walk goes through tickets_contact_whatsapp, never an index led by companyId
        WHERE +t.companyId = ${companyId} AND t.contactId = c.id AND t.whatsappId = ${whatsappId}
        ORDER BY t.status = 'closed', t.id DESC LIMIT 1))
    ) AS packed
    FROM (SELECT 1) AS base
    LEFT JOIN messages seen ON seen.whatsappId = ${whatsappId} AND seen.wid = ${wid}
    LEFT JOIN contacts c ON c.companyId = ${companyId}
      AND (c.number = ${number} OR c.lid = ${lid ?? null})
  `.execute(db);
  const packed = rows.map((r) => JSON.parse(r.packed) as Packed);
  const first = packed[0];
  const settings: PipelineSettings = {
    CheckMsgIsGroup: first?.settings.CheckMsgIsGroup ?? DEFAULT_SETTINGS.CheckMsgIsGroup,
    call: first?.settings.call ?? DEFAULT_SETTINGS.call,
    scheduleType: first?.settings.scheduleType ?? DEFAULT_SETTINGS.scheduleType,
    timeZone: zoneOf([{ key: TIME_ZONE_SETTING, value: first?.settings.timeZone ?? "" }]),
  };
  const candidates: InboundLookup["candidates"] = [];
  for (const row of packed) {
    if (!row.contact) continue;
    const raw = typeof row.latest === "string" ? JSON.parse(row.latest) : row.latest;
    const latest = raw
      ? {
        ...raw,
        tagsJson: typeof raw.tagsJson === "string"
          ? raw.tagsJson
          : JSON.stringify(raw.tagsJson ?? []),
      }
      : undefined;
    candidates.push({ contact: row.contact, latest });
  }
  return { settings, seen: first?.seen ?? undefined, candidates };
}
