import type { AppDeps } from "../context.ts";
import { log } from "../log.ts";
import { capabilitiesOf } from "../../contract/channels.ts";
import { channelOf, lastContactMessageWid } from "./window_repository.ts";

/**
 * An attendant opened a chat with unread messages: on a channel with read receipts (capability
 * `readReceipts`, the Cloud API) the contact's phone shows them read, up to their last message.
 * Best effort, after the read is stored: a failure is logged, never the attendant's problem. Only
 * the process running the connection can tell the provider (elsewhere: skipped).
 */
export async function sendReadReceipt(
  deps: AppDeps,
  companyId: number,
  ticket: { whatsappId: number | null; contactId: number },
) {
  if (ticket.whatsappId === null) return;
  try {
    const kind = await channelOf(deps.db, companyId, ticket.whatsappId);
    if (!kind || !capabilitiesOf(kind).readReceipts) return;
    const provider = deps.sessions.connectedProvider(ticket.whatsappId);
    if (!provider?.markRead) return;
    const wid = await lastContactMessageWid(
      deps.db,
      companyId,
      ticket.whatsappId,
      ticket.contactId,
    );
    if (wid) await provider.markRead(wid);
  } catch (error) {
    log.warn("read receipt not sent", { whatsappId: ticket.whatsappId, error });
  }
}
