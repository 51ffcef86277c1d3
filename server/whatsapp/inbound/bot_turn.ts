import type { Contact } from "../../../db/schema.ts";
import type { BotDecision, BotInboundMedia, BotTicket } from "../../bots/bot.ts";
import type { InboundMessage, InboundRef } from "../providers/provider.ts";
import type { InboundDeps } from "./deps.ts";
import type { PipelineSettings, TicketState } from "./lookup_repository.ts";

/** A ticket the pipeline is about to open, as the bots see it. */
const NEW_TICKET: BotTicket = {
  isNew: true,
  id: null,
  status: "pending",
  userId: null,
  queueId: null,
  chatbot: 0,
  queueOptionId: null,
  amountUsedBotQueues: 0,
  useIntegration: 0,
  integrationId: null,
  promptId: null,
  botSession: null,
  botSessionAt: null,
};

/**
 * Asks the bot that owns the ticket (if any) what to answer and change (server/bots/), before
 * the message's transaction: the open ticket as read, or the one about to open.
 */
export function askBot(
  deps: Pick<InboundDeps, "db" | "bots" | "clock">,
  input: {
    ref: InboundRef;
    settings: PipelineSettings;
    open: TicketState | undefined;
    m: InboundMessage;
    contact: Contact;
    media: BotInboundMedia | null;
    /** False: the bot may change the ticket but says nothing (our own, a group's, a call). */
    answer: boolean;
  },
): Promise<BotDecision> {
  const { ref, settings, open, m, contact } = input;
  const ticket: BotTicket = open
    ? {
      isNew: false,
      id: open.id,
      status: open.status,
      userId: open.userId,
      queueId: open.queueId,
      chatbot: open.chatbot,
      queueOptionId: open.queueOptionId,
      amountUsedBotQueues: open.amountUsedBotQueues,
      useIntegration: open.useIntegration,
      integrationId: open.integrationId,
      promptId: open.promptId,
      botSession: open.botSession ?? null,
      botSessionAt: open.botSessionAt ?? null,
    }
    : { ...NEW_TICKET };
  return deps.bots.decide({
    db: deps.db,
    companyId: ref.companyId,
    whatsappId: ref.id,
    ticket,
    contact: {
      id: contact.id,
      name: contact.name,
      number: contact.number,
      email: contact.email,
    },
    // A tapped menu button answers with its choice, as if the contact typed it.
    body: m.choice ?? m.body,
    media: input.media,
    scheduleType: settings.scheduleType,
    timeZone: settings.timeZone,
    now: deps.clock.now(),
    answer: input.answer,
  });
}
