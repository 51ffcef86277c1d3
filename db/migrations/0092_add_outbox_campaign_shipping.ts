import { type Kysely, sql } from "kysely";

/**
 * outbox.campaignShippingId (issue 13): the campaign shipping row an outbox row belongs to (its
 * message and, with a file list, its files). Cancelling a campaign withdraws every outbox row of
 * a recipient whose message had not left yet, files included, so a restart sends them once.
 */
const statements = [
  `ALTER TABLE outbox ADD COLUMN campaignShippingId INTEGER`,
  `CREATE INDEX outbox_campaign_shipping ON outbox (campaignShippingId)
    WHERE campaignShippingId IS NOT NULL`,
];

// deno-lint-ignore no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
