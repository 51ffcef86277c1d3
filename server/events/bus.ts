import { log } from "../log.ts";
import type { DomainEventName, DomainEvents } from "./domain.ts";

export type Listener<K extends DomainEventName> = (event: DomainEvents[K]) => void;

/**
 * The one publisher of domain events (`deps.events`). A service calls `emit` after its commit;
 * listeners run at once, in the order they were added (realtime first, then webhooks:
 * server/deps.ts), each isolated from the others' failures. A listener must not block: one that
 * has I/O to do queues it (see server/webhooks/capture.ts).
 */
export class EventBus {
  readonly #listeners = new Map<DomainEventName, Listener<never>[]>();

  /** `crashOn`: a test's crash point (CRASH_AFTER_COMMIT): dies as this event is told. */
  constructor(private readonly options: { crashOn?: string } = {}) {}

  on<K extends DomainEventName>(name: K, listener: Listener<K>): () => void {
    const list = this.#listeners.get(name) ?? [];
    this.#listeners.set(name, [...list, listener]);
    return () => {
      this.#listeners.set(name, (this.#listeners.get(name) ?? []).filter((l) => l !== listener));
    };
  }

  emit<K extends DomainEventName>(name: K, event: DomainEvents[K]): void {
    // Right after the commit, before any listener: what a power cut there leaves behind.
    if (name === this.options.crashOn) Deno.kill(Deno.pid, "SIGKILL");
    for (const listener of this.#listeners.get(name) ?? []) {
      try {
        (listener as Listener<K>)(event);
      } catch (error) {
        log.error("domain event listener failed", { event: name, error });
      }
    }
  }
}
