import { log } from "../../log.ts";
import type { StorageHealth } from "../../storage/health.ts";
import type { DeliveryOutcome, ProviderEvent } from "../providers/provider.ts";
import type { HeldJournal } from "./held_journal.ts";

/** How many events wait in memory at most; past it the newest are refused (logged, counted). */
export const HELD_INBOUND_MAX = 10_000;

type Held = {
  whatsappId: number;
  /** Its record in the journal (undefined: kept in memory only). */
  seq?: number;
  run: () => Promise<DeliveryOutcome>;
  resolve: (outcome: DeliveryOutcome) => void;
  reject: (error: unknown) => void;
};

/**
 * Inbound events a real connection could not store because storage failed (issue 34). Baileys has
 * already acknowledged them to WhatsApp, so they cannot be left to a redelivery: they wait here,
 * in memory and in the order they came, and are stored when storage returns (deps.storage tells).
 * While a connection has events waiting, its new events queue behind them (the chat's order).
 * Bounded by HELD_INBOUND_MAX; the count is on /metrics and /healthz. Each event is also written
 * to the journal (held_journal.ts: space reserved at start), so a restart stores what was held
 * (issue 43 item 5); only an event past the journal's space lives in memory alone.
 */
export class HeldInbound {
  readonly #queue: Held[] = [];
  #retrying: Promise<void> | undefined;
  refused = 0;
  #journal?: HeldJournal;
  /** Events being journaled, per connection: they count as held before they reach the queue. */
  readonly #arriving = new Map<number, number>();

  constructor(private readonly storage: StorageHealth, private readonly max = HELD_INBOUND_MAX) {
    storage.onWritable(() => void this.retry());
  }

  /** From now on held events are journaled (set once at boot, server/whatsapp/sessions/manager.ts). */
  useJournal(journal: HeldJournal) {
    this.#journal = journal;
  }

  get size(): number {
    return this.#queue.length;
  }

  /** Whether this connection has events waiting (its next ones must queue behind them). */
  holds(whatsappId: number): boolean {
    return (this.#arriving.get(whatsappId) ?? 0) > 0 ||
      this.#queue.some((held) => held.whatsappId === whatsappId);
  }

  /**
   * Keeps an event to run later; resolves when it is finally stored. With `record` (the event as
   * the provider gave it) it is journaled first, so that a restart finds it.
   */
  async hold(
    whatsappId: number,
    run: () => Promise<DeliveryOutcome>,
    record?: { companyId: number; event: ProviderEvent },
  ): Promise<DeliveryOutcome> {
    if (this.#queue.length >= this.max) {
      this.refused++;
      log.error("inbound event lost: too many held while storage fails", {
        whatsappId,
        held: this.#queue.length,
        refused: this.refused,
      });
      return Promise.resolve({ ignored: "held events over the limit" });
    }
    let seq: number | undefined;
    if (record && this.#journal) {
      this.#arriving.set(whatsappId, (this.#arriving.get(whatsappId) ?? 0) + 1);
      seq = await this.#journal.append({ whatsappId, ...record }).catch((error) => {
        log.error("held inbound event not journaled: kept in memory only", { whatsappId, error });
        return undefined;
      });
      const left = (this.#arriving.get(whatsappId) ?? 1) - 1;
      if (left > 0) this.#arriving.set(whatsappId, left);
      else this.#arriving.delete(whatsappId);
    }
    return await new Promise((resolve, reject) => {
      this.#queue.push({ whatsappId, seq, run, resolve, reject });
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
        await this.#stored(held);
        held.resolve(outcome);
      } catch (error) {
        if (this.storage.report(error, "held inbound")) return;
        // Not a storage failure: this event is beyond retrying; the next ones go on.
        this.#queue.shift();
        await this.#stored(held);
        held.reject(error);
      }
    }
    if (stored > 0) log.info("held inbound events stored", { stored });
  }

  /** The journal learns an event is done (events are stored in the order they were journaled). */
  async #stored(held: Held) {
    if (held.seq === undefined || !this.#journal) return;
    const nothingLeft = this.#queue.every((other) => other.seq === undefined);
    await this.#journal.stored(held.seq, nothingLeft).catch((error) =>
      log.warn("held inbound journal not updated (its events may be stored twice, harmlessly)", {
        error,
      })
    );
  }
}
