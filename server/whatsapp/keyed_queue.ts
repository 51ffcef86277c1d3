/**
 * Runs tasks one at a time per key, in the order they were given; different keys run freely.
 * The inbound pipeline keys by (connection, chat) so that two messages of one contact never race
 * to open two tickets, while other contacts are not held up.
 */
export class KeyedQueue {
  readonly #tails = new Map<string, Promise<unknown>>();

  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.#tails.get(key) ?? Promise.resolve();
    const result = previous.then(task, task);
    // The chain continues whether the task failed or not; the caller sees its own outcome.
    const tail = result.then(() => {}, () => {});
    this.#tails.set(key, tail);
    tail.then(() => {
      if (this.#tails.get(key) === tail) this.#tails.delete(key);
    });
    return result;
  }

  /** Resolves when every task given so far has finished. */
  async drain(): Promise<void> {
    while (this.#tails.size > 0) await Promise.all([...this.#tails.values()]);
  }

  get size(): number {
    return this.#tails.size;
  }
}
