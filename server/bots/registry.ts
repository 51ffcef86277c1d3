import { log } from "../log.ts";
import { type Bot, type BotChanges, type BotDecision, type BotTurn, NOTHING } from "./bot.ts";

/**
 * Which bot answers a ticket, and the one rule every bot shares: when a bot fails (an outside
 * service down, a bug), the ticket goes to people. The message itself is never lost: the pipeline
 * stores it whatever the bot decided.
 *
 * Ownership, in order (seeds/000 section 3 Ticket, seeds/002 sections 3 and 7):
 * - a ticket someone attends (open, or with a user) has no bot;
 * - `useIntegration` with an `integrationId`: the "integration" bot (queue integrations);
 * - a `promptId`: the "prompt" bot (AI prompts);
 * - otherwise the "menu" bot (greeting, queue menu, option tree, hours).
 * A kind with no bot registered hands the ticket to people.
 */
export const HAND_OVER = {
  chatbot: 0,
  useIntegration: 0,
  integrationId: null,
  promptId: null,
  // The outside bot's conversation (a typebot session) ends with it.
  botSession: null,
  botSessionAt: null,
} as const satisfies BotChanges;

export class BotRegistry {
  readonly #bots = new Map<string, Bot>();

  register(bot: Bot): this {
    this.#bots.set(bot.kind, bot);
    return this;
  }

  /** The kind of bot that owns the ticket, or undefined when people have it. */
  ownerOf(ticket: BotTurn["ticket"]): string | undefined {
    if (!ticket.isNew && (ticket.status !== "pending" || ticket.userId !== null)) return undefined;
    if (ticket.useIntegration === 1 && ticket.integrationId !== null) return "integration";
    if (ticket.promptId !== null) return "prompt";
    return "menu";
  }

  /**
   * The owner's decision. When it hands the ticket to another bot (the queue menu entering a
   * queue with an integration or a prompt), that bot answers the same message at once, so the
   * contact does not have to write again; one hop only.
   */
  async decide(turn: BotTurn): Promise<BotDecision> {
    const kind = this.ownerOf(turn.ticket);
    if (!kind) return NOTHING;
    const first = await this.#decideWith(kind, turn);
    if (!turn.answer) return first;
    const next = this.ownerOf({ ...turn.ticket, ...first.changes, isNew: false });
    if (!next || next === kind || next === "menu") return first;
    const ticket = {
      ...turn.ticket,
      ...first.changes,
      queueId: first.changes.queueId ?? first.newTicketQueueId ?? turn.ticket.queueId,
    };
    const second = await this.#decideWith(next, { ...turn, ticket });
    return {
      replies: [...first.replies, ...second.replies],
      // The second bot's menus follow the first's replies.
      menus: {
        ...first.menus,
        ...Object.fromEntries(
          Object.entries(second.menus ?? {}).map(([i, c]) => [Number(i) + first.replies.length, c]),
        ),
      },
      media: [...first.media ?? [], ...second.media ?? []],
      changes: { ...first.changes, ...second.changes },
      newTicketQueueId: first.newTicketQueueId,
      spacingMs: second.spacingMs ?? first.spacingMs,
    };
  }

  async #decideWith(kind: string, turn: BotTurn): Promise<BotDecision> {
    const bot = this.#bots.get(kind);
    if (!bot) {
      log.warn("bots: no bot of this kind; the ticket goes to people", {
        kind,
        companyId: turn.companyId,
      });
      return { replies: [], changes: turn.answer ? HAND_OVER : {} };
    }
    try {
      return await bot.decide(turn);
    } catch (error) {
      log.error("bots: the bot failed; the ticket goes to people", {
        kind,
        companyId: turn.companyId,
        whatsappId: turn.whatsappId,
        error,
      });
      return { replies: [], changes: turn.answer ? HAND_OVER : {} };
    }
  }
}
