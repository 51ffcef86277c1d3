import { getMimeType } from "hono/utils/mime";
import type { Database } from "../../../db/client.ts";
import type { Message } from "../../../db/schema.ts";
import type { Config } from "../../config.ts";
import { log } from "../../log.ts";
import { deleteMedia, linkMedia } from "../../media/store.ts";
import { enqueueInTransaction, type OutgoingMedia } from "./outbox.ts";
import type { BotMedia } from "../../bots/bot.ts";

/**
 * The files of queues and chatbot options (seeds/001 'Queues': mediaPath, mediaName) that the
 * bot sends with their greeting or message, through the same outbox as its text replies.
 *
 * Each send gets its own key to the bytes (store.linkMedia: a hard link, so no data is copied)
 * taken BEFORE the transaction: the admin may replace or remove the queue's file at any time
 * (queues/service.ts deletes the old one), and the outbox row and the message in the ticket's
 * history must still find their file afterwards. Referencing the queue's key directly would
 * make the worker fail the send permanently ("media file is missing") and break the history.
 */

/** The mimetype of an admin's file: from its stored key (typed at upload), else its name. */
function mimetypeOf(media: BotMedia): string {
  if (media.mimetype) return media.mimetype;
  const byKey = getMimeType(media.path);
  if (byKey && byKey !== "application/octet-stream") return byKey;
  return getMimeType(media.name) ?? "application/octet-stream";
}

/** Gives each file its own key; a file gone meanwhile is skipped (the text still goes out). */
export async function prepareReplyMedia(
  config: Config,
  companyId: number,
  media: readonly BotMedia[] | undefined,
): Promise<OutgoingMedia[]> {
  const out: OutgoingMedia[] = [];
  for (const m of media ?? []) {
    // linkMedia refuses a key of another company: only this company's files are ever sent.
    const path = await linkMedia(config, companyId, m.path);
    if (m.transient) await deleteMedia(config, companyId, m.path).catch(() => {});
    if (!path) {
      log.warn("queue media file missing; not sent", { companyId, path: m.path });
      continue;
    }
    out.push({ path, mimetype: mimetypeOf(m), filename: m.name });
  }
  return out;
}

/** Writes a media message + outbox row per file; must run in the inbound message's transaction. */
export async function enqueueReplyMedia(
  trx: Database,
  args: {
    companyId: number;
    whatsappId: number;
    ticketId: number;
    contactId: number;
    toJid: string;
    now: string;
    /** When the i-th file may go out (a bot spacing its messages); default: at once. */
    dueAt?: (i: number) => string;
  },
  files: readonly OutgoingMedia[],
): Promise<Message[]> {
  const rows: Message[] = [];
  const { dueAt, ...common } = args;
  for (const [i, media] of files.entries()) {
    rows.push(
      await enqueueInTransaction(trx, { ...common, body: "", media, dueAt: dueAt?.(i) }),
    );
  }
  return rows;
}

/** Removes the prepared keys that no stored message uses (rolled back, or not sent). */
export async function forgetReplyMedia(
  config: Config,
  companyId: number,
  files: readonly OutgoingMedia[],
  stored: readonly Pick<Message, "mediaUrl">[] = [],
): Promise<void> {
  const used = new Set(stored.map((m) => m.mediaUrl));
  for (const file of files) {
    if (!used.has(file.path)) await deleteMedia(config, companyId, file.path);
  }
}
