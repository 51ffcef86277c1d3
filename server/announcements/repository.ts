import { sql } from "kysely";
import type { Database } from "../../db/client.ts";
import { crossCompany } from "../../db/tenancy.ts";
import type { Announcement } from "../../db/schema.ts";
import type { AnnouncementView } from "../../contract/team_types.ts";
import { likePattern, type PageAnswer, pageAnswer, pageWindow } from "../paging.ts";

/**
 * Announcements are the platform's: super users write them for every company, and every
 * company's users read them (the row's companyId is the author's). Reads and changes of the
 * table cross companies on purpose; a user's read marks are their own company's rows.
 */
export const ANNOUNCEMENTS_PAGE_SIZE = 20;

export function announcementView(row: Announcement, read = false): AnnouncementView {
  return {
    id: row.id,
    title: row.title,
    text: row.text,
    priority: row.priority,
    status: row.status === 1,
    mediaPath: row.mediaPath,
    mediaName: row.mediaName,
    read,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

/**
 * GET /api/announcements: newest first. `activeOnly` is what every user's bell reads; the super
 * users' page reads them all. `read` is the caller's own (announcement_reads).
 */
export async function pageAnnouncements(
  db: Database,
  reader: { userId: number },
  options: { activeOnly: boolean; searchParam?: string; pageNumber: number },
): Promise<PageAnswer<"records", AnnouncementView>> {
  let q = crossCompany(db).selectFrom("announcements");
  if (options.activeOnly) q = q.where("announcements.status", "=", 1);
  const text = options.searchParam?.trim();
  if (text) {
    const pattern = likePattern(text);
    q = q.where(
      sql<
        boolean
      >`(announcements.title LIKE ${pattern} ESCAPE '\\' OR announcements.text LIKE ${pattern} ESCAPE '\\')`,
    );
  }
  const window = pageWindow(options.pageNumber, ANNOUNCEMENTS_PAGE_SIZE);
  const rows = await q.selectAll("announcements")
    .select((eb) =>
      eb.exists(
        eb.selectFrom("announcement_reads").select("announcement_reads.userId")
          .whereRef("announcement_reads.announcementId", "=", "announcements.id")
          .where("announcement_reads.userId", "=", reader.userId),
      ).as("isRead")
    )
    .orderBy("announcements.id", "desc").limit(window.limit).offset(window.offset).execute();
  const total = await q.select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  const records = rows.map(({ isRead, ...row }) => announcementView(row, Boolean(isRead)));
  return pageAnswer("records", records, Number(total.n), window);
}

export async function findAnnouncement(
  db: Database,
  id: number,
): Promise<Announcement | undefined> {
  return await crossCompany(db).selectFrom("announcements").selectAll().where("id", "=", id)
    .executeTakeFirst();
}

export async function insertAnnouncement(
  db: Database,
  row: Omit<Announcement, "id">,
): Promise<Announcement> {
  return await db.insertInto("announcements").values(row).returningAll()
    .executeTakeFirstOrThrow();
}

export async function updateAnnouncementRow(
  db: Database,
  id: number,
  patch: Partial<Omit<Announcement, "id" | "createdAt">>,
): Promise<Announcement | undefined> {
  return await crossCompany(db).updateTable("announcements").set(patch).where("id", "=", id)
    .returningAll()
    .executeTakeFirst();
}

export async function deleteAnnouncementRow(db: Database, id: number) {
  await crossCompany(db).deleteFrom("announcements").where("id", "=", id).execute();
}

/**
 * Marks these active announcements read by the user. The primary key (announcementId, userId)
 * makes a second call, or two at once, harmless.
 */
export async function markAnnouncementsRead(
  db: Database,
  reader: { companyId: number; userId: number },
  ids: readonly number[],
  now: string,
) {
  if (ids.length === 0) return;
  await db.insertInto("announcement_reads")
    .columns(["announcementId", "userId", "companyId", "readAt"])
    .expression((eb) =>
      eb.selectFrom("announcements").select((e) => [
        "announcements.id",
        e.val(reader.userId).as("userId"),
        e.val(reader.companyId).as("companyId"),
        e.val(now).as("readAt"),
      ]).where("announcements.status", "=", 1).where("announcements.id", "in", ids)
    )
    .onConflict((oc) => oc.doNothing()).execute();
}
