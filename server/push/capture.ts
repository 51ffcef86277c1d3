import type { PushKind, PushPayload } from "../../contract/push_types.ts";
import { inQuietHours } from "../../contract/push_types.ts";
import { hourMinute } from "../../contract/time_zone.ts";
import type { TicketView } from "../../contract/ticket_types.ts";
import type { AppDeps } from "../context.ts";
import type { EventBus } from "../events/bus.ts";
import type {
  DomainEventName,
  DomainEvents,
  MessageChanged,
  Outgoing,
  TicketChanged,
  TicketPlacement,
} from "../events/domain.ts";
import { log } from "../log.ts";
import { companyTimeZone } from "../settings/values.ts";
import { mayHearTicket } from "./audience.ts";
import { type QueuedPush, queuePushes } from "./delivery_repository.ts";
import { type PushRecipient, pushRecipients } from "./repository.ts";
import { type NotifyKey, notifyText } from "./texts.ts";

/**
 * Issue 42: which domain events become pushes, and to whom. Listens to the bus like the webhooks'
 * capture (server/webhooks/capture.ts): each event that matters becomes one `Fact`, whose
 * recipients are read from the database and queued as push_deliveries rows, one per device; the
 * `push` job (jobs/registry.ts, send.ts) encrypts and sends them. Nothing here runs in the
 * publisher's turn: the inbound pipeline never waits for a push.
 *
 * Each fact has a key naming it (the message's id, the ticket and the moment of its change), and
 * the unique push_deliveries_once (subscriptionId, eventKey) makes a fact heard twice (or told by
 * two processes behind Redis) one push per device.
 */
export type Fact = {
  companyId: number;
  kind: PushKind;
  key: string;
  /** Tickets: only who may see it under the audience rule (audience.ts) is pushed to. */
  ticket?: { placement: TicketPlacement; isGroup: boolean };
  /** Named users (an owner, a transfer's target, a chat's participants); unset: everyone. */
  userIds?: number[];
  /** Who else of the recipients counts (a queue's members, admins and supervisors). */
  accepts?: (recipient: PushRecipient) => boolean;
  payload: (language: string, showText: boolean) => PushPayload;
};

const ticketUrl = (ticket: TicketView) => `/tickets/${ticket.uuid}`;
const clip = (text: string) => text.length > 180 ? `${text.slice(0, 179)}…` : text;

/** The message's text when the user allows it (and it has one), else the neutral line. */
function textOr(showText: boolean, text: string, neutral: string): string {
  return showText && text.trim() ? clip(text.trim()) : neutral;
}

function ticketPayload(
  ticket: TicketView,
  kind: PushKind,
  title: [NotifyKey, Record<string, string>],
  body: (language: string, showText: boolean) => string,
) {
  return (language: string, showText: boolean): PushPayload => ({
    kind,
    title: notifyText(language, ...title),
    body: body(language, showText),
    url: ticketUrl(ticket),
    tag: `ticket-${ticket.id}`,
  });
}

/** Where a ticket waits, for who is not shown its text. */
function waitingLine(ticket: TicketView, language: string) {
  return ticket.queue
    ? notifyText(language, "waitingIn", { queue: ticket.queue.name })
    : notifyText(language, "waiting");
}

/** A ticket that starts waiting for people now (it was elsewhere, or is new). */
function startsWaiting({ ticket, before }: TicketChanged, created: boolean): boolean {
  if (ticket.status !== "pending" || ticket.userId !== null || ticket.isGroup) return false;
  // Still with a bot or an integration: people are not asked yet (the hand-over is the moment).
  if (ticket.chatbot || ticket.useIntegration) return false;
  if (created) return true;
  if (!before) return false;
  return before.status !== "pending" || before.userId !== null ||
    before.queueId !== ticket.queueId;
}

/**
 * Given to another attendant with its status kept (a transfer, or distribution's hand-out). An
 * acceptance (pending -> open) or a reopening is the attendant's own act and is not pushed.
 */
function transferredTo({ ticket, before }: TicketChanged): number | null {
  if (!before || ticket.userId === null || ticket.userId === before.userId) return null;
  return before.status === ticket.status ? ticket.userId : null;
}

