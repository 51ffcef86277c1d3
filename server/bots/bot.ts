import type { MenuChoice } from "../../contract/channels.ts";
import type { Database } from "../../db/client.ts";
import type { Ticket } from "../../db/schema.ts";
import { type MediaConfig, saveMedia } from "../media/store.ts";

/**
 * Conversation automation (DESIGN 'Conversation automation'): what answers a contact before a
 * person does. The inbound pipeline knows only this file's types and the registry
 * (registry.ts); each kind of bot (the queue menu today; queue integrations and AI prompts next)
 * is one implementation of `Bot`.
 */

/** The ticket as a bot sees it; a new ticket is not written yet (`isNew`, no id). */
export type BotTicket = {
  isNew: boolean;
  /** null while the ticket is not written yet (`isNew`). */
  id: number | null;
  status: string;
  userId: number | null;
  queueId: number | null;
  chatbot: number;
  queueOptionId: number | null;
  amountUsedBotQueues: number;
  useIntegration: number;
  integrationId: number | null;
  promptId: number | null;
  /** The outside bot's conversation (typebot sessionId) and its last activity. */
  botSession: string | null;
  botSessionAt: string | null;
};

/** Who writes (seeds/000 section 3 Contact): outside bots receive it. */
export type BotContact = { id: number; name: string; number: string; email: string };

/** The inbound message's stored file, if any (audio is transcribed for AI prompts). */
export type BotInboundMedia = { type: string; path: string; mimetype: string };

/** One inbound message on a ticket that may be with a bot. */
export type BotTurn = {
  db: Database;
  companyId: number;
  whatsappId: number;
  ticket: BotTicket;
  contact: BotContact;
  body: string;
  media: BotInboundMedia | null;
  /** The company's `scheduleType` setting: "company", "queue" or disabled. */
  scheduleType: string;
  /** The company's zone: the hours of `scheduleType` are on its clock. */
  timeZone: string;
  now: Date;
  /**
   * false for messages a bot must not answer (sent from the phone, in a group, a call log): the
   * bot may still place a new ticket (its queue) but replies nothing.
   */
  answer: boolean;
};

/** Ticket fields a bot may change. `chatbot: 0` and the integration cleared hand it to people. */
export type BotChanges = Partial<
  Pick<
    Ticket,
    | "queueId"
    | "chatbot"
    | "queueOptionId"
    | "amountUsedBotQueues"
    | "useIntegration"
    | "integrationId"
    | "promptId"
    | "botSession"
    | "botSessionAt"
    | "status"
    | "userId"
    | "closedAt"
  >
>;

/**
 * A stored file (media store key) that goes out after the text replies. `transient`: the bot
 * saved it for this turn only (a typebot image), so its key is removed once the send has its own.
 */
export type BotMedia = { path: string; name: string; mimetype?: string; transient?: boolean };

/**
 * What a bot decided for a turn. The pipeline writes `changes`, the inbound message and the
 * replies (through the outbox) in ONE transaction, so a crash loses none of them and doubles
 * none. Replies are templates ({{name}}, {{protocol}}...) rendered once the ticket exists.
 */
export type BotDecision = {
  replies: string[];
  /** Issue 45: the menu choices of a reply (by its index), for channels with buttons/lists. */
  menus?: Record<number, MenuChoice[]>;
  media?: BotMedia[];
  changes: BotChanges;
  /** The queue a new ticket is created in (the connection's only queue, say). */
  newTicketQueueId?: number | null;
  /** Milliseconds between consecutive replies going out (typebotDelayMessage). */
  spacingMs?: number;
};

export const NOTHING: BotDecision = { replies: [], changes: {} };

/** One kind of bot. `decide` may call outside services (with timeouts); it writes nothing. */
export interface Bot {
  readonly kind: string;
  decide(turn: BotTurn): Promise<BotDecision>;
}

/** Saves bytes a bot received (a typebot picture, a spoken answer) as a file for this turn. */
export async function transientMedia(
  config: MediaConfig,
  companyId: number,
  bytes: Uint8Array,
  meta: { mimetype: string; filename: string },
): Promise<BotMedia> {
  const stored = await saveMedia(config, companyId, bytes, meta);
  return { path: stored.path, name: stored.filename, mimetype: stored.mimetype, transient: true };
}
