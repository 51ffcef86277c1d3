import type { Database } from "../../db/client.ts";
import type { QueueOption, Whatsapp } from "../../db/schema.ts";
import { defaultWorkingHours, isWithinHours, parseWorkingHours } from "../queues/hours.ts";
import {
  type Bot,
  type BotChanges,
  type BotDecision,
  type BotMedia,
  type BotTicket,
  type BotTurn,
  NOTHING,
} from "./bot.ts";
import { findOption, listOptions } from "../queue_options/repository.ts";
import { companySchedules, menuConnection, routingQueues } from "./repository.ts";
import type { MenuChoice } from "../../contract/channels.ts";

/**
 * Where a pending ticket goes while nobody attends it (seeds/000 section 3 'Connection', seeds/001
 * 'Queues' and 'Settings'): the connection's greeting and numbered queue menu, the chosen queue's
 * chatbot option tree, and working hours. Decides; the caller writes the changes and sends the
 * replies (through the outbox) in the same transaction as the inbound message.
 */
export type RoutingQueue = {
  id: number;
  name: string;
  greetingMessage: string;
  outOfHoursMessage: string;
  schedules: string;
  mediaPath: string | null;
  mediaName: string | null;
  /** The queue's bot (issue 15): an integration, else a prompt, takes over once it is entered. */
  integrationId?: number | null;
  promptId?: number | null;
};

export type RoutingTicket = Pick<
  BotTicket,
  "isNew" | "status" | "userId" | "queueId" | "chatbot" | "queueOptionId" | "amountUsedBotQueues"
>;

export type RoutingChanges = Pick<
  BotChanges,
  | "queueId"
  | "chatbot"
  | "queueOptionId"
  | "amountUsedBotQueues"
  | "useIntegration"
  | "integrationId"
  | "promptId"
>;

/** A stored file (media store key) of a queue or option that goes out after the replies. */
export type RoutingMedia = BotMedia;

export type RoutingResult = {
  changes: RoutingChanges;
  replies: string[];
  /** The choices of the replies that are menus (by index): buttons or lists where they fit. */
  menus?: Record<number, MenuChoice[]>;
  /** Sent after the text replies, in order (reply_media.ts gives each send its own file). */
  media?: RoutingMedia[];
};

export type RoutingInput = {
  ticket: RoutingTicket;
  body: string;
  whatsapp: Pick<Whatsapp, "greetingMessage" | "outOfHoursMessage" | "maxUseBotQueues">;
  queues: RoutingQueue[];
  scheduleType: string;
  companySchedules: string;
  /** The company's zone (the hours are on its clock). */
  timeZone: string;
  now: Date;
  /** Children of a node of a queue's option tree (parentId null = roots), ordered by option. */
  options(queueId: number, parentId: number | null): Promise<QueueOption[]>;
  option(id: number): Promise<QueueOption | undefined>;
};

/** Goes back one level in an option tree. */
export const BACK = "#";

/**
 * What a contact hears after a choice that has no text of its own (a queue without a greeting, an
 * option without a message): without it they heard nothing and could not tell their answer was
 * taken (issue 50 item 11). Portuguese, like the product's other automatic texts.
 */
export const CHOICE_TAKEN = "Recebemos sua escolha: *{choice}*. Aguarde, já vamos te atender!";

/** The same, for a queue chosen outside its hours when no out-of-hours text is written. */
export const CHOICE_TAKEN_CLOSED =
  "Recebemos sua escolha: *{choice}*. Estamos fora do horário de atendimento; responderemos assim que possível.";

export function choiceTaken(choice: string, closed = false): string {
  return (closed ? CHOICE_TAKEN_CLOSED : CHOICE_TAKEN).replace("{choice}", choice);
}

function hoursOf(json: string) {
  const hours = parseWorkingHours(json);
  return hours.length > 0 ? hours : defaultWorkingHours();
}

function join(...parts: string[]): string {
  return parts.map((p) => p.trim()).filter((p) => p.length > 0).join("\n\n");
}

/** A menu reply: its text, and its choices for a channel that shows buttons or a list. */
function pushMenu(result: RoutingResult, text: string, choices: MenuChoice[]) {
  (result.menus ??= {})[result.replies.length] = choices;
  result.replies.push(text);
}

const queueChoices = (queues: readonly { name: string }[]): MenuChoice[] =>
  queues.map((q, i) => ({ id: String(i + 1), title: q.name }));

function optionChoices(options: readonly QueueOption[], withBack: boolean): MenuChoice[] {
  const choices = options.map((o) => ({ id: o.option.trim(), title: o.title }));
  if (withBack) choices.push({ id: BACK, title: "Voltar" });
  return choices;
}

