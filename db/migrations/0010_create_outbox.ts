import { type Kysely, sql } from "kysely";

/**
 * The WhatsApp pipeline's own tables (DESIGN 'WhatsApp'):
 * - messages gain the media's MIME type (served with the right content-type) and the outbox's
 *   final error for a message that could not be sent (ERR_SENDING_WAPP_MSG shown on it);
 * - outbox: one row per outgoing send, written in the same transaction as the fromMe message, so
 *   a restart neither loses nor doubles a message. `wid` is the WhatsApp id chosen before the
 *   first attempt: every retry sends under that same id, which makes a resend after a crash a
 *   no-op at the provider (the simulator by its unique key; WhatsApp by message id);
 * - simulator_sessions / simulator_sent: the built-in phone network's linked devices and what
 *   each connection sent, kept so that they survive a restart.
 */
const statements = [
  `ALTER TABLE messages ADD COLUMN mediaMimetype TEXT`,
  `ALTER TABLE messages ADD COLUMN sendError TEXT`,
  `CREATE TABLE outbox (
    id INTEGER PRIMARY KEY,
    companyId INTEGER NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    whatsappId INTEGER NOT NULL REFERENCES whatsapps(id) ON DELETE CASCADE,
    ticketId INTEGER REFERENCES tickets(id) ON DELETE CASCADE,
    messageId INTEGER REFERENCES messages(id) ON DELETE CASCADE,
    wid TEXT NOT NULL,
    toJid TEXT NOT NULL,
    body TEXT NOT NULL DEFAULT '',
    mediaPath TEXT,
    mediaMimetype TEXT,
    mediaName TEXT,
    ptt INTEGER NOT NULL DEFAULT 0,
    quotedWid TEXT,
    status TEXT NOT NULL DEFAULT 'pending',
    attempts INTEGER NOT NULL DEFAULT 0,
    claimId TEXT,
    nextAttemptAt TEXT NOT NULL,
    lastError TEXT,
    sentAt TEXT,
    createdAt TEXT NOT NULL,
    updatedAt TEXT NOT NULL
  )`,
  // One outbox row per WhatsApp id on a connection: the same send can never be queued twice.
  `CREATE UNIQUE INDEX outbox_wid ON outbox (whatsappId, wid)`,
  `CREATE INDEX outbox_due ON outbox (whatsappId, status, id)`,
  `CREATE TABLE simulator_sessions (
    whatsappId INTEGER PRIMARY KEY REFERENCES whatsapps(id) ON DELETE CASCADE,
    companyId INTEGER NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    number TEXT NOT NULL,
    linkedAt TEXT NOT NULL
  )`,
  `CREATE TABLE simulator_sent (
    id INTEGER PRIMARY KEY,
    companyId INTEGER NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    whatsappId INTEGER NOT NULL REFERENCES whatsapps(id) ON DELETE CASCADE,
    wid TEXT NOT NULL,
    toJid TEXT NOT NULL,
    body TEXT NOT NULL DEFAULT '',
    mediaMimetype TEXT,
    mediaName TEXT,
    mediaSize INTEGER,
    ptt INTEGER NOT NULL DEFAULT 0,
    quotedId TEXT,
    ack INTEGER NOT NULL DEFAULT 1,
    deleted INTEGER NOT NULL DEFAULT 0,
    createdAt TEXT NOT NULL,
    updatedAt TEXT NOT NULL
  )`,
  // Idempotent sends: a second send under the same WhatsApp id is recognised, not delivered twice.
  `CREATE UNIQUE INDEX simulator_sent_wid ON simulator_sent (whatsappId, wid)`,
];

// deno-lint-ignore no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
