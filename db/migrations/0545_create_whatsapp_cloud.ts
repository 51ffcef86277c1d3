import { type Kysely, sql } from "kysely";

/**
 * Issue 45: Meta's WhatsApp Cloud API as a channel.
 * - whatsapp_cloud: one row per cloud_api connection, its Graph API ids and its secrets
 *   (accessToken and appSecret sealed by server/crypto/sealed.ts); webhookKey names the webhook
 *   URL Meta posts to (random, unique), phoneNumberId routes each change of a post.
 * - whatsapp_cloud_inbox: every verified webhook post, stored before the 200 and processed after
 *   (processedAt), so a crash between the answer and the work loses nothing.
 * - whatsapp_cloud_sends: the exactly-once ledger of sends (outbox wid -> Meta's wamid); a send
 *   found without its wamid was interrupted after it may have reached Meta: never sent again.
 * - whatsapp_cloud_templates: the templates synced from the business account.
 * - outbox.template: a template send (JSON {name, language, parameters}) instead of free text.
 */
const statements = [
  `CREATE TABLE whatsapp_cloud (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    companyId INTEGER NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    whatsappId INTEGER NOT NULL UNIQUE REFERENCES whatsapps(id) ON DELETE CASCADE,
    phoneNumberId TEXT NOT NULL,
    businessAccountId TEXT NOT NULL,
    accessToken TEXT NOT NULL DEFAULT '',
    appSecret TEXT NOT NULL DEFAULT '',
    verifyToken TEXT NOT NULL,
    webhookKey TEXT NOT NULL UNIQUE,
    displayNumber TEXT,
    verifiedName TEXT,
    qualityRating TEXT,
    lastError TEXT,
    templatesSyncedAt TEXT,
    createdAt TEXT NOT NULL,
    updatedAt TEXT NOT NULL
  )`,
  `CREATE INDEX whatsapp_cloud_phone ON whatsapp_cloud (companyId, phoneNumberId)`,
  `CREATE TABLE whatsapp_cloud_inbox (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    companyId INTEGER NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    whatsappId INTEGER NOT NULL REFERENCES whatsapps(id) ON DELETE CASCADE,
    body TEXT NOT NULL,
    receivedAt TEXT NOT NULL,
    processedAt TEXT,
    attempts INTEGER NOT NULL DEFAULT 0,
    lastError TEXT
  )`,
  `CREATE INDEX whatsapp_cloud_inbox_pending ON whatsapp_cloud_inbox (companyId, whatsappId, processedAt)`,
  `CREATE TABLE whatsapp_cloud_sends (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    companyId INTEGER NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    whatsappId INTEGER NOT NULL REFERENCES whatsapps(id) ON DELETE CASCADE,
    wid TEXT NOT NULL,
    wamid TEXT,
    createdAt TEXT NOT NULL
  )`,
  `CREATE UNIQUE INDEX whatsapp_cloud_sends_once ON whatsapp_cloud_sends (companyId, whatsappId, wid)`,
  `CREATE TABLE whatsapp_cloud_templates (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    companyId INTEGER NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    whatsappId INTEGER NOT NULL REFERENCES whatsapps(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    language TEXT NOT NULL,
    status TEXT NOT NULL,
    category TEXT NOT NULL,
    parameters INTEGER NOT NULL DEFAULT 0,
    body TEXT NOT NULL DEFAULT '',
    syncedAt TEXT NOT NULL
  )`,
  `CREATE UNIQUE INDEX whatsapp_cloud_templates_key
     ON whatsapp_cloud_templates (companyId, whatsappId, name, language)`,
  `ALTER TABLE outbox ADD COLUMN template TEXT`,
];

// deno-lint-ignore no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