function ticketFacts(event: TicketChanged, created: boolean): Fact[] {
  const { ticket, actor } = event;
  // Who made the change knows it: never pushed to them.
  const notActor = (r: PushRecipient) => r.userId !== actor?.id;
  const facts: Fact[] = [];
  const name = ticket.contact.name;
  const where = { placement: ticket, isGroup: ticket.isGroup };
  if (startsWaiting(event, created)) {
    facts.push({
      companyId: ticket.companyId,
      kind: "newTicket",
      key: `waiting:${ticket.id}:${ticket.queueId ?? 0}:${ticket.updatedAt}`,
      ticket: where,
      // "In my queues": a queue's members; a ticket without a queue, whoever sees it.
      accepts: (r) =>
        notActor(r) && (ticket.queueId === null || r.queueIds.includes(ticket.queueId)),
      payload: ticketPayload(
        ticket,
        "newTicket",
        ["newTicket", { name }],
        (language, showText) => textOr(showText, ticket.lastMessage, waitingLine(ticket, language)),
      ),
    });
  }
  const target = transferredTo(event);
  if (target !== null && target !== actor?.id) {
    facts.push({
      companyId: ticket.companyId,
      kind: "transfer",
      key: `transfer:${ticket.id}:${target}:${ticket.updatedAt}`,
      ticket: where,
      userIds: [target],
      payload: ticketPayload(
        ticket,
        "transfer",
        actor ? ["transferBy", { by: actor.name, name }] : ["transfer", { name }],
        (language, showText) => textOr(showText, ticket.lastMessage, waitingLine(ticket, language)),
      ),
    });
  }
  return facts;
}

function messageFacts({ message, ticket }: MessageChanged): Fact[] {
  // A contact's message on a ticket someone holds: its holder (groups never notify, as on the
  // page's bell).
  if (message.fromMe || ticket.userId === null || ticket.isGroup) return [];
  const name = ticket.contact.name;
  return [{
    companyId: ticket.companyId,
    kind: "message",
    key: `message:${message.id}`,
    ticket: { placement: ticket, isGroup: ticket.isGroup },
    userIds: [ticket.userId],
    payload: ticketPayload(
      ticket,
      "message",
      ["newMessageFrom", { name }],
      (language, showText) =>
        textOr(showText, message.body, notifyText(language, "newMessageFrom", { name })),
    ),
  }];
}

function slaFacts({ companyId, ticket, kind, supervisorIds }: DomainEvents["ticket.slaBreached"]) {
  return [{
    companyId,
    kind: "sla",
    key: `sla:${ticket.id}:${kind}`,
    ticket: { placement: ticket, isGroup: ticket.isGroup },
    // The company's admins and the queue's supervisors, as the socket's `sla` event.
    accepts: (r) => r.profile === "admin" || supervisorIds.includes(r.userId),
    payload: ticketPayload(
      ticket,
      "sla",
      ["sla", { name: ticket.contact.name }],
      (language) =>
        notifyText(language, kind === "firstResponse" ? "slaFirstResponse" : "slaResolution"),
    ),
  }] satisfies Fact[];
}

/**
 * Issue 50 item 17: the attendant a ticket was taken back from is offline by definition (their
 * tab closed), so the socket's notice waits for them; a push tells them now. Told as a transfer
 * (their preference for those), to them only and whether or not they may still open the ticket:
 * it names what their notice names, the contact and who has it now.
 */
function takenBackFacts(
  { companyId, fromUserId, notice }: DomainEvents["ticket.takenBack"],
): Fact[] {
  const name = notice.contactName;
  return [{
    companyId,
    kind: "transfer",
    key: `takenBack:${notice.id}`,
    userIds: [fromUserId],
    payload: (language) => ({
      kind: "transfer",
      title: notifyText(language, "takenBack", { name }),
      body: notice.toUserName
        ? notifyText(language, "takenBackTo", { to: notice.toUserName })
        : notifyText(language, "takenBackQueue"),
      url: "/tickets",
      tag: `ticket-${notice.ticketId}`,
    }),
  }];
}

function chatFacts({ companyId, chat, message }: DomainEvents["chat.message"]): Fact[] {
  // Internal chats reach their participants (server/chats/service.ts), never the sender.
  const userIds = chat.users.map((u) => u.userId).filter((id) => id !== message.senderId);
  const sender = message.sender?.name ?? "";
  return [{
    companyId,
    kind: "chat",
    key: `chat:${message.id}`,
    userIds,
    payload: (language, showText) => ({
      kind: "chat",
      title: notifyText(language, "chat", { title: chat.title }),
      body: textOr(showText, message.message, notifyText(language, "chatFrom", { name: sender })),
      url: `/chats/${chat.uuid}`,
      tag: `chat-${chat.id}`,
    }),
  }];
}

