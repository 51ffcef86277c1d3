import type { AppDeps } from "../context.ts";
import { contactView } from "../contacts/service.ts";
import { extraInfoOf, findContact } from "../contacts/repository.ts";
import { log } from "../log.ts";
import { findMessage } from "../messages/repository.ts";
import { type PushCapture, pushFactsOf } from "../push/capture.ts";
import { loadTicketView, messageViews } from "../tickets/view_repository.ts";
import { type CapturedEvent, WEBHOOK_PAYLOADS, type WebhookCapture } from "../webhooks/capture.ts";
import type { WebhookEvent } from "../../contract/webhook_types.ts";
import { findMessageView, loadChatView } from "../chats/repository.ts";
import { queueSupervisorIds } from "../users/repository.ts";
import { takenBackEvent } from "../distribution/taken_back.ts";
import type { DomainEvents } from "./domain.ts";
import * as notes from "./outgoing_repository.ts";

/**
 * Issue 43 item 2(c): the events that leave the system (webhooks out, pushes) are delivered once
 * per event, in any number of processes, and also when the process that committed dies right
 * after the commit.
 *
 * A service notes such an event in the transaction of its change (`noteOutgoing`, migration 0680)
 * and tells it with the note's key (`outgoing`). Here the live path queues its webhook deliveries
 * and pushes under that key and closes the note; the `outgoing` job (jobs/registry.ts) takes the
 * notes still open after OUTGOING_GRACE_MS (their process died between commit and queue), reads
 * the event back from the database (the records as they are now, the placement `before` as
 * noted) and queues it the same way. Whichever comes first, webhook_deliveries_event
 * (webhookId, eventId = the key) and push_deliveries_once (subscriptionId, eventKey) make one
 * delivery per target; the note's claim is a lease, so two ticks never rebuild one note at once.
 *
 * Every producer of these events notes them (tests/architecture/outgoing_notes_test.ts reads each
 * emit of them): the services, the jobs (schedules, distribution, inactivity, SLA breaches), the
 * send API, imports, the inbound pipeline and the outbox (sends, acks, edits, deletions).
 */
export const OUTGOING_EVENTS = [
  "contact.created",
  "contact.updated",
  "ticket.created",
  "ticket.updated",
  "ticket.closed",
  "message.created",
  "message.updated",
  // Pushes only (server/push/capture.ts).
  "ticket.slaBreached",
  "ticket.takenBack",
  "chat.message",
] as const;
type OutgoingEvent = typeof OUTGOING_EVENTS[number];

const BATCH = 50;
/** How long a tick holds a note it is rebuilding (a dead tick's note is due again after it). */
const LEASE_MS = 60_000;
/** Closed notes are kept a day (a look at what was recovered), then deleted. */
const KEEP_MS = 24 * 3600_000;

type Sinks = { webhooks: WebhookCapture; push: PushCapture };
const sinksOf = new WeakMap<AppDeps["events"], Sinks>();
/** The live path's closings still under way, per bus (closeDeps waits for them). */
const closing = new WeakMap<AppDeps["events"], Set<Promise<void>>>();

/** Resolves once every noted event heard so far is queued and its note closed. */
export async function outgoingSettled(events: AppDeps["events"]): Promise<void> {
  await Promise.all(closing.get(events) ?? []);
}

function companyOf(event: DomainEvents[OutgoingEvent]): number {
  return "companyId" in event ? event.companyId : event.ticket.companyId;
}

const isWebhookEvent = (name: string): name is WebhookEvent => name in WEBHOOK_PAYLOADS;

/** Queues one event's webhooks and pushes under its key; true once both are queued. */
async function queueEvent(
  sinks: Sinks,
  name: OutgoingEvent,
  event: DomainEvents[OutgoingEvent],
  key: string,
): Promise<boolean> {
  const webhook = isWebhookEvent(name)
    ? sinks.webhooks.hear(
      name,
      (WEBHOOK_PAYLOADS[name] as (e: typeof event) => CapturedEvent)(event),
      key,
    )
    : true;
  const done = await Promise.all([webhook, sinks.push.hear(pushFactsOf(name, event))]);
  return done.every(Boolean);
}

/**
 * Closes the live path's notes in batches (issue 49): every inbound message notes events, and
 * an import thousands; one UPDATE per note filled the database thread's queue ahead of the
 * requests people wait on. The notes heard in one turn of the event loop close together, by one
 * statement per company (per 500), each caller answered when its own batch is written.
 */
class NoteCloser {
  #batch = new Map<number, { keys: string[]; written: PromiseWithResolvers<void> }>();
  #due = false;
  constructor(private readonly deps: Pick<AppDeps, "db" | "clock">) {}

