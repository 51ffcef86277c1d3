import { AsyncLocalStorage } from "node:async_hooks";

/**
 * Work nobody waits on at a screen (a job's tick, an import's batch) runs in the background
 * lane (issue 49): its transactions take the writer after the interactive ones already waiting
 * (db/dialect.ts WriterTurns), so an inbound message or an attendant's reply is not queued behind
 * a campaign's batch. The lane follows the work through its awaits (AsyncLocalStorage).
 */
const lane = new AsyncLocalStorage<"background">();

export function inBackground<T>(work: () => Promise<T>): Promise<T> {
  return lane.run("background", work);
}

export function isBackground(): boolean {
  return lane.getStore() === "background";
}

/**
 * Work that someone waits on at a screen, whoever started it: the inbound pipeline's writes run
 * here even when a job's tick (re)started the session that hears the message.
 */
export function inForeground<T>(work: () => Promise<T>): Promise<T> {
  return lane.exit(work);
}
