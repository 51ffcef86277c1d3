import { LIMITS } from "../../contract/validation.ts";
import type { AppDeps, AuthInfo } from "../context.ts";
import { AppError, notFound } from "../errors.ts";
import { assertCanRead, viewerOf } from "./access.ts";
import { countPins, deletePin, insertPin, pinnedTicketIds } from "./pin_repository.ts";
import { findTicket } from "./repository.ts";
import type { TicketView } from "./view.ts";
import { loadTicketView } from "./view_repository.ts";

/**
 * Issue 28 item 2: pins are the caller's own (ticket_pins, per user); a pinned ticket comes first
 * in the caller's lists (list_repository.ts pinnedFirst) and every one of their tabs hears the
 * change (ticket.pinned -> the `ticketPin` channel, to the user's sockets only).
 */

/** `pinned` of each view for this user (the views' own payload, heard by many, has none). */
export async function withPins(
  deps: AppDeps,
  auth: Pick<AuthInfo, "companyId" | "userId">,
  views: TicketView[],
): Promise<TicketView[]> {
  const ids = views.map((v) => v.id);
  const pinned = await pinnedTicketIds(deps.db, auth.companyId, auth.userId, ids);
  return views.map((v) => ({ ...v, pinned: pinned.has(v.id) }));
}

/**
 * POST /api/tickets/:id/pin: a ticket the caller may read (another company's: 404 like a missing
 * one; outside their queues: 403). Pinning it again changes nothing; past LIMITS.pinnedTickets
 * 409 ERR_PIN_LIMIT. Answers the ticket with `pinned: true`.
 */
export async function pinTicket(deps: AppDeps, auth: AuthInfo, id: number): Promise<TicketView> {
  const viewer = await viewerOf(deps.db, auth);
  const { companyId, userId } = viewer;
  const ticket = await findTicket(deps.db, companyId, id);
  if (!ticket) throw notFound("ERR_NO_TICKET_FOUND", "Ticket not found");
  assertCanRead(viewer, ticket);
  const added = await deps.db.transaction().execute(async (trx) => {
    const already = await pinnedTicketIds(trx, companyId, userId, [ticket.id]);
    if (already.size > 0) return false;
    // Counted and inserted in one transaction: two tabs pinning at once cannot pass the limit.
    if (await countPins(trx, companyId, userId) >= LIMITS.pinnedTickets.max) {
      throw new AppError(
        409,
        "ERR_PIN_LIMIT",
        `At most ${LIMITS.pinnedTickets.max} pinned tickets`,
      );
    }
    return await insertPin(trx, {
      companyId,
      userId,
      ticketId: ticket.id,
      createdAt: deps.clock.now().toISOString(),
    });
  });
  if (added) {
    deps.events.emit("ticket.pinned", { companyId, userId, ticketId: ticket.id, pinned: true });
  }
  const view = await loadTicketView(deps.db, companyId, ticket.id);
  if (!view) throw notFound("ERR_NO_TICKET_FOUND", "Ticket not found");
  return { ...view, pinned: true };
}

/**
 * DELETE /api/tickets/:id/pin: the caller's pin goes (none: nothing changes). Only the company is
 * checked: a ticket that has since left the caller's sight can still be unpinned, so that it does
 * not hold one of their pins for ever.
 */
export async function unpinTicket(deps: AppDeps, auth: AuthInfo, id: number): Promise<void> {
  const { companyId, userId } = auth;
  const ticket = await findTicket(deps.db, companyId, id);
  if (!ticket) throw notFound("ERR_NO_TICKET_FOUND", "Ticket not found");
  if (await deletePin(deps.db, companyId, userId, ticket.id)) {
    deps.events.emit("ticket.pinned", { companyId, userId, ticketId: ticket.id, pinned: false });
  }
}
