import { sql } from "kysely";
import type { Database } from "../../db/client.ts";

/**
 * Every media key a row of this company points to: messages, the outbox, the admin's files
 * (queues, options, quick messages, schedules, announcements, campaigns, file lists). The media
 * sweep (sweep.ts) removes only files none of these name; a new column that stores a key belongs
 * here too.
 */
export async function mediaKeysOf(db: Database, companyId: number): Promise<Set<string>> {
  const result = await sql<{ key: string }>`
    SELECT mediaUrl AS key FROM messages WHERE companyId = ${companyId} AND mediaUrl IS NOT NULL
    UNION SELECT mediaPath FROM outbox WHERE companyId = ${companyId} AND mediaPath IS NOT NULL
    UNION SELECT mediaPath FROM queues WHERE companyId = ${companyId} AND mediaPath IS NOT NULL
    UNION SELECT mediaPath FROM queue_options WHERE companyId = ${companyId}
      AND mediaPath IS NOT NULL
    UNION SELECT mediaPath FROM quick_messages WHERE companyId = ${companyId}
      AND mediaPath IS NOT NULL
    UNION SELECT mediaPath FROM schedules WHERE companyId = ${companyId} AND mediaPath IS NOT NULL
    UNION SELECT mediaPath FROM announcements WHERE companyId = ${companyId}
      AND mediaPath IS NOT NULL
    UNION SELECT mediaPath FROM campaigns WHERE companyId = ${companyId} AND mediaPath IS NOT NULL
    UNION SELECT path FROM file_list_options WHERE companyId = ${companyId}`.execute(db);
  return new Set(result.rows.map((row) => row.key));
}
