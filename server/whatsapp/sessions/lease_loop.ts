import { log } from "../../log.ts";
import type { SessionManager } from "./manager.ts";

/**
 * The lease tick (every third of SESSION_LEASE_SECONDS; a slow tick is not queued behind: the
 * next one starts after it ends), for processes sharing one database:
 * 1. renew the leases of the sessions running here, and stop any whose lease was lost (this
 *    process stalled past the expiry and another took the connection over);
 * 2. nudge the outbox of each held connection: a reply written by another process (its API
 *    served the attendant) is sent here within one tick;
 * 3. keep a fair share: the connections that should run, divided by the live processes (each
 *    says it is alive in `instances` at every tick); a process over its share hands the extra
 *    connections over (stops them here and frees their leases);
 * 4. take over, up to its share, connections that should run and whose lease is free or expired
 *    (a process that died, stopped or handed them over), through the same start as the API's.
 */
const ACTIVE = new Set(["CONNECTED", "OPENING"]);

/** How often the lease tick runs (a third of the lease); undefined without leases. */
export function leaseIntervalMs(sessions: SessionManager): number | undefined {
  const leases = sessions.leases;
  return leases ? Math.max(500, (leases.seconds * 1000) / 3) : undefined;
}

/**
 * One lease tick (the `leases` job, jobs/registry.ts). `signal` aborts between steps when the
 * process stops.
 */
export async function leaseTick(sessions: SessionManager, signal: AbortSignal): Promise<void> {
  const leases = sessions.leases;
  if (!leases) return;
  const fair = await leases.fairShare();
  const mine = sessions.runningIds();
  const kept = await leases.renew(mine);
  for (const id of mine) {
    if (kept.has(id)) sessions.kickOutbox(id);
    else {
      log.warn("lease lost: the session stops here", { whatsappId: id });
      await sessions.drop(id);
    }
  }
  // More than a fair share (another process joined): hand the newest connections over; their
  // state stays CONNECTED, so the process with room takes them at its next tick.
  // Only sessions that are (re)connecting count and move: one showing a QR code to somebody
  // stays where it is.
  const held = sessions.runningIds().filter((id) => ACTIVE.has(sessions.status(id) ?? ""))
    .sort((x, y) => x - y);
  for (const id of held.slice(fair)) {
    if (signal.aborted) return;
    log.info("handing a connection over to another process", { whatsappId: id, fair });
    await sessions.drop(id);
  }
  let room = fair - Math.min(held.length, fair);
  for (const orphan of await leases.orphans()) {
    if (signal.aborted || room <= 0) return;
    await sessions.start(orphan.companyId, orphan.id).catch((error) =>
      log.error("taking over a connection failed", { whatsappId: orphan.id, error })
    );
    if (sessions.runningIds().includes(orphan.id)) room--;
  }
}
