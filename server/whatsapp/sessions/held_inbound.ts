import { log } from "../../log.ts";
import type { StorageHealth } from "../../storage/health.ts";
import type { DeliveryOutcome } from "../providers/provider.ts";

/** How many events wait in memory at most; past it the newest are refused (logged, counted). */
export const HELD_INBOUND_MAX = 10_000;

type Held = {
  whatsappId: number;
  run: () => Promise<DeliveryOutcome>;
  resolve: (outcome: DeliveryOutcome) => void;
  reject: (error: unknown) => void;
};

/**
 * Inbound events a real connection could not store because storage failed (issue 34). Baileys has
 * already acknowledged them to WhatsApp, so they cannot be left to a redelivery: they wait here,
 * in memory and in the order they came, and are stored when storage returns (deps.storage tells).
 * While a connection has events waiting, its new events queue behind them (the chat's order).
 * Bounded by HELD_INBOUND_MAX; the count is on /metrics and /healthz. A restart loses what is
 * here: the one place the process cannot do better without storage.
 */
export class HeldInbound {
  readonly #queue: Held[] = [];
  #retrying: Promise<void> | undefined;
  refused = 0;

  constructor(private readonly storage: StorageHealth, private readonly max = HELD_INBOUND_MAX) {
    storage.onWritable(() => void this.retry());
  }

  get size(): number {
    return this.#queue.length;
  }

  /** Whether this connection has events waiting (its next ones must queue behind them). */
  holds(whatsappId: number): boolean {
    return this.#queue.some((held) => held.whatsappId === whatsappId);
  }

  /** Keeps an event to run later; resolves when it is finally stored. */
  hold(whatsappId: number, run: () => Promise<DeliveryOutcome>): Promise<DeliveryOutcome> {
    if (this.#queue.length >= this.max) {
      this.refused++;
      log.error("inbound event lost: too many held while storage fails", {
        whatsappId,
        held: this.#queue.length,
        refused: this.refused,
      });
      return Promise.resolve({ ignored: "held events over the limit" });
    }
    return new Promise((resolve, reject) => {
      this.#queue.push({ whatsappId, run, resolve, reject });
      // Storage may already be back (the failure raced a recovery): try at once.
      if (this.storage.state === "ok") void this.retry();
    });
  }

  /** Stores what waits, in order; stops at the first storage failure (the rest waits on). */
  retry(): Promise<void> {
    this.#retrying ??= this.#drain().finally(() => this.#retrying = undefined);
    return this.#retrying;
  }

  async #drain() {
    let stored = 0;
    while (this.#queue.length > 0) {
      const held = this.#queue[0];
      try {
        const outcome = await held.run();
        this.#queue.shift();
        stored++;
        held.resolve(outcome);
      } catch (error) {
        if (this.storage.report(error, "held inbound")) return;
        // Not a storage failure: this event is beyond retrying; the next ones go on.
        this.#queue.shift();
        held.reject(error);
      }
    }
    if (stored > 0) log.info("held inbound events stored", { stored });
  }
}
