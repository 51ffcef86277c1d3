import { log } from "../../log.ts";
import type { SessionManager } from "./manager.ts";

/**
 * The lease tick (every third of SESSION_LEASE_SECONDS), for processes sharing one database:
 * 1. renew the leases of the sessions running here, and stop any whose lease was lost (this
 *    process stalled past the expiry and another took the connection over);
 * 2. nudge the outbox of each held connection: a reply written by another process (its API
 *    served the attendant) is sent here within one tick;
 * 3. take over connections that should run and whose lease is free or expired (a process that
 *    died or stopped), through the same start as the API's.
 * Returns the function that stops it.
 */
export function startLeaseLoop(sessions: SessionManager): () => Promise<void> {
  const leases = sessions.leases;
  if (!leases) return () => Promise.resolve();
  let running: Promise<void> = Promise.resolve();
  let stopped = false;
  const tick = async () => {
    const mine = sessions.runningIds();
    const kept = await leases.renew(mine);
    for (const id of mine) {
      if (kept.has(id)) sessions.kickOutbox(id);
      else {
        log.warn("lease lost: the session stops here", { whatsappId: id });
        await sessions.drop(id);
      }
    }
    for (const orphan of await leases.orphans()) {
      if (stopped) return;
      await sessions.start(orphan.companyId, orphan.id).catch((error) =>
        log.error("taking over a connection failed", { whatsappId: orphan.id, error })
      );
    }
  };
  let busy = false;
  const timer = setInterval(() => {
    // A slow tick (a loaded database) is not queued behind: the next one starts after it ends.
    if (busy) return;
    busy = true;
    running = tick().catch((error) => log.error("lease tick failed", { error }))
      .finally(() => busy = false);
  }, Math.max(500, (leases.seconds * 1000) / 3));
  return async () => {
    stopped = true;
    clearInterval(timer);
    await running;
  };
}
