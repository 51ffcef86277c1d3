import type { AppDeps } from "../context.ts";
import type { StorageState } from "./health.ts";

export type HealthReport = {
  status: "ok" | "degraded";
  checks: { storage: StorageState; inboundHeld: number };
};

/**
 * /healthz (issue 34): 503 `degraded` while writes under the data folder fail (a probe write is
 * tried first, so storage that came back answers 200 at once), with the inbound events held in
 * memory meanwhile (server/whatsapp/sessions/held_inbound.ts).
 */
export async function healthReport(deps: AppDeps): Promise<HealthReport> {
  const storage = await deps.storage.probe();
  return {
    status: storage === "ok" ? "ok" : "degraded",
    checks: { storage, inboundHeld: deps.sessions.held.size },
  };
}
