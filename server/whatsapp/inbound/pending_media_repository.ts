import type { Database } from "../../../db/client.ts";
import type { Message } from "../../../db/schema.ts";
import { crossCompany } from "../../../db/tenancy.ts";

export type PendingMedia = Pick<
  Message,
  "id" | "companyId" | "whatsappId" | "wid" | "mediaMimetype" | "mediaName" | "dataJson"
>;

/**
 * Inbound messages whose media waits to be stored (issue 34), oldest first, of every company:
 * the media_retry job works them with their own company. Through the partial index
 * messages_media_pending (0150), which holds only these rows.
 */
export async function pendingMediaMessages(db: Database, limit: number): Promise<PendingMedia[]> {
  return await crossCompany(db).selectFrom("messages")
    .select(["id", "companyId", "whatsappId", "wid", "mediaMimetype", "mediaName", "dataJson"])
    .where("mediaPending", "=", 1)
    .orderBy("id")
    .limit(limit)
    .execute();
}

/** The media stored at last; only while still pending (a second tick changes nothing). */
export async function settlePendingMedia(
  db: Database,
  companyId: number,
  id: number,
  media: { path: string; mimetype: string; filename: string },
  now: string,
): Promise<Message | undefined> {
  return await db.updateTable("messages")
    .set({
      mediaUrl: media.path,
      mediaMimetype: media.mimetype,
      mediaName: media.filename,
      mediaPending: 0,
      updatedAt: now,
    })
    .where("id", "=", id)
    .where("companyId", "=", companyId)
    .where("mediaPending", "=", 1)
    .returningAll()
    .executeTakeFirst();
}
