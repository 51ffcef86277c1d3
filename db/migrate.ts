import { type Migration, type MigrationProvider, Migrator } from "kysely/migration";
import { sql } from "kysely";
import type { Database } from "./client.ts";
import { isPostgres } from "./engine.ts";

/**
 * Migrations are the files db/migrations/NNNN_verb_noun.ts, applied in name order at start.
 * They are imported statically (not read from disk) so that they work from any working directory.
 */
import * as m0001 from "./migrations/0001_create_core.ts";
import * as m0002 from "./migrations/0002_add_ticket_rating_flag.ts";
import * as m0010 from "./migrations/0010_create_outbox.ts";
import * as m0011 from "./migrations/0011_add_ticket_contact_index.ts";
import * as m0020 from "./migrations/0020_create_baileys_auth.ts";
import * as m0030 from "./migrations/0030_rebuild_message_search.ts";
import * as m0031 from "./migrations/0031_add_ticket_list_indexes.ts";
import * as m0032 from "./migrations/0032_create_ticket_counts.ts";
import * as m0040 from "./migrations/0040_add_admin_indexes.ts";
import * as m0050 from "./migrations/0050_rebuild_ids_autoincrement.ts";
import * as m0051 from "./migrations/0051_create_sessions.ts";
import * as m0070 from "./migrations/0070_create_helps_and_due_dates.ts";
import * as m0071 from "./migrations/0071_add_foreign_key_indexes.ts";
import * as m0060 from "./migrations/0060_add_schedule_send_error.ts";
import * as m0100 from "./migrations/0100_create_chats.ts";
import * as m0101 from "./migrations/0101_create_announcements.ts";
import * as m0080 from "./migrations/0080_create_invoices.ts";
import * as m0090 from "./migrations/0090_create_campaigns.ts";
import * as m0091 from "./migrations/0091_add_campaign_started_at.ts";
import * as m0092 from "./migrations/0092_add_outbox_campaign_shipping.ts";
import * as m0110 from "./migrations/0110_create_queue_integrations.ts";
import * as m0120 from "./migrations/0120_add_connection_api_tokens.ts";
import * as m0121 from "./migrations/0121_create_api_idempotency_keys.ts";
import * as m0122 from "./migrations/0122_create_webhooks.ts";
import * as m0130 from "./migrations/0130_add_outbox_waiting_index.ts";
import * as m0131 from "./migrations/0131_create_password_resets.ts";
import * as m0132 from "./migrations/0132_create_whatsapp_leases.ts";
import * as m0133 from "./migrations/0133_create_instances.ts";
import * as m0140 from "./migrations/0140_hash_connection_tokens.ts";
import * as m0150 from "./migrations/0150_add_distribution_and_sla.ts";
import * as m0151 from "./migrations/0151_add_message_media_pending.ts";
import * as m0155 from "./migrations/0155_create_invoice_reminders.ts";
import * as m0300 from "./migrations/0300_create_accounts_security.ts";
import * as m0400 from "./migrations/0400_create_ticket_events.ts";
import * as m0410 from "./migrations/0410_add_message_forward_and_edits.ts";
import * as m0420 from "./migrations/0420_create_ticket_pins.ts";
import * as m0421 from "./migrations/0421_add_quick_message_queue.ts";
import * as m0450 from "./migrations/0450_add_supervisors_pause_and_work_hours.ts";
import * as m0470 from "./migrations/0470_add_report_speedups.ts";
import * as m0500 from "./migrations/0500_create_ticket_notification_counts.ts";
import * as m0520 from "./migrations/0520_add_zone_local_days.ts";
import * as m0540 from "./migrations/0540_create_push.ts";
import * as m0545 from "./migrations/0545_create_whatsapp_cloud.ts";
import * as m0560 from "./migrations/0560_create_user_presence.ts";
import * as m0600 from "./migrations/0600_create_assist.ts";
import * as m0620 from "./migrations/0620_add_cloud_backoff.ts";
import * as m0640 from "./migrations/0640_add_postgres_search.ts";
import * as m0660 from "./migrations/0660_create_import_map.ts";
import * as m0680 from "./migrations/0680_create_outgoing_events.ts";
import * as m0685 from "./migrations/0685_create_taken_back_notices.ts";
import * as m0686 from "./migrations/0686_summarise_person_transfers.ts";
import * as m0690 from "./migrations/0690_add_send_templates.ts";
import * as m0700 from "./migrations/0700_store_money_in_cents.ts";
import * as m0720 from "./migrations/0720_lease_invoice_reminders.ts";
import * as m0740 from "./migrations/0740_queue_reactions.ts";
import * as m0741 from "./migrations/0741_add_ticket_referral.ts";
import * as m0750 from "./migrations/0750_order_postgres_triggers.ts";
import * as m0751 from "./migrations/0751_postgres_counter_rows_once.ts";
import * as m0760 from "./migrations/0760_postgres_search_transcripts.ts";
import * as m0770 from "./migrations/0770_postgres_tickets_user_id.ts";

