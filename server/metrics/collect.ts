import { databaseQueueDepth } from "../../db/client.ts";
import type { AppDeps } from "../context.ts";
import { diskSpace } from "../storage/health.ts";
import {
  dataFreeBytes,
  dataTotalBytes,
  dbQueueDepth,
  inboundHeld,
  openSockets,
  outboxDepth,
  outboxOldestAge,
  registry,
  runningSessions,
  storageFailing,
  whatsappSessions,
} from "./registry.ts";
import { connectionsByStatus, outboxWaiting } from "./repository.ts";

/** Every status a connection can be stored with, so that each series exists even at zero. */
const SESSION_STATUSES = ["qrcode", "PAIRING", "OPENING", "CONNECTED", "DISCONNECTED", "TIMEOUT"];

/**
 * The text of one scrape: gauges that describe the state (database, sockets, sessions) are read
 * now, then the registry is rendered. Two small queries: the outbox's waiting rows through their
 * partial index (migration 0130) and connections grouped by status.
 */
export async function scrape(deps: AppDeps): Promise<string> {
  const { db, clock } = deps;
  const waiting = await outboxWaiting(db);
  outboxDepth.set(Number(waiting.depth));
  const oldest = waiting.oldest ? Date.parse(waiting.oldest) : NaN;
  outboxOldestAge.set(
    Number.isFinite(oldest) ? Math.max(0, (clock.now().getTime() - oldest) / 1000) : 0,
  );

  const statuses = await connectionsByStatus(db);
  whatsappSessions.reset();
  for (const status of SESSION_STATUSES) whatsappSessions.set({ status }, 0);
  for (const row of statuses) whatsappSessions.set({ status: row.status }, Number(row.count));

  runningSessions.set(deps.sessions.runningCount);
  openSockets.set(deps.hub.size);
  dbQueueDepth.set(databaseQueueDepth(db));
  const space = await diskSpace(deps.config.dataDir);
  dataFreeBytes.set(space.free);
  dataTotalBytes.set(space.total);
  storageFailing.set(deps.storage.state === "ok" ? 0 : 1);
  inboundHeld.set(deps.sessions.held.size);
  return await registry.metrics();
}

export const METRICS_CONTENT_TYPE = registry.contentType;
