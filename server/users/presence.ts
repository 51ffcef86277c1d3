import type { AppDeps } from "../context.ts";
import { refreshPresence } from "./presence_repository.ts";

/** How often each process says which users' sockets it holds (the `presence` job). */
export const PRESENCE_REFRESH_MS = 30_000;
/** A row not refreshed for this long is a process that died: its users' sockets are gone. */
export const PRESENCE_STALE_MS = 3 * PRESENCE_REFRESH_MS;

/**
 * One tick of the `presence` job (issue 43 item 2a): this process's rows refreshed, other
 * processes' stale rows swept; a user left with no row anywhere is told offline. A second tick
 * finds those rows gone and tells nothing more.
 */
export async function presenceTick(deps: AppDeps): Promise<void> {
  const now = deps.clock.now();
  const gone = await refreshPresence(
    deps.db,
    deps.config.instanceId,
    deps.hub.onlineUsers(),
    now.toISOString(),
    new Date(now.getTime() - PRESENCE_STALE_MS).toISOString(),
  );
  for (const user of gone) {
    if (!user.online) deps.events.emit("user.presence", { ...user, online: false });
  }
}