const migrations: Record<string, Migration> = {
  "0001_create_core": m0001,
  "0002_add_ticket_rating_flag": m0002,
  "0010_create_outbox": m0010,
  "0011_add_ticket_contact_index": m0011,
  "0020_create_baileys_auth": m0020,
  "0030_rebuild_message_search": m0030,
  "0031_add_ticket_list_indexes": m0031,
  "0032_create_ticket_counts": m0032,
  "0040_add_admin_indexes": m0040,
  "0050_rebuild_ids_autoincrement": m0050,
  "0051_create_sessions": m0051,
  "0070_create_helps_and_due_dates": m0070,
  "0071_add_foreign_key_indexes": m0071,
  "0060_add_schedule_send_error": m0060,
  "0100_create_chats": m0100,
  "0101_create_announcements": m0101,
  "0080_create_invoices": m0080,
  "0090_create_campaigns": m0090,
  "0091_add_campaign_started_at": m0091,
  "0092_add_outbox_campaign_shipping": m0092,
  "0110_create_queue_integrations": m0110,
  "0120_add_connection_api_tokens": m0120,
  "0121_create_api_idempotency_keys": m0121,
  "0122_create_webhooks": m0122,
  "0130_add_outbox_waiting_index": m0130,
  "0131_create_password_resets": m0131,
  "0132_create_whatsapp_leases": m0132,
  "0133_create_instances": m0133,
  "0140_hash_connection_tokens": m0140,
  "0150_add_distribution_and_sla": m0150,
  "0151_add_message_media_pending": m0151,
  "0155_create_invoice_reminders": m0155,
  "0300_create_accounts_security": m0300,
  "0400_create_ticket_events": m0400,
  "0410_add_message_forward_and_edits": m0410,
  "0420_create_ticket_pins": m0420,
  "0421_add_quick_message_queue": m0421,
  "0450_add_supervisors_pause_and_work_hours": m0450,
  "0470_add_report_speedups": m0470,
  "0500_create_ticket_notification_counts": m0500,
  "0520_add_zone_local_days": m0520,
  "0540_create_push": m0540,
  "0545_create_whatsapp_cloud": m0545,
  "0560_create_user_presence": m0560,
  "0600_create_assist": m0600,
  "0620_add_cloud_backoff": m0620,
  "0640_add_postgres_search": m0640,
  "0660_create_import_map": m0660,
  "0680_create_outgoing_events": m0680,
  "0685_create_taken_back_notices": m0685,
  "0686_summarise_person_transfers": m0686,
  "0690_add_send_templates": m0690,
  "0700_store_money_in_cents": m0700,
  "0720_lease_invoice_reminders": m0720,
  "0740_queue_reactions": m0740,
  "0741_add_ticket_referral": m0741,
  "0750_order_postgres_triggers": m0750,
  "0751_postgres_counter_rows_once": m0751,
  "0760_postgres_search_transcripts": m0760,
  "0770_postgres_tickets_user_id": m0770,
};

class StaticProvider implements MigrationProvider {
  getMigrations() {
    return Promise.resolve(migrations);
  }
}

