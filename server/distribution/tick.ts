import type { AppDeps } from "../context.ts";
import { noteOutgoingMany } from "../events/outgoing_repository.ts";
import { loadTicketView } from "../tickets/view_repository.ts";
import { queueSupervisorIds } from "../users/repository.ts";
import { takeBack, ticketToPlace } from "./repository.ts";
import { companiesWithWaiting, recordBreaches, untouchedOfOffline } from "./scan_repository.ts";
import { distributeWaiting, placeTicket } from "./service.ts";
import { tellTakenBack } from "./taken_back.ts";
import { insertNotice } from "./taken_back_repository.ts";

const SCAN_LIMIT = 500;

/**
 * The distribution job's tick: tickets given to attendants offline for the company's
 * `distributionOfflineMinutes` and untouched go back and out again (takeBack is guarded by the
 * user and distributedAt that were read: a second tick finds nothing); what still waits is given
 * out (a presence heard by another process, a queue's hours opening); breaches are recorded once
 * (recordBreaches: `slaBreachedAt IS NULL` in the UPDATE) and told. Each change is noted with its
 * events (server/events/outgoing.ts): a crash after its commit loses no webhook or push.
 */
export async function distributionTick(deps: AppDeps) {
  const now = deps.clock.now();
  const stamp = now.toISOString();
  const companies = new Set<number>();
  for (const t of await untouchedOfOffline(deps.db, stamp, SCAN_LIMIT)) {
    // The take-back, its notice (issue 50 item 17) and its event's note in one transaction.
    const taken = await deps.db.transaction().execute(async (trx) => {
      const row = await ticketToPlace(trx, t.companyId, t.id);
      if (!row || !await takeBack(trx, t.companyId, t.id, t.userId, t.distributedAt, stamp)) {
        return undefined;
      }
      const before = { status: "open", queueId: row.queueId, userId: t.userId };
      const noticeId = await insertNotice(trx, {
        companyId: t.companyId,
        userId: t.userId,
        ticketId: t.id,
        at: stamp,
      });
      const [outgoing, told] = await noteOutgoingMany(trx, t.companyId, [
        { event: "ticket.updated", subject: { ticketId: t.id, before } },
        ...(noticeId === null
          ? []
          : [{ event: "ticket.takenBack", subject: { ticketId: t.id, noticeId } }]),
      ], stamp);
      return { noticeId, before, outgoing, told };
    });
    if (taken === undefined) continue;
    const view = await loadTicketView(deps.db, t.companyId, t.id);
    if (view) {
      deps.events.emit("ticket.updated", {
        ticket: view,
        before: taken.before,
        outgoing: taken.outgoing,
      });
    }
    // Placed again at once (never back to who left) so that both sides are told who has it.
    await placeTicket(deps, t.companyId, t.id, t.userId);
    if (taken.noticeId !== null) {
      await tellTakenBack(deps, t.companyId, {
        id: taken.noticeId,
        ticketId: t.id,
        fromUserId: t.userId,
        outgoing: taken.told,
      });
    }
    companies.add(t.companyId);
  }
  for (const companyId of await companiesWithWaiting(deps.db, SCAN_LIMIT)) companies.add(companyId);
  for (const companyId of companies) {
    await deps.afterAnswer.run(
      `distribution:${companyId}`,
      () => distributeWaiting(deps, companyId),
    );
  }
  await tellBreaches(deps, stamp);
}

/** Records the breaches due now, each noted with its two events in the same transaction. */
async function tellBreaches(deps: AppDeps, stamp: string) {
  const breaches = await deps.db.transaction().execute(async (trx) => {
    const rows = await recordBreaches(trx, stamp, SCAN_LIMIT);
    const noted = [];
    for (const breach of rows) {
      const kind = breach.resolutionDueAt !== null && breach.resolutionPausedAt === null &&
          breach.resolutionDueAt <= stamp
        ? "resolution" as const
        : "firstResponse" as const;
      const [updated, breached] = await noteOutgoingMany(trx, breach.companyId, [
        { event: "ticket.updated", subject: { ticketId: breach.id } },
        { event: "ticket.slaBreached", subject: { ticketId: breach.id, sla: kind } },
      ], stamp);
      noted.push({ ...breach, kind, notes: { updated, breached } });
    }
    return noted;
  });
  for (const breach of breaches) {
    const ticket = await loadTicketView(deps.db, breach.companyId, breach.id);
    if (!ticket) continue;
    const supervisorIds = ticket.queueId === null
      ? []
      : await queueSupervisorIds(deps.db, breach.companyId, ticket.queueId);
    deps.events.emit("ticket.updated", { ticket, outgoing: breach.notes.updated });
    deps.events.emit("ticket.slaBreached", {
      companyId: breach.companyId,
      ticket,
      kind: breach.kind,
      supervisorIds,
      outgoing: breach.notes.breached,
    });
  }
}
