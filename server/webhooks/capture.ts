import type { Webhook } from "../../db/schema.ts";
import type { WebhookEvent } from "../../contract/webhook_types.ts";
import type { AppDeps } from "../context.ts";
import type { EventBus } from "../events/bus.ts";
import type { DomainEvents, MessageChanged, TicketChanged } from "../events/domain.ts";
import { log } from "../log.ts";
import { queueDeliveries } from "./delivery_repository.ts";
import { activeWebhooks, eventsOf } from "./repository.ts";

/**
 * Listens to the domain events the services tell after each commit (server/events/) and queues
 * one delivery per subscribed webhook in the database (webhook_deliveries). From there the
 * `webhooks` job sends them; a restart loses none. An event noted in its transaction (its
 * `outgoing` key, server/events/outgoing.ts) is also queued when the process dies between the
 * commit and this insert; one without a note is then lost, as the sockets' events are.
 *
 * A webhook event is the domain event of the same name (contract/webhook_types.ts
 * WEBHOOK_EVENTS): message.created/updated {message, ticket, contact}, ticket.created/updated/
 * closed {ticket}, contact.created/updated {contact}, whoever made the change (a person, the
 * API, WhatsApp, a bot, a job).
 */
export type CapturedEvent = { companyId: number; data: Record<string, unknown> };

const message = (e: MessageChanged): CapturedEvent => ({
  companyId: e.ticket.companyId,
  data: { message: e.message, ticket: e.ticket, contact: e.ticket.contact },
});
const ticket = (e: TicketChanged): CapturedEvent => ({
  companyId: e.ticket.companyId,
  data: { ticket: e.ticket },
});
const contact = (e: DomainEvents["contact.created"]): CapturedEvent => ({
  companyId: e.companyId,
  data: { contact: e.contact },
});

/** What each webhook event sends, from its domain event. */
export const WEBHOOK_PAYLOADS: {
  [E in WebhookEvent]: (event: DomainEvents[E]) => CapturedEvent;
} = {
  "message.created": message,
  "message.updated": message,
  "ticket.created": ticket,
  "ticket.updated": ticket,
  "ticket.closed": ticket,
  "contact.created": contact,
  "contact.updated": contact,
};

/** What the rest of the app reaches of the capture: the worker's kick, the cache, idleness. */
export class WebhookCapture {
  /** Active webhooks per company, read on first need; emptied by every change to them. */
  readonly #cache = new Map<number, Promise<Webhook[]>>();
  /**
   * The events each company's active webhooks want, once read: the inbound pipeline publishes
   * several events per message, and a company without a subscriber costs no work past this.
   */
  readonly #wanted = new Map<number, Set<WebhookEvent>>();
  #queue: Promise<void> = Promise.resolve();
  #kick: () => void = () => {};
  #share: (companyId: number) => void = () => {};

  constructor(private readonly deps: Pick<AppDeps, "db" | "clock">) {}

  /** The `webhooks` job (jobs/registry.ts) is woken when deliveries were queued. */
  onQueued(kick: () => void) {
    this.#kick = kick;
  }

  /**
   * The company's webhooks changed (made, edited, disabled, deleted): this process reads them
   * again, and with REDIS_URL every other process too (server/redis/wire.ts shareWebhookChanges),
   * so the next event anywhere is captured for the webhooks as they are now (issue 43 item 2b).
   */
  invalidate(companyId: number) {
    this.forget(companyId);
    this.#share(companyId);
  }

  /** Drops this process's copy only (a change heard from another process; `undefined`: all). */
  forget(companyId?: number) {
    if (companyId === undefined) {
      this.#cache.clear();
      this.#wanted.clear();
      return;
    }
    this.#cache.delete(companyId);
    this.#wanted.delete(companyId);
  }

  /** How a change reaches the other processes (REDIS_URL); none in one process. */
  shareChanges(share: (companyId: number) => void) {
    this.#share = share;
  }

  /** A webhook was re-enabled or changed: its waiting deliveries may be due. */
  wake() {
    this.#kick();
  }

  /** Resolves once every event heard so far is queued (tests; shutdown). */
  idle(): Promise<void> {
    return this.#queue;
  }

  /**
   * Queues the event for the company's webhooks that want it. `eventKey`: the event's note
   * (server/events/outgoing.ts), whose key is the delivery's event id, so the live path and the
   * `outgoing` job's recovery make one delivery row (webhook_deliveries_event). Resolves true once
   * queued (or nobody wants it), false when the queueing failed; never rejects.
   */
  hear(event: WebhookEvent, captured: CapturedEvent, eventKey?: string): Promise<boolean> {
    const { companyId } = captured;
    const wanted = this.#wanted.get(companyId);
    if (wanted && !wanted.has(event)) return Promise.resolve(true);
    // Serialised now: the objects may change after the publisher returns.
    const createdAt = this.deps.clock.now().toISOString();
    const eventId = eventKey ?? crypto.randomUUID();
    const payload = JSON.stringify({
      id: eventId,
      event,
      createdAt,
      companyId,
      data: captured.data,
    });
    const queued = this.#queue
      .then(() => this.#enqueue(companyId, event, eventId, payload, createdAt))
      .then(() => true, (error) => {
        log.error("webhook event not queued", { companyId, error });
        return false;
      });
    this.#queue = queued.then(() => {});
    return queued;
  }

  async #subscribers(companyId: number, event: WebhookEvent): Promise<Webhook[]> {
    let hooks = this.#cache.get(companyId);
    if (!hooks) {
      const loading = activeWebhooks(this.deps.db, companyId);
      hooks = loading;
      this.#cache.set(companyId, loading);
      loading.then((rows) => {
        // Only if no change came in meanwhile (it replaced or removed the entry).
        if (this.#cache.get(companyId) === loading) {
          this.#wanted.set(companyId, new Set(rows.flatMap((row) => eventsOf(row))));
        }
      }, () => this.#cache.delete(companyId));
    }
    return (await hooks).filter((hook) => eventsOf(hook).includes(event));
  }

  async #enqueue(
    companyId: number,
    event: WebhookEvent,
    eventId: string,
    payload: string,
    now: string,
  ) {
    const hooks = await this.#subscribers(companyId, event);
    if (hooks.length === 0) return;
    await queueDeliveries(this.deps.db, companyId, hooks.map((hook) => hook.id), {
      eventId,
      event,
      payload,
      now,
    });
    this.#kick();
  }
}

const captures = new WeakMap<EventBus, WebhookCapture>();

/** Starts capturing the domain events for webhooks (server/deps.ts, after realtime). */
export function wireWebhooks(deps: Pick<AppDeps, "db" | "clock" | "events">): WebhookCapture {
  const capture = new WebhookCapture(deps);
  const listen = <E extends WebhookEvent>(event: E) => {
    const payloadOf: (e: DomainEvents[E]) => CapturedEvent = WEBHOOK_PAYLOADS[event];
    // An event with a note is queued by server/events/outgoing.ts (which then closes the note).
    deps.events.on(event, (e) => {
      if (!e.outgoing) capture.hear(event, payloadOf(e));
    });
  };
  for (const event of Object.keys(WEBHOOK_PAYLOADS) as WebhookEvent[]) listen(event);
  captures.set(deps.events, capture);
  return capture;
}

/** The capture wired to this bus (the service invalidates its cache, the job sets its kick). */
export function webhookCapture(events: EventBus): WebhookCapture | undefined {
  return captures.get(events);
}