  close(companyId: number, key: string): Promise<void> {
    let entry = this.#batch.get(companyId);
    if (!entry) this.#batch.set(companyId, entry = { keys: [], written: Promise.withResolvers() });
    entry.keys.push(key);
    if (!this.#due) {
      this.#due = true;
      setTimeout(() => this.#flush(), 0);
    }
    return entry.written.promise;
  }

  #flush() {
    const batch = this.#batch;
    this.#batch = new Map();
    this.#due = false;
    const now = this.deps.clock.now().toISOString();
    for (const [companyId, { keys, written }] of batch) {
      notes.markCapturedMany(this.deps.db, companyId, keys, now).then(
        written.resolve,
        written.reject,
      );
    }
  }
}

/** The live path of noted events (server/deps.ts, after the webhooks and the pushes). */
export function wireOutgoing(deps: Pick<AppDeps, "db" | "clock" | "events">, sinks: Sinks) {
  sinksOf.set(deps.events, sinks);
  const pending = new Set<Promise<void>>();
  closing.set(deps.events, pending);
  const closer = new NoteCloser(deps);
  for (const name of OUTGOING_EVENTS) {
    deps.events.on(name, (event) => {
      const key = event.outgoing;
      if (!key) return;
      const companyId = companyOf(event);
      const closed: Promise<void> = queueEvent(sinks, name, event, key)
        .then(async (queued) => {
          if (queued) await closer.close(companyId, key);
        })
        .catch((error) => log.error("outgoing note not closed", { companyId, name, error }))
        .finally(() => pending.delete(closed));
      pending.add(closed);
    });
  }
}

/** The event a note tells, read back from the database; undefined when its record is gone. */
async function rebuild(
  deps: AppDeps,
  companyId: number,
  name: OutgoingEvent,
  subject: notes.OutgoingSubject,
): Promise<DomainEvents[OutgoingEvent] | undefined> {
  if (name === "contact.created" || name === "contact.updated") {
    const row = subject.contactId && await findContact(deps.db, companyId, subject.contactId);
    if (!row) return undefined;
    return { companyId, contact: contactView(row, await extraInfoOf(deps.db, companyId, row.id)) };
  }
  if (name === "chat.message") {
    const chat = subject.chatId && await loadChatView(deps.db, companyId, subject.chatId);
    const message = chat && subject.chatMessageId &&
      await findMessageView(deps.db, companyId, chat.id, subject.chatMessageId);
    return chat && message ? { companyId, chat, message } : undefined;
  }
  const ticket = subject.ticketId && await loadTicketView(deps.db, companyId, subject.ticketId);
  if (!ticket) return undefined;
  if (name === "ticket.slaBreached") {
    const supervisorIds = ticket.queueId === null
      ? []
      : await queueSupervisorIds(deps.db, companyId, ticket.queueId);
    return { companyId, ticket, kind: subject.sla ?? "firstResponse", supervisorIds };
  }
  if (name === "ticket.takenBack") {
    return subject.noticeId ? await takenBackEvent(deps, companyId, subject.noticeId) : undefined;
  }
  if (name === "message.created" || name === "message.updated") {
    const row = subject.messageId && await findMessage(deps.db, companyId, subject.messageId);
    if (!row) return undefined;
    const [message] = await messageViews(deps.db, companyId, [row]);
    return { message, ticket };
  }
  return { ticket, before: subject.before, actor: subject.actor };
}

/**
 * The `outgoing` job's tick: notes left open past the grace are rebuilt and queued, each under
 * its claim; a failure leaves the note open for a later tick.
 */
export async function recoverOutgoing(deps: AppDeps, signal?: AbortSignal): Promise<number> {
  const sinks = sinksOf.get(deps.events);
  if (!sinks) return 0;
  const now = deps.clock.now();
  await notes.pruneCaptured(deps.db, new Date(now.getTime() - KEEP_MS).toISOString());
  const before = new Date(now.getTime() - deps.config.outgoingGraceMs).toISOString();
  let recovered = 0;
  while (!signal?.aborted) {
    const stamp = deps.clock.now().toISOString();
    const open = await notes.openOutgoing(deps.db, before, stamp, BATCH);
    if (open.length === 0) break;
    let taken = 0;
    for (const { id, companyId } of open) {
      const claim = {
        claimId: crypto.randomUUID(),
        until: new Date(deps.clock.now().getTime() + LEASE_MS).toISOString(),
        now: stamp,
      };
      const note = await notes.claimOutgoing(deps.db, companyId, id, claim);
      if (!note) continue;
      taken++;
      const name = note.event as OutgoingEvent;
      const event = await rebuild(deps, companyId, name, JSON.parse(note.subject));
      const queued = !event || await queueEvent(sinks, name, event, note.eventKey);
      if (!queued) continue;
      await notes.markCaptured(deps.db, companyId, note.eventKey, deps.clock.now().toISOString());
      if (event) recovered++;
    }
    if (taken === 0) break; // every note was taken by another tick
  }
  if (recovered > 0) log.info("outgoing events recovered", { count: recovered });
  return recovered;
}