function migrator(db: Database) {
  // Numbers were handed out in blocks to work landing in parallel, so a database that already ran
  // 0040 may later receive 0030: apply it instead of refusing to start.
  return new Migrator({
    // deno-lint-ignore no-explicit-any
    db: db as any,
    provider: new StaticProvider(),
    allowUnorderedMigrations: true,
  });
}

/** A database that a newer release migrated: this release does not know its schema. */
export class SchemaTooNewError extends Error {
  override name = "SchemaTooNewError";
}

/**
 * Brings the schema to the latest version; throws if a migration fails. The pending migrations
 * run in ONE transaction (SQLite's and PostgreSQL's DDL are transactional and Kysely's migrator
 * uses it), so a failed one leaves the database as it was. On PostgreSQL the same files run
 * through db/postgres_sql.ts; the few that must differ ask `isPostgres(db)`. Each applied migration is recorded in
 * schema_versions with the release that applied it (`appVersion`), which is how an older release
 * refuses, by name, a database a newer one migrated (assertKnownSchema).
 */
export async function migrateToLatest(db: Database, appVersion = "unknown"): Promise<string[]> {
  await assertKnownSchema(db, appVersion);
  const { error, results } = await migrator(db).migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  const applied = (results ?? []).filter((r) => r.status === "Success").map((r) => r.migrationName);
  const now = new Date().toISOString();
  for (const migration of applied) {
    await sql`INSERT OR IGNORE INTO schema_versions (migration, appVersion, appliedAt)
      VALUES (${migration}, ${appVersion}, ${now})`.execute(db);
  }
  return applied;
}

/**
 * Refuses a database that ran migrations this release does not have (a newer release migrated
 * it), naming both releases, instead of running on a schema it does not know.
 */
export async function assertKnownSchema(db: Database, appVersion: string): Promise<void> {
  await sql`CREATE TABLE IF NOT EXISTS schema_versions (
    migration TEXT PRIMARY KEY, appVersion TEXT NOT NULL, appliedAt TEXT NOT NULL)`.execute(db);
  const tracked = isPostgres(db)
    ? await sql<{ n: number }>`SELECT count(*) AS n FROM information_schema.tables
      WHERE table_schema = current_schema() AND table_name = 'kysely_migration'`.execute(db)
    : await sql<{ n: number }>`SELECT count(*) AS n FROM sqlite_master
      WHERE type = 'table' AND name = 'kysely_migration'`.execute(db);
  if (Number(tracked.rows[0]?.n ?? 0) === 0) return; // a new database
  const known = new Set(knownMigrations());
  const ran = await sql<{ name: string }>`SELECT name FROM kysely_migration ORDER BY name`
    .execute(db);
  const unknown = ran.rows.map((r) => r.name).filter((name) => !known.has(name));
  if (unknown.length === 0) return;
  const newest = unknown.at(-1)!;
  const by = await sql<{ appVersion: string }>`SELECT appVersion FROM schema_versions
    WHERE migration = ${newest}`.execute(db);
  const newer = by.rows[0]?.appVersion ?? "a newer release";
  throw new SchemaTooNewError(
    `This database was migrated by Balcão ${newer} (migration ${newest}); this is Balcão ` +
      `${appVersion}, which does not know that schema. Start Balcão ${newer} or newer, or ` +
      `restore the backup taken before that upgrade (balcao rollback).`,
  );
}

/** How many migrations this database has run, and which of this build's it has not. */
export async function migrationState(
  db: Database,
): Promise<{ applied: number; pending: string[] }> {
  const all = await migrator(db).getMigrations();
  return {
    applied: all.filter((m) => m.executedAt !== undefined).length,
    pending: all.filter((m) => m.executedAt === undefined).map((m) => m.name),
  };
}

/** Every migration this build knows, in the order they apply (GET /api/version). */
export function knownMigrations(): string[] {
  return Object.keys(migrations).sort();
}

/** Applies the migrations up to and including `name` (tests build an older schema with it). */
export async function migrateUpTo(db: Database, name: string): Promise<void> {
  const { error } = await migrator(db).migrateTo(name);
  if (error) throw error instanceof Error ? error : new Error(String(error));
}