/** The events that become pushes, each with the facts it makes. */
const PUSHED = {
  "ticket.created": (e: TicketChanged) => ticketFacts(e, true),
  "ticket.updated": (e: TicketChanged) => ticketFacts(e, false),
  "message.created": messageFacts,
  "ticket.slaBreached": slaFacts,
  "ticket.takenBack": takenBackFacts,
  "chat.message": chatFacts,
} satisfies { [E in DomainEventName]?: (e: DomainEvents[E]) => Fact[] };
type PushedEvent = keyof typeof PUSHED;

/** The pushes of an event (server/events/outgoing.ts queues those of noted events); none for most. */
export function pushFactsOf<E extends DomainEventName>(name: E, event: DomainEvents[E]): Fact[] {
  const facts = PUSHED[name as PushedEvent] as ((e: DomainEvents[E]) => Fact[]) | undefined;
  return facts ? facts(event) : [];
}

/** The facts each domain event makes (none for most). */
function factsOf(bus: EventBus, hear: (facts: Fact[]) => void) {
  const listen = <E extends PushedEvent>(name: E) => {
    // An event with a note is pushed by server/events/outgoing.ts (which then closes the note).
    bus.on(name, (e: DomainEvents[E]) => {
      if (!(e as Outgoing).outgoing) hear(pushFactsOf(name, e));
    });
  };
  for (const name of Object.keys(PUSHED) as PushedEvent[]) listen(name);
}

/** What the rest of the app reaches of the capture: the job's kick, idleness. */
export class PushCapture {
  #queue: Promise<void> = Promise.resolve();
  #kick: () => void = () => {};

  constructor(private readonly deps: Pick<AppDeps, "db" | "clock">) {}

  /** The `push` job (jobs/registry.ts) is woken when pushes were queued. */
  onQueued(kick: () => void) {
    this.#kick = kick;
  }

  /** Resolves once every event heard so far is queued (tests; shutdown). */
  idle(): Promise<void> {
    return this.#queue;
  }

  /** Queues the facts' pushes; resolves true once queued, false when that failed (never rejects). */
  hear(facts: Fact[]): Promise<boolean> {
    if (facts.length === 0) return Promise.resolve(true);
    const now = this.deps.clock.now();
    const queued = facts.map((fact) => {
      const one = this.#queue.then(() => this.#enqueue(fact, now)).then(() => true, (error) => {
        log.error("push not queued", { companyId: fact.companyId, error });
        return false;
      });
      this.#queue = one.then(() => {});
      return one;
    });
    return Promise.all(queued).then((all) => all.every(Boolean));
  }

  async #enqueue(fact: Fact, now: Date) {
    const { db } = this.deps;
    const candidates = await pushRecipients(db, fact.companyId, fact.userIds);
    const recipients = candidates.filter((r) =>
      r.prefs.kinds.includes(fact.kind) &&
      (fact.accepts?.(r) ?? true) &&
      (!fact.ticket || mayHearTicket(r, fact.ticket.placement, fact.ticket.isGroup))
    );
    if (recipients.length === 0) return;
    const clock = await this.#wallClock(fact.companyId, recipients, now);
    const rows: QueuedPush[] = [];
    for (const r of recipients) {
      if (clock !== undefined && inQuietHours(r.prefs, clock)) continue;
      for (const device of r.devices) {
        rows.push({
          subscriptionId: device.id,
          eventKey: fact.key,
          payload: JSON.stringify(fact.payload(device.language, r.prefs.showText)),
        });
      }
    }
    if (rows.length === 0) return;
    await queuePushes(db, fact.companyId, rows, now.toISOString());
    this.#kick();
  }

  /** HH:MM in the company's zone, read only when someone has quiet hours. */
  async #wallClock(companyId: number, recipients: PushRecipient[], now: Date) {
    if (!recipients.some((r) => r.prefs.quietStart !== null)) return undefined;
    return hourMinute(now, await companyTimeZone(this.deps.db, companyId));
  }
}

const captures = new WeakMap<EventBus, PushCapture>();

/** Starts turning domain events into pushes (server/deps.ts, after the webhooks). */
export function wirePush(deps: Pick<AppDeps, "db" | "clock" | "events">): PushCapture {
  const capture = new PushCapture(deps);
  factsOf(deps.events, (facts) => capture.hear(facts));
  captures.set(deps.events, capture);
  return capture;
}

/** The capture wired to this bus (the job sets its kick and drains it). */
export function pushCapture(events: EventBus): PushCapture | undefined {
  return captures.get(events);
}
