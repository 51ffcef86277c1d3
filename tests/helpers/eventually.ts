/**
 * The one way a test waits for something that happens on its own time (a pipeline, a job, a
 * session in another process): poll the fact itself. `fact` is done when it returns anything but
 * `undefined` or `false` without throwing; an assertion that throws is "not yet". Past
 * `timeoutMs` it fails with the last error (or says the fact stayed false), never with a
 * measurement: tests do not assert wall-clock times, the bound only stops a hung test.
 *
 * This file is the only place outside tests/fakes/ where a test may wait on a timer
 * (tests/architecture/tests_wait_test.ts). Socket events have their own waits: TestSocket.next
 * (an event that will come) and TestSocket.settle (a barrier: nothing more is on its way).
 */
/** How long any wait of the tests may take before it is a failure (a hang, not a measurement). */
export const WAIT_BOUND_MS = 30_000;

export type EventuallyOptions = {
  /**
   * The bound (default 30 s): only a hung test ever reaches it, and the suite also runs 20 times
   * at once on two cores (`deno task stress`), where everything takes twenty times as long.
   */
  timeoutMs?: number;
  /** What is awaited, for the failure message. */
  what?: string;
};

export async function eventually<T>(
  fact: () => T | Promise<T>,
  options: EventuallyOptions = {},
): Promise<Exclude<T, undefined | false>> {
  const timeoutMs = options.timeoutMs ?? WAIT_BOUND_MS;
  const end = Date.now() + timeoutMs;
  let wait = 5;
  let attempts = 0;
  while (true) {
    let lastError: unknown;
    attempts++;
    try {
      const value = await fact();
      if (value !== undefined && value !== false) return value as Exclude<T, undefined | false>;
      lastError = new Error(`still ${String(value)}`);
    } catch (error) {
      lastError = error;
    }
    if (Date.now() >= end) {
      const what = options.what ? `: ${options.what}` : "";
      const reason = lastError instanceof Error ? lastError.message : String(lastError);
      throw new Error(
        `not so within ${timeoutMs} ms (${attempts} checks)${what}; last: ${reason}`,
        { cause: lastError },
      );
    }
    await new Promise((resolve) => setTimeout(resolve, wait));
    wait = Math.min(wait * 2, 100);
  }
}

/**
 * One turn of the event loop: every callback already due runs before it resolves. Not a wait for
 * a fact: it lets a test assert that something has NOT happened yet once all pending work ran.
 */
export function oneTurn(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}
