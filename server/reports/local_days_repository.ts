import { sql } from "kysely";
import type { Database } from "../../db/client.ts";
import { rebuildLocalDays, zoneOffsetRows } from "../../db/migrations/0520_add_zone_local_days.ts";

/**
 * A company's local days follow its zone (issue 43 item 1). When the setting `timeZone` changes,
 * in the transaction that writes it: the zone's offsets are made known to the database (the
 * triggers read zone_offsets, migration 0520) and the company's timeline days, day sums and
 * per-ticket message days are stamped again on the new zone's clock, so past and future reports
 * count the same local days. One company's rows only; a year of 100,000 tickets is rewritten in
 * a few seconds, once per change of zone.
 */
export async function followZone(trx: Database, companyId: number, zone: string): Promise<void> {
  const known = await sql<{ n: number }>`SELECT count(*) AS n FROM zone_offsets
    WHERE zone = ${zone}`.execute(trx);
  if (Number(known.rows[0]?.n ?? 0) === 0) {
    for (const row of zoneOffsetRows(zone)) {
      await sql`INSERT INTO zone_offsets (zone, fromAt, offsetMinutes)
        VALUES (${row.zone}, ${row.fromAt}, ${row.offsetMinutes})`.execute(trx);
    }
  }
  for (const statement of rebuildLocalDays(companyId)) await sql.raw(statement).execute(trx);
}
