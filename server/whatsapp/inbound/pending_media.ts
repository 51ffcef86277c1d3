import { log } from "../../log.ts";
import { changeWithNote } from "../../events/outgoing_repository.ts";
import { deleteMedia, saveMedia } from "../../media/store.ts";
import { loadTicketView, messageViews } from "../../tickets/view_repository.ts";
import type { InboundDeps } from "./pipeline.ts";
import { pendingMediaMessages, settlePendingMedia } from "./pending_media_repository.ts";

/** Messages looked at per tick. */
const BATCH = 50;

/**
 * The media_retry job (issue 34): inbound messages kept with their media pending get their file
 * once storage works again. The connection's provider downloads it again (the simulator from what
 * its phone sent, Baileys from the stored payload, asking the phone to re-upload expired media).
 * A message whose connection is not running here waits for a later tick. A storage failure stops
 * the tick (the job pauses on it). Twice is harmless: the row is updated only while still pending,
 * and a file saved for a row settled meanwhile is removed.
 */
export async function retryPendingMedia(
  deps: Pick<InboundDeps, "db" | "config" | "events" | "clock" | "sessions">,
): Promise<number> {
  const { db, config } = deps;
  let settled = 0;
  for (const row of await pendingMediaMessages(db, BATCH)) {
    if (row.whatsappId === null || row.wid === null) continue;
    const provider = deps.sessions.provider(row.whatsappId);
    if (!provider?.downloadMedia) continue;
    let data: Uint8Array | undefined;
    try {
      data = await provider.downloadMedia({ id: row.wid, raw: parseRaw(row.dataJson) });
    } catch (error) {
      log.warn("pending media: download failed; tried again later", { messageId: row.id, error });
      continue;
    }
    if (!data) continue;
    const stored = await saveMedia(config, row.companyId, data, {
      mimetype: row.mediaMimetype ?? undefined,
      filename: row.mediaName ?? undefined,
    });
    const now = deps.clock.now().toISOString();
    const changed = await changeWithNote(
      db,
      row.companyId,
      now,
      (trx) => settlePendingMedia(trx, row.companyId, row.id, stored, now),
    ).catch(async (error) => {
      await deleteMedia(config, row.companyId, stored.path).catch(() => {});
      throw error;
    });
    const message = changed?.row;
    if (!message) {
      await deleteMedia(config, row.companyId, stored.path);
      continue;
    }
    settled++;
    const ticket = await loadTicketView(db, row.companyId, message.ticketId);
    if (ticket) {
      const [view] = await messageViews(db, row.companyId, [message]);
      deps.events.emit("message.updated", { message: view, ticket, outgoing: changed.outgoing });
    }
  }
  if (settled > 0) log.info("pending media stored", { messages: settled });
  return settled;
}

function parseRaw(json: string | null): unknown {
  if (!json) return undefined;
  try {
    return JSON.parse(json);
  } catch {
    return undefined;
  }
}
