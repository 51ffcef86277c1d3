/** Time source, injected so that tests can move it (due dates, expiries). */
export type Clock = { now(): Date };

export const systemClock: Clock = { now: () => new Date() };

/** ISO-8601 UTC timestamp, the format every *At column stores. */
export function isoNow(clock: Clock): string {
  return clock.now().toISOString();
}

/** YYYY-MM-DD of a date in UTC, the format of dueDate. */
export function isoDate(date: Date): string {
  return date.toISOString().slice(0, 10);
}
