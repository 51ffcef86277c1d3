import { type Kysely, sql } from "kysely";

/**
 * Campaigns (issue 13, seeds/002 sections 3 and 4): contact lists and their items, file lists,
 * the campaign settings, campaigns and one shipping row per recipient.
 *
 * Idempotency keys (each stops one duplicate):
 * - contact_list_items (contactListId, number): a number appears once per list, so an import run
 *   twice or a number typed twice never makes a second recipient;
 * - campaign_shipping (campaignId, number): a campaign messages a number once, whatever the
 *   dispatcher's ticks, restarts or a restart of the campaign do;
 * - campaign_shipping.outboxId / confirmationOutboxId: a row points at the outbox row written in
 *   the same transaction that moved it on, so a crash leaves either both or neither;
 * - campaign_opt_outs (companyId, number): one opt-out per number.
 * campaign_pacing holds, per connection, when the next campaign message may leave and how many
 * left since the last long pause, so pacing survives a restart and two campaigns on one number
 * share it.
 */
const statements = [
  `CREATE TABLE contact_lists (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    companyId INTEGER NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    createdAt TEXT NOT NULL,
    updatedAt TEXT NOT NULL
  )`,
  `CREATE INDEX contact_lists_company ON contact_lists (companyId, name)`,
  `CREATE TABLE contact_list_items (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    companyId INTEGER NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    contactListId INTEGER NOT NULL REFERENCES contact_lists(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    number TEXT NOT NULL,
    email TEXT NOT NULL DEFAULT '',
    isWhatsappValid INTEGER,
    checkedAt TEXT,
    createdAt TEXT NOT NULL,
    updatedAt TEXT NOT NULL
  )`,
  `CREATE UNIQUE INDEX contact_list_items_number ON contact_list_items (contactListId, number)`,
  `CREATE INDEX contact_list_items_list ON contact_list_items (companyId, contactListId, name)`,
  // The background checker reads only the rows not checked yet.
  `CREATE INDEX contact_list_items_unchecked ON contact_list_items (companyId, contactListId, id)
    WHERE isWhatsappValid IS NULL`,
  `CREATE TABLE file_lists (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    companyId INTEGER NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    message TEXT NOT NULL DEFAULT '',
    userId INTEGER REFERENCES users(id) ON DELETE SET NULL,
    createdAt TEXT NOT NULL,
    updatedAt TEXT NOT NULL
  )`,
  `CREATE INDEX file_lists_company ON file_lists (companyId, name)`,
  `CREATE TABLE file_list_options (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    companyId INTEGER NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    fileListId INTEGER NOT NULL REFERENCES file_lists(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    path TEXT NOT NULL,
    mediaType TEXT NOT NULL,
    createdAt TEXT NOT NULL,
    updatedAt TEXT NOT NULL
  )`,
  `CREATE INDEX file_list_options_list ON file_list_options (companyId, fileListId, id)`,
  `CREATE TABLE campaign_settings (
    companyId INTEGER NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    key TEXT NOT NULL,
    value TEXT NOT NULL,
    updatedAt TEXT NOT NULL,
    PRIMARY KEY (companyId, key)
  )`,
  `CREATE TABLE campaigns (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    companyId INTEGER NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    message1 TEXT, message2 TEXT, message3 TEXT, message4 TEXT, message5 TEXT,
    confirmationMessage1 TEXT, confirmationMessage2 TEXT, confirmationMessage3 TEXT,
    confirmationMessage4 TEXT, confirmationMessage5 TEXT,
    status TEXT NOT NULL DEFAULT 'INATIVA',
    confirmation INTEGER NOT NULL DEFAULT 0,
    scheduledAt TEXT,
    completedAt TEXT,
    whatsappId INTEGER REFERENCES whatsapps(id) ON DELETE SET NULL,
    contactListId INTEGER REFERENCES contact_lists(id) ON DELETE SET NULL,
    tagListId INTEGER REFERENCES tags(id) ON DELETE SET NULL,
    fileListId INTEGER REFERENCES file_lists(id) ON DELETE SET NULL,
    mediaPath TEXT,
    mediaName TEXT,
    createdAt TEXT NOT NULL,
    updatedAt TEXT NOT NULL
  )`,
  `CREATE INDEX campaigns_company ON campaigns (companyId, id)`,
  `CREATE INDEX campaigns_status ON campaigns (status, scheduledAt)`,
  `CREATE TABLE campaign_shipping (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    companyId INTEGER NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    campaignId INTEGER NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,
    contactListItemId INTEGER,
    number TEXT NOT NULL,
    name TEXT NOT NULL DEFAULT '',
    message TEXT NOT NULL DEFAULT '',
    confirmationMessage TEXT,
    status TEXT NOT NULL DEFAULT 'pending',
    outboxId INTEGER,
    confirmationOutboxId INTEGER,
    confirmationRequestedAt TEXT,
    confirmation INTEGER NOT NULL DEFAULT 0,
    confirmedAt TEXT,
    deliveredAt TEXT,
    createdAt TEXT NOT NULL,
    updatedAt TEXT NOT NULL
  )`,
  `CREATE UNIQUE INDEX campaign_shipping_number ON campaign_shipping (campaignId, number)`,
  `CREATE INDEX campaign_shipping_status ON campaign_shipping (campaignId, status, id)`,
  `CREATE TABLE campaign_pacing (
    whatsappId INTEGER PRIMARY KEY REFERENCES whatsapps(id) ON DELETE CASCADE,
    companyId INTEGER NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    nextSendAt TEXT NOT NULL,
    sentSinceLong INTEGER NOT NULL DEFAULT 0
  )`,
  `CREATE TABLE campaign_opt_outs (
    companyId INTEGER NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    number TEXT NOT NULL,
    word TEXT NOT NULL,
    messageId INTEGER,
    createdAt TEXT NOT NULL,
    PRIMARY KEY (companyId, number)
  )`,
  // Job cursors (the last inbound message read for answers and opt-outs), by name.
  `CREATE TABLE campaign_job_state (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
  )`,
];

// deno-lint-ignore no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
