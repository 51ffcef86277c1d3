import type { Webhook } from "../../db/schema.ts";
import type { WebhookEvent } from "../../contract/webhook_types.ts";
import type { AppDeps } from "../context.ts";
import { log } from "../log.ts";
import type { Channel } from "../realtime/events.ts";
import type { Hub } from "../realtime/hub.ts";
import { activeWebhooks, eventsOf } from "./repository.ts";

/**
 * Turns the realtime events the services already publish after each commit into webhook events
 * (one observer on the hub, so no service had to change), and queues one delivery per subscribed
 * webhook in the database (webhook_deliveries). From there the `webhooks` job sends them; a
 * restart loses none. An event that happens while the process dies between the commit and this
 * insert is not delivered: the same guarantee the sockets give.
 *
 * Events: appMessage create/update -> message.created/updated; ticket update -> ticket.created
 * (the first change of a ticket: createdAt = updatedAt), ticket.closed (status closed) or
 * ticket.updated; contact create/update -> contact.created/updated.
 */
export type CapturedEvent = { event: WebhookEvent; data: Record<string, unknown> };

type Data = Record<string, unknown> | null | undefined;

export function webhookEventOf(channel: Channel, raw: unknown): CapturedEvent | undefined {
  const d = raw as Data;
  if (!d || typeof d !== "object") return undefined;
  if (channel === "appMessage" && (d.action === "create" || d.action === "update")) {
    return {
      event: d.action === "create" ? "message.created" : "message.updated",
      data: { message: d.message, ticket: d.ticket, contact: d.contact },
    };
  }
  if (channel === "ticket" && d.action === "update" && d.ticket) {
    const ticket = d.ticket as { status?: string; createdAt?: string; updatedAt?: string };
    const event = ticket.createdAt === ticket.updatedAt
      ? "ticket.created"
      : ticket.status === "closed"
      ? "ticket.closed"
      : "ticket.updated";
    return { event, data: { ticket: d.ticket } };
  }
  if (channel === "contact" && (d.action === "create" || d.action === "update") && d.record) {
    return {
      event: d.action === "create" ? "contact.created" : "contact.updated",
      data: { contact: d.record },
    };
  }
  return undefined;
}

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

  constructor(private readonly deps: Pick<AppDeps, "db" | "clock">) {}

  /** The `webhooks` job (jobs/registry.ts) is woken when deliveries were queued. */
  onQueued(kick: () => void) {
    this.#kick = kick;
  }

  invalidate(companyId: number) {
    this.#cache.delete(companyId);
    this.#wanted.delete(companyId);
  }

  /** A webhook was re-enabled or changed: its waiting deliveries may be due. */
  wake() {
    this.#kick();
  }

  /** Resolves once every event heard so far is queued (tests; shutdown). */
  idle(): Promise<void> {
    return this.#queue;
  }

  hear(companyId: number, channel: Channel, data: unknown) {
    const captured = webhookEventOf(channel, data);
    if (!captured) return;
    const wanted = this.#wanted.get(companyId);
    if (wanted && !wanted.has(captured.event)) return;
    // Serialised now: the objects may change after the publisher returns.
    const createdAt = this.deps.clock.now().toISOString();
    const eventId = crypto.randomUUID();
    const payload = JSON.stringify({
      id: eventId,
      event: captured.event,
      createdAt,
      companyId,
      data: captured.data,
    });
    this.#queue = this.#queue
      .then(() => this.#enqueue(companyId, captured.event, eventId, payload, createdAt))
      .catch((error) => log.error("webhook event not queued", { companyId, error }));
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
    // webhook_deliveries_event (webhookId, eventId) makes a repeated insert a no-op.
    await this.deps.db.insertInto("webhook_deliveries").values(hooks.map((hook) => ({
      companyId,
      webhookId: hook.id,
      eventId,
      event,
      payload,
      nextAttemptAt: now,
      claimId: null,
      claimedUntil: null,
      lastStatus: null,
      lastError: null,
      deliveredAt: null,
      createdAt: now,
      updatedAt: now,
    }))).onConflict((oc) => oc.columns(["webhookId", "eventId"]).doNothing()).execute();
    this.#kick();
  }
}

const captures = new WeakMap<Hub, WebhookCapture>();

/** Starts capturing the hub's events for webhooks (server/deps.ts). */
export function wireWebhooks(deps: Pick<AppDeps, "db" | "clock" | "hub">): WebhookCapture {
  const capture = new WebhookCapture(deps);
  deps.hub.observe((companyId, channel, data) => capture.hear(companyId, channel, data));
  captures.set(deps.hub, capture);
  return capture;
}

/** The capture wired to this hub (the service invalidates its cache, the job sets its kick). */
export function webhookCapture(hub: Hub): WebhookCapture | undefined {
  return captures.get(hub);
}
