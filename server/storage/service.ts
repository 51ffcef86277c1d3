import type { StorageStatus } from "../../contract/types.ts";
import type { AppDeps } from "../context.ts";
import { diskSpace, type StorageState } from "./health.ts";

export type HealthReport = {
  status: "ok" | "degraded";
  checks: { storage: StorageState; inboundHeld: number };
};

/**
 * How long /healthz and the storage banner wait for a probe write before answering with the state
 * known: a health check answers within a second in every state (issue 44).
 */
const PROBE_WAIT_MS = 500;

/**
 * /healthz (issue 34): 503 `degraded` while writes under the data folder fail (a probe write is
 * tried first, so storage that came back answers 200 at once), with the inbound events held in
 * memory meanwhile (server/whatsapp/sessions/held_inbound.ts). It reads nothing of the database
 * and waits at most PROBE_WAIT_MS for the disk.
 */
export async function healthReport(deps: AppDeps): Promise<HealthReport> {
  const storage = await deps.storage.probeWithin(PROBE_WAIT_MS);
  return {
    status: storage === "ok" ? "ok" : "degraded",
    checks: { storage, inboundHeld: deps.sessions.held.size },
  };
}

/** What the admins' banner shows (GET /api/storage): failing storage, or free space running low. */
export async function storageStatus(deps: AppDeps): Promise<StorageStatus> {
  const state = await deps.storage.probeWithin(PROBE_WAIT_MS);
  const { free, total } = await diskSpace(deps.config.dataDir);
  const { storageWarnBytes, storageWarnPercent } = deps.config;
  const low = free < storageWarnBytes || free < total * storageWarnPercent / 100;
  return { state, freeBytes: free, totalBytes: total, low };
}
