import { type Kysely, sql } from "kysely";

/**
 * Announcements (seeds/002 sections 2.6, 3 'Announcement'): notices of the platform's super users,
 * shown to the users of every company. `companyId` is the author's company (its media folder
 * holds the image). `announcement_reads` is who has seen which (the bell's unread count); its
 * primary key makes marking one read twice harmless.
 */
const statements = [
  `CREATE TABLE announcements (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    companyId INTEGER NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    title TEXT NOT NULL,
    text TEXT NOT NULL,
    priority INTEGER NOT NULL DEFAULT 3 CHECK (priority BETWEEN 1 AND 3),
    status INTEGER NOT NULL DEFAULT 1,
    mediaPath TEXT,
    mediaName TEXT,
    createdAt TEXT NOT NULL,
    updatedAt TEXT NOT NULL
  )`,
  `CREATE INDEX announcements_status ON announcements (status, priority, id)`,
  `CREATE TABLE announcement_reads (
    announcementId INTEGER NOT NULL REFERENCES announcements(id) ON DELETE CASCADE,
    userId INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    companyId INTEGER NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    readAt TEXT NOT NULL,
    PRIMARY KEY (announcementId, userId)
  )`,
  `CREATE INDEX announcement_reads_user ON announcement_reads (companyId, userId)`,
];

// deno-lint-ignore no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
