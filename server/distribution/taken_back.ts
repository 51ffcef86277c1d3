import type { AppDeps, AuthInfo } from "../context.ts";
import type { TakenBackNotice } from "../../contract/ticket_types.ts";
import { loadTicketView } from "../tickets/view_repository.ts";
import { findUser } from "../users/repository.ts";
import { markNoticesSeen, setNoticeOwner, unseenNotices } from "./taken_back_repository.ts";

/**
 * Issue 50 item 17: a ticket distribution took back from an attendant offline past the company's
 * `distributionOfflineMinutes` is told to both sides: the attendant reads a notice when they come
 * back (kept in taken_back_notices until they close it; live on a tab still open), and whoever
 * got it next hears it on the bell (ticket.takenBack -> the `ticketTakenBack` channel).
 */

/** After the take-back and the new placing: records who got it and tells both. */
export async function tellTakenBack(
  deps: AppDeps,
  companyId: number,
  notice: { id: number; ticketId: number; fromUserId: number },
): Promise<void> {
  const { id: noticeId, fromUserId } = notice;
  const ticket = await loadTicketView(deps.db, companyId, notice.ticketId);
  if (!ticket) return;
  const toUserId = ticket.userId !== null && ticket.userId !== fromUserId ? ticket.userId : null;
  if (toUserId !== null) await setNoticeOwner(deps.db, companyId, noticeId, toUserId);
  const [told] = await unseenNotices(deps.db, companyId, fromUserId, noticeId);
  if (!told) return;
  const from = await findUser(deps.db, companyId, fromUserId);
  deps.events.emit("ticket.takenBack", {
    companyId,
    ticket,
    fromUserId,
    fromName: from?.name ?? "",
    toUserId,
    notice: told,
  });
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