export function queueMenu(queues: readonly { name: string }[]): string {
  return queues.map((q, i) => `*${i + 1}* - ${q.name}`).join("\n");
}

export function optionsMenu(options: readonly QueueOption[], withBack: boolean): string {
  const lines = options.map((o) => `*${o.option}* - ${o.title}`);
  if (withBack) lines.push(`*${BACK}* - Voltar`);
  return lines.join("\n");
}

/** Orders options by their `option` text as numbers when they are numbers ("2" before "10"). */
export function sortOptions(options: QueueOption[]): QueueOption[] {
  return options.sort((a, b) => {
    const na = Number(a.option), nb = Number(b.option);
    if (Number.isFinite(na) && Number.isFinite(nb) && na !== nb) return na - nb;
    return a.option.localeCompare(b.option) || a.id - b.id;
  });
}

export async function loadOptions(
  db: Database,
  companyId: number,
  queueId: number,
  parentId: number | null,
): Promise<QueueOption[]> {
  return sortOptions(await listOptions(db, companyId, queueId, parentId));
}

export async function route(input: RoutingInput): Promise<RoutingResult> {
  const { ticket, whatsapp, queues, now, timeZone } = input;
  const result: RoutingResult = { changes: {}, replies: [] };
  if (ticket.status !== "pending" || ticket.userId !== null) return result;
  // Replies are templates: the caller renders {{name}}, {{protocol}} ... once the ticket exists.
  const text = (t: string) => t;
  const answer = input.body.trim();
  // A queue's or option's file goes with its greeting/message whenever the contact enters that
  // node (queue chosen or routed to, option picked, back to it), not with a menu repeated after
  // an answer that matched nothing.
  const attach = (node: { mediaPath: string | null; mediaName: string | null }) => {
    if (node.mediaPath) {
      (result.media ??= []).push({ path: node.mediaPath, name: node.mediaName ?? "file" });
    }
  };

  // Company hours: outside them nobody routes; the contact hears the out-of-hours message.
  if (
    input.scheduleType === "company" &&
    !isWithinHours(hoursOf(input.companySchedules), now, timeZone)
  ) {
    if (whatsapp.outOfHoursMessage.trim()) result.replies.push(text(whatsapp.outOfHoursMessage));
    return result;
  }

  /** `chosen`: the contact picked it from the menu, so they hear something either way. */
  const enterQueue = async (queue: RoutingQueue, intro: string, chosen = false) => {
    result.changes.queueId = queue.id;
    result.changes.amountUsedBotQueues = 0;
    if (input.scheduleType === "queue" && !isWithinHours(hoursOf(queue.schedules), now, timeZone)) {
      const message = queue.outOfHoursMessage.trim() || whatsapp.outOfHoursMessage.trim();
      if (message) result.replies.push(text(message));
      else if (chosen) result.replies.push(choiceTaken(queue.name, true));
      result.changes.chatbot = 0;
      return;
    }
    attach(queue);
    if (queue.integrationId || queue.promptId) {
      // The queue's own bot answers from here (server/bots/registry.ts chains to it at once).
      const greeting = join(text(intro), text(queue.greetingMessage));
      if (greeting) result.replies.push(greeting);
      result.changes.chatbot = 0;
      if (queue.integrationId) {
        result.changes.useIntegration = 1;
        result.changes.integrationId = queue.integrationId;
      } else {
        result.changes.promptId = queue.promptId;
      }
      return;
    }
    const roots = await input.options(queue.id, null);
    if (roots.length > 0) {
      pushMenu(
        result,
        join(text(intro), text(queue.greetingMessage), optionsMenu(roots, false)),
        optionChoices(roots, false),
      );
      result.changes.chatbot = 1;
      result.changes.queueOptionId = null;
      return;
    }
    const greeting = join(text(intro), text(queue.greetingMessage));
    if (greeting) result.replies.push(greeting);
    else if (chosen && !queue.mediaPath) result.replies.push(choiceTaken(queue.name));
    result.changes.chatbot = 0;
  };

  const current = ticket.queueId === null ? undefined : queues.find((q) => q.id === ticket.queueId);

  if (ticket.queueId === null) {
    if (queues.length === 0) {
      if (ticket.isNew && whatsapp.greetingMessage.trim()) {
        result.replies.push(text(whatsapp.greetingMessage));
      }
      return result;
    }
    if (queues.length === 1) {
      await enterQueue(queues[0], ticket.isNew ? whatsapp.greetingMessage : "");
      return result;
    }
    const menu = join(text(whatsapp.greetingMessage), queueMenu(queues));
    if (ticket.isNew) {
      pushMenu(result, menu, queueChoices(queues));
      result.changes.chatbot = 1;
      result.changes.amountUsedBotQueues = 0;
      return result;
    }
    const chosen = /^\d+$/.test(answer) ? queues[Number(answer) - 1] : undefined;
    if (chosen) {
      await enterQueue(chosen, "", true);
      return result;
    }
    if (ticket.amountUsedBotQueues < whatsapp.maxUseBotQueues) {
      pushMenu(result, menu, queueChoices(queues));
      result.changes.amountUsedBotQueues = ticket.amountUsedBotQueues + 1;
    } else {
      result.changes.chatbot = 0; // the bot gives up: attendants take the ticket from here
    }
    return result;
  }

  if (!current) return result; // the ticket's queue is no longer on this connection
  if (ticket.isNew) {
    await enterQueue(current, whatsapp.greetingMessage);
    return result;
  }
  if (ticket.chatbot !== 1) return result;

  // Walking the queue's option tree: queueOptionId is the node whose children are on offer.
  const node = ticket.queueOptionId === null ? undefined : await input.option(ticket.queueOptionId);
  const offered = await input.options(current.id, node?.id ?? null);
  const menuOf = async (at: QueueOption | undefined) => {
    const children = await input.options(current.id, at?.id ?? null);
    pushMenu(
      result,
      at
        ? join(text(at.message), optionsMenu(children, true))
        : join(text(current.greetingMessage), optionsMenu(children, false)),
      optionChoices(children, at !== undefined),
    );
  };
  if (answer === BACK && node) {
    const parent = node.parentId === null ? undefined : await input.option(node.parentId);
    await menuOf(parent);
    attach(parent ?? current);
    result.changes.queueOptionId = parent?.id ?? null;
    result.changes.amountUsedBotQueues = 0;
    return result;
  }
  const picked = offered.find((o) => o.option.trim() === answer);
  if (picked) {
    result.changes.queueOptionId = picked.id;
    result.changes.amountUsedBotQueues = 0;
    const children = await input.options(current.id, picked.id);
    attach(picked);
    if (children.length > 0) {
      pushMenu(
        result,
        join(text(picked.message), optionsMenu(children, true)),
        optionChoices(children, true),
      );
    } else {
      // A leaf: its message, then the ticket waits in the queue for an attendant.
      if (picked.message.trim()) result.replies.push(text(picked.message));
      else if (!picked.mediaPath) result.replies.push(choiceTaken(picked.title));
      result.changes.chatbot = 0;
    }
    return result;
  }
  if (ticket.amountUsedBotQueues < whatsapp.maxUseBotQueues) {
    await menuOf(node);
    result.changes.amountUsedBotQueues = ticket.amountUsedBotQueues + 1;
  } else {
    result.changes.chatbot = 0;
  }
  return result;
}

