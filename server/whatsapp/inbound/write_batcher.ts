import type { Database } from "../../../db/client.ts";
import { inForeground } from "../../../db/priority.ts";

type Job = {
  run: (trx: Database) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
};

/**
 * Group commit: write jobs that arrive while a transaction is running are committed together in
 * the next one. Each commit costs SQLite a WAL append of every page it touched (the messages
 * leaf, its indexes, a new FTS5 segment, the ticket): sharing one commit among many messages
 * halves the cost of a write under load, and adds no wait when the load is light (a job that
 * finds the batcher idle starts at once, alone).
 *
 * A job's promise settles only after its transaction committed (or failed). If any job of a
 * group throws, the group rolls back and each of its jobs is run again in a transaction of its
 * own, so one failing message never fails or half-writes another.
 */
export class WriteBatcher {
  readonly #queue: Job[] = [];
  #running?: Promise<void>;

  constructor(private readonly db: Database, private readonly maxBatch = 64) {}

  run<T>(job: (trx: Database) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.#queue.push({ run: job, resolve: resolve as (value: unknown) => void, reject });
      this.#running ??= this.#drain().finally(() => this.#running = undefined);
    });
  }

  /** Resolves when every job given so far has settled. */
  async idle(): Promise<void> {
    while (this.#running) await this.#running;
  }

  async #drain() {
    while (this.#queue.length > 0) {
      const batch = this.#queue.splice(0, this.maxBatch);
      if (batch.length === 1) await this.#alone(batch[0]);
      else await this.#together(batch);
    }
  }

  async #alone(job: Job) {
    try {
      job.resolve(
        await inForeground(() => this.db.transaction().execute((trx) => job.run(trx))),
      );
    } catch (error) {
      job.reject(error);
    }
  }

  async #together(batch: Job[]) {
    let results: unknown[];
    try {
      // A message on its way to an attendant's screen: never behind a job's batch (issue 49).
      results = await inForeground(() =>
        this.db.transaction().execute(async (trx) => {
          // The jobs' statements go to the database thread together and run back to back there,
          // instead of one round trip after another. Jobs of a group are independent (the inbound
          // pipeline serialises each contact), and every one settles before the commit or the
          // rollback.
          const settled = await Promise.allSettled(batch.map((job) => job.run(trx)));
          const failed = settled.find((r) => r.status === "rejected");
          if (failed) throw failed.reason;
          return settled.map((r) => (r as PromiseFulfilledResult<unknown>).value);
        })
      );
    } catch {
      for (const job of batch) await this.#alone(job);
      return;
    }
    batch.forEach((job, i) => job.resolve(results[i]));
  }
}
