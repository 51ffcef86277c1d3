import type { AppDeps, AuthInfo } from "../context.ts";
import type { DomainEvents } from "../events/domain.ts";
import type { TakenBackNotice } from "../../contract/ticket_types.ts";
import { loadTicketView } from "../tickets/view_repository.ts";
import { findUser } from "../users/repository.ts";
import {
  markNoticesSeen,
  noticeParties,
  setNoticeOwner,
  unseenNotices,
} from "./taken_back_repository.ts";

/**
 * Issue 50 item 17: a ticket distribution took back from an attendant offline past the company's
 * `distributionOfflineMinutes` is told to both sides: the attendant reads a notice when they come
 * back (kept in taken_back_notices until they close it; live on a tab still open), and whoever
 * got it next hears it on the bell (ticket.takenBack -> the `ticketTakenBack` channel). The
 * attendant, offline, is also pushed to (a closed tab hears no socket); the event is noted in
 * the take-back's transaction (`outgoing`), so the push survives a crash after it.
 */

/** After the take-back and the new placing: records who got it and tells both. */
export async function tellTakenBack(
  deps: AppDeps,
  companyId: number,
  notice: { id: number; ticketId: number; fromUserId: number; outgoing: string },
): Promise<void> {
  const ticket = await loadTicketView(deps.db, companyId, notice.ticketId);
  if (!ticket) return;
  const { fromUserId } = notice;
  if (ticket.userId !== null && ticket.userId !== fromUserId) {
    await setNoticeOwner(deps.db, companyId, notice.id, ticket.userId);
  }
  const event = await takenBackEvent(deps, companyId, notice.id);
  if (event) deps.events.emit("ticket.takenBack", { ...event, outgoing: notice.outgoing });
}

/**
 * The take-back a notice records, as its event (also read back by the `outgoing` job); undefined
 * once the attendant closed the notice (they know) or the ticket is gone.
 */
export async function takenBackEvent(
  deps: Pick<AppDeps, "db">,
  companyId: number,
  noticeId: number,
): Promise<DomainEvents["ticket.takenBack"] | undefined> {
  const parties = await noticeParties(deps.db, companyId, noticeId);
  if (!parties) return undefined;
  const [notice] = await unseenNotices(deps.db, companyId, parties.userId, noticeId);
  const ticket = notice && await loadTicketView(deps.db, companyId, notice.ticketId);
  if (!ticket) return undefined;
  const from = await findUser(deps.db, companyId, parties.userId);
  return {
    companyId,
    ticket,
    fromUserId: parties.userId,
    fromName: from?.name ?? "",
    toUserId: parties.toUserId,
    notice,
  };
}

/** GET /api/tickets/taken-back: the caller's notices not yet closed. */
export async function takenBackNotices(
  deps: AppDeps,
  auth: Pick<AuthInfo, "companyId" | "userId">,
): Promise<TakenBackNotice[]> {
  return await unseenNotices(deps.db, auth.companyId, auth.userId);
}

/** POST /api/tickets/taken-back/seen: closes the caller's notices (nobody else's). */
export async function closeTakenBackNotices(
  deps: AppDeps,
  auth: Pick<AuthInfo, "companyId" | "userId">,
): Promise<{ closed: number }> {
  const closed = await markNoticesSeen(
    deps.db,
    auth.companyId,
    auth.userId,
    deps.clock.now().toISOString(),
  );
  return { closed };
}