/**
 * The first bot: the connection's greeting and queue menu, the queue's option tree, and working
 * hours, from the company's own configuration (no outside service).
 */
export const menuBot: Bot = {
  kind: "menu",
  async decide(turn: BotTurn): Promise<BotDecision> {
    const { db, companyId, whatsappId, ticket } = turn;
    // A pending ticket that already sits in a queue, out of the option tree, waits for people;
    // company hours still answer it (seeds/001 'Settings' scheduleType).
    const waiting = !ticket.isNew && ticket.queueId !== null && ticket.chatbot !== 1 &&
      turn.scheduleType !== "company";
    if (waiting) return NOTHING;
    const whatsapp = await menuConnection(db, companyId, whatsappId);
    if (!whatsapp) return NOTHING;
    const queues = await routingQueues(db, companyId, whatsappId);
    // seeds: the connection's only queue takes a new ticket straight away.
    const newTicketQueueId = ticket.isNew && queues.length === 1 ? queues[0].id : null;
    if (!turn.answer) return { ...NOTHING, newTicketQueueId };
    // A connection with its own bot (seeds/000 section 3 Connection.promptId; issue 15 a
    // connection's integration) gives it every new ticket; the registry chains to it at once.
    if (ticket.isNew && (whatsapp.integrationId || whatsapp.promptId)) {
      return {
        replies: [],
        newTicketQueueId,
        changes: whatsapp.integrationId
          ? { useIntegration: 1, integrationId: whatsapp.integrationId }
          : { promptId: whatsapp.promptId },
      };
    }
    const schedules = turn.scheduleType === "company"
      ? await companySchedules(db, companyId)
      : undefined;
    const result = await route({
      ticket: ticket.isNew ? { ...ticket, queueId: newTicketQueueId } : ticket,
      body: turn.body,
      whatsapp,
      queues,
      scheduleType: turn.scheduleType,
      companySchedules: schedules ?? "[]",
      timeZone: turn.timeZone,
      now: turn.now,
      options: (queueId, parentId) => loadOptions(db, companyId, queueId, parentId),
      option: (id) => findOption(db, companyId, id),
    });
    return { ...result, newTicketQueueId };
  },
};
