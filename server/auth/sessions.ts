import type { SessionView } from "../../contract/sessions.ts";
import type { AppDeps, AuthInfo } from "../context.ts";
import { notFound } from "../errors.ts";
import { actorOf, recordAudit } from "../audit/service.ts";
import { disconnectSession } from "../realtime/members.ts";
import { assertAllowed, assertRecord } from "./policy.ts";
import { sessionEndNeeds } from "../../contract/record_policy.ts";
import { endOneSession, listLiveSessions } from "./repository.ts";

/**
 * Sessions a user sees and ends (issue 30). A user sees their own; an admin (session:manage-any)
 * every user's of the company with `scope: "company"`. Ending one stops its tokens at once (every
 * request checks the session), tells its sockets and closes them.
 */
export async function listSessions(
  deps: AppDeps,
  auth: AuthInfo,
  scope: "own" | "company",
): Promise<{ sessions: SessionView[] }> {
  if (scope === "company") assertAllowed(auth, "session:manage-any");
  const rows = await listLiveSessions(
    deps.db,
    auth.companyId,
    scope === "own" ? auth.userId : undefined,
  );
  return {
    sessions: rows.map((r) => ({
      id: r.id,
      current: r.id === auth.sessionId,
      userId: r.userId,
      userName: r.userName,
      userAgent: r.userAgent,
      ip: r.ip,
      createdAt: r.createdAt,
      lastSeenAt: r.lastSeenAt,
    })),
  };
}

/** DELETE /sessions/:id: one's own, or (admins) any of the company's; super users' by super users. */
export async function endSession(deps: AppDeps, auth: AuthInfo, id: number) {
  const rows = await listLiveSessions(deps.db, auth.companyId);
  const target = rows.find((r) => r.id === id);
  if (!target) throw notFound("ERR_NO_SESSION_FOUND", "Sessão não encontrada");
  assertRecord(auth, sessionEndNeeds(auth, { ...target, userSuper: target.userSuper === 1 }));
  const reason = target.userId === auth.userId ? "endedByUser" : "endedByAdmin";
  const now = deps.clock.now().toISOString();
  const ended = await deps.db.transaction().execute(async (trx) => {
    if (!await endOneSession(trx, auth.companyId, id, now, reason)) return false;
    await recordAudit(trx, now, {
      companyId: auth.companyId,
      actor: actorOf(auth),
      action: "session.ended",
      entity: "session",
      entityId: id,
      before: { userId: target.userId, ip: target.ip, userAgent: target.userAgent },
      after: { reason },
    });
    return true;
  });
  if (!ended) throw notFound("ERR_NO_SESSION_FOUND", "Sessão não encontrada");
  // Told first, then closed: a close sends what is queued before it.
  deps.events.emit("session.ended", {
    companyId: auth.companyId,
    userId: target.userId,
    sessionId: id,
    reason,
  });
  disconnectSession(deps.hub, auth.companyId, id, "session ended");
}
