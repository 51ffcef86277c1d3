import type { Database } from "../../db/client.ts";
import type { Ticket } from "../../db/schema.ts";

/**
 * Conversation automation (DESIGN 'Conversation automation'): what answers a contact before a
 * person does. The inbound pipeline knows only this file's types and the registry
 * (registry.ts); each kind of bot (the queue menu today; queue integrations and AI prompts next)
 * is one implementation of `Bot`.
 */

/** The ticket as a bot sees it; a new ticket is not written yet (`isNew`, no id). */
export type BotTicket = {
  isNew: boolean;
  status: string;
  userId: number | null;
  queueId: number | null;
  chatbot: number;
  queueOptionId: number | null;
  amountUsedBotQueues: number;
  useIntegration: number;
  integrationId: number | null;
  promptId: number | null;
};

/** One inbound message on a ticket that may be with a bot. */
export type BotTurn = {
  db: Database;
  companyId: number;
  whatsappId: number;
  ticket: BotTicket;
  body: string;
  /** The company's `scheduleType` setting: "company", "queue" or disabled. */
  scheduleType: string;
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
  >
>;

/** A stored file (media store key) that goes out after the text replies. */
export type BotMedia = { path: string; name: string };

/**
 * What a bot decided for a turn. The pipeline writes `changes`, the inbound message and the
 * replies (through the outbox) in ONE transaction, so a crash loses none of them and doubles
 * none. Replies are templates ({{name}}, {{protocol}}...) rendered once the ticket exists.
 */
export type BotDecision = {
  replies: string[];
  media?: BotMedia[];
  changes: BotChanges;
  /** The queue a new ticket is created in (the connection's only queue, say). */
  newTicketQueueId?: number | null;
};

export const NOTHING: BotDecision = { replies: [], changes: {} };

/** One kind of bot. `decide` may call outside services (with timeouts); it writes nothing. */
export interface Bot {
  readonly kind: string;
  decide(turn: BotTurn): Promise<BotDecision>;
}
