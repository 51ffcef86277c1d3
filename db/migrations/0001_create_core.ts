import { type Kysely, sql } from "kysely";

/**
 * The core schema (seeds/000 section 3). Conventions:
 * - camelCase column names, as the API answers them, so rows need no renaming;
 * - timestamps are ISO-8601 UTC text (sortable, answered as is); dates are YYYY-MM-DD;
 * - booleans are 0/1 integers;
 * - companyId on every tenant table, first in every list index (DESIGN: tenancy).
 */
const statements = [
  `CREATE TABLE plans (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    users INTEGER NOT NULL DEFAULT 0,
    connections INTEGER NOT NULL DEFAULT 0,
    queues INTEGER NOT NULL DEFAULT 0,
    campaigns INTEGER NOT NULL DEFAULT 0,
    schedules INTEGER NOT NULL DEFAULT 0,
    value REAL NOT NULL DEFAULT 0,
    useCampaigns INTEGER NOT NULL DEFAULT 1,
    useKanban INTEGER NOT NULL DEFAULT 1,
    useOpenAi INTEGER NOT NULL DEFAULT 1,
    useIntegrations INTEGER NOT NULL DEFAULT 1,
    useSchedules INTEGER NOT NULL DEFAULT 1,
    useInternalChat INTEGER NOT NULL DEFAULT 1,
    useExternalApi INTEGER NOT NULL DEFAULT 1,
    createdAt TEXT NOT NULL,
    updatedAt TEXT NOT NULL
  )`,
  `CREATE TABLE companies (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    email TEXT,
    phone TEXT,
    planId INTEGER REFERENCES plans(id) ON DELETE RESTRICT,
    status INTEGER NOT NULL DEFAULT 1,
    dueDate TEXT,
    recurrence TEXT,
    schedules TEXT NOT NULL DEFAULT '[]',
    billingName TEXT,
    addressZipCode TEXT,
    addressStreet TEXT,
    addressState TEXT,
    addressCity TEXT,
    addressDistrict TEXT,
    createdAt TEXT NOT NULL,
    updatedAt TEXT NOT NULL
  )`,
  `CREATE TABLE settings (
    id INTEGER PRIMARY KEY,
    companyId INTEGER NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    key TEXT NOT NULL,
    value TEXT NOT NULL,
    createdAt TEXT NOT NULL,
    updatedAt TEXT NOT NULL,
    UNIQUE (companyId, key)
  )`,
  `CREATE TABLE queues (
    id INTEGER PRIMARY KEY,
    companyId INTEGER NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    color TEXT NOT NULL,
    greetingMessage TEXT NOT NULL DEFAULT '',
    outOfHoursMessage TEXT NOT NULL DEFAULT '',
    orderQueue INTEGER,
    integrationId INTEGER,
    promptId INTEGER,
    schedules TEXT NOT NULL DEFAULT '[]',
    mediaPath TEXT,
    mediaName TEXT,
    createdAt TEXT NOT NULL,
    updatedAt TEXT NOT NULL,
    UNIQUE (companyId, name),
    UNIQUE (companyId, color)
  )`,
  `CREATE TABLE queue_options (
    id INTEGER PRIMARY KEY,
    companyId INTEGER NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    queueId INTEGER NOT NULL REFERENCES queues(id) ON DELETE CASCADE,
    parentId INTEGER REFERENCES queue_options(id) ON DELETE CASCADE,
    title TEXT NOT NULL,
    message TEXT NOT NULL DEFAULT '',
    option TEXT NOT NULL,
    mediaPath TEXT,
    mediaName TEXT,
    createdAt TEXT NOT NULL,
    updatedAt TEXT NOT NULL
  )`,
  `CREATE INDEX queue_options_tree ON queue_options (companyId, queueId, parentId)`,
  `CREATE TABLE whatsapps (
    id INTEGER PRIMARY KEY,
    companyId INTEGER NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'DISCONNECTED',
    qrcode TEXT NOT NULL DEFAULT '',
    retries INTEGER NOT NULL DEFAULT 0,
    number TEXT,
    isDefault INTEGER NOT NULL DEFAULT 0,
    greetingMessage TEXT NOT NULL DEFAULT '',
    complationMessage TEXT NOT NULL DEFAULT '',
    outOfHoursMessage TEXT NOT NULL DEFAULT '',
    ratingMessage TEXT NOT NULL DEFAULT '',
    token TEXT NOT NULL DEFAULT '',
    provider TEXT NOT NULL DEFAULT 'beta',
    timeSendQueue INTEGER NOT NULL DEFAULT 0,
    sendIdQueue INTEGER NOT NULL DEFAULT 0,
    expiresInactiveMessage TEXT NOT NULL DEFAULT '',
    expiresTicket INTEGER NOT NULL DEFAULT 0,
    timeUseBotQueues INTEGER NOT NULL DEFAULT 0,
    maxUseBotQueues INTEGER NOT NULL DEFAULT 3,
    promptId INTEGER,
    createdAt TEXT NOT NULL,
    updatedAt TEXT NOT NULL,
    UNIQUE (companyId, name)
  )`,
  `CREATE TABLE whatsapp_queues (
    companyId INTEGER NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    whatsappId INTEGER NOT NULL REFERENCES whatsapps(id) ON DELETE CASCADE,
    queueId INTEGER NOT NULL REFERENCES queues(id) ON DELETE CASCADE,
    PRIMARY KEY (whatsappId, queueId)
  )`,
  `CREATE TABLE users (
    id INTEGER PRIMARY KEY,
    companyId INTEGER NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    email TEXT NOT NULL UNIQUE COLLATE NOCASE,
    passwordHash TEXT NOT NULL,
    profile TEXT NOT NULL DEFAULT 'user',
    super INTEGER NOT NULL DEFAULT 0,
    whatsappId INTEGER REFERENCES whatsapps(id) ON DELETE SET NULL,
    allTicket TEXT NOT NULL DEFAULT 'disable',
    online INTEGER NOT NULL DEFAULT 0,
    lastSeenAt TEXT,
    tokenVersion INTEGER NOT NULL DEFAULT 0,
    createdAt TEXT NOT NULL,
    updatedAt TEXT NOT NULL
  )`,
  `CREATE INDEX users_company ON users (companyId, name)`,
  `CREATE TABLE user_queues (
    companyId INTEGER NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    userId INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    queueId INTEGER NOT NULL REFERENCES queues(id) ON DELETE CASCADE,
    PRIMARY KEY (userId, queueId)
  )`,
  `CREATE INDEX user_queues_queue ON user_queues (queueId)`,
  `CREATE TABLE refresh_tokens (
    id TEXT PRIMARY KEY,
    userId INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    companyId INTEGER NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    expiresAt TEXT NOT NULL,
    revokedAt TEXT,
    createdAt TEXT NOT NULL
  )`,
  `CREATE INDEX refresh_tokens_user ON refresh_tokens (userId)`,
  `CREATE TABLE app_secrets (
    name TEXT PRIMARY KEY,
    value TEXT NOT NULL,
    createdAt TEXT NOT NULL
  )`,
  `CREATE TABLE contacts (
    id INTEGER PRIMARY KEY,
    uuid TEXT NOT NULL UNIQUE,
    companyId INTEGER NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    number TEXT NOT NULL,
    lid TEXT,
    email TEXT NOT NULL DEFAULT '',
    profilePicUrl TEXT NOT NULL DEFAULT '',
    isGroup INTEGER NOT NULL DEFAULT 0,
    whatsappId INTEGER REFERENCES whatsapps(id) ON DELETE SET NULL,
    createdAt TEXT NOT NULL,
    updatedAt TEXT NOT NULL,
    UNIQUE (companyId, number)
  )`,
  `CREATE INDEX contacts_name ON contacts (companyId, name)`,
  `CREATE UNIQUE INDEX contacts_lid ON contacts (companyId, lid) WHERE lid IS NOT NULL`,
  `CREATE TABLE contact_custom_fields (
    id INTEGER PRIMARY KEY,
    companyId INTEGER NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    contactId INTEGER NOT NULL REFERENCES contacts(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    value TEXT NOT NULL DEFAULT '',
    createdAt TEXT NOT NULL,
    updatedAt TEXT NOT NULL
  )`,
  `CREATE INDEX contact_custom_fields_contact ON contact_custom_fields (contactId)`,
  `CREATE TABLE tickets (
    id INTEGER PRIMARY KEY,
    uuid TEXT NOT NULL UNIQUE,
    companyId INTEGER NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    contactId INTEGER NOT NULL REFERENCES contacts(id) ON DELETE CASCADE,
    whatsappId INTEGER REFERENCES whatsapps(id) ON DELETE SET NULL,
    userId INTEGER REFERENCES users(id) ON DELETE SET NULL,
    queueId INTEGER REFERENCES queues(id) ON DELETE SET NULL,
    queueOptionId INTEGER REFERENCES queue_options(id) ON DELETE SET NULL,
    status TEXT NOT NULL DEFAULT 'pending',
    isGroup INTEGER NOT NULL DEFAULT 0,
    chatbot INTEGER NOT NULL DEFAULT 0,
    amountUsedBotQueues INTEGER NOT NULL DEFAULT 0,
    useIntegration INTEGER NOT NULL DEFAULT 0,
    integrationId INTEGER,
    promptId INTEGER,
    lastMessage TEXT NOT NULL DEFAULT '',
    unreadMessages INTEGER NOT NULL DEFAULT 0,
    acceptedAt TEXT,
    closedAt TEXT,
    createdAt TEXT NOT NULL,
    updatedAt TEXT NOT NULL
  )`,
  // The one-open-ticket rule as a constraint: a contact has at most one pending/open ticket per
  // connection, so two racing inbound messages cannot open two tickets.
  `CREATE UNIQUE INDEX tickets_one_open ON tickets (contactId, whatsappId) WHERE status <> 'closed'`,
  `CREATE INDEX tickets_status ON tickets (companyId, status, updatedAt)`,
  `CREATE INDEX tickets_queue ON tickets (companyId, queueId, status, updatedAt)`,
  `CREATE INDEX tickets_user ON tickets (companyId, userId, status, updatedAt)`,
  `CREATE INDEX tickets_contact ON tickets (contactId, createdAt)`,
  `CREATE TABLE messages (
    id INTEGER PRIMARY KEY,
    companyId INTEGER NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    ticketId INTEGER NOT NULL REFERENCES tickets(id) ON DELETE CASCADE,
    contactId INTEGER REFERENCES contacts(id) ON DELETE SET NULL,
    whatsappId INTEGER REFERENCES whatsapps(id) ON DELETE SET NULL,
    wid TEXT,
    remoteJid TEXT,
    participant TEXT,
    body TEXT NOT NULL DEFAULT '',
    fromMe INTEGER NOT NULL DEFAULT 0,
    mediaType TEXT,
    mediaUrl TEXT,
    mediaName TEXT,
    isDeleted INTEGER NOT NULL DEFAULT 0,
    isEdited INTEGER NOT NULL DEFAULT 0,
    ack INTEGER NOT NULL DEFAULT 0,
    read INTEGER NOT NULL DEFAULT 0,
    quotedMsgId INTEGER REFERENCES messages(id) ON DELETE SET NULL,
    dataJson TEXT,
    createdAt TEXT NOT NULL,
    updatedAt TEXT NOT NULL
  )`,
  // Idempotency: one row per (connection, WhatsApp message id); a redelivered message is a no-op.
  `CREATE UNIQUE INDEX messages_wid ON messages (whatsappId, wid) WHERE wid IS NOT NULL`,
  `CREATE INDEX messages_ticket ON messages (ticketId, createdAt, id)`,
  `CREATE INDEX messages_company ON messages (companyId, createdAt)`,
  `CREATE VIRTUAL TABLE messages_fts USING fts5(body, content='messages', content_rowid='id', tokenize='unicode61 remove_diacritics 2')`,
  `CREATE TRIGGER messages_fts_insert AFTER INSERT ON messages BEGIN
     INSERT INTO messages_fts(rowid, body) VALUES (new.id, new.body);
   END`,
  `CREATE TRIGGER messages_fts_delete AFTER DELETE ON messages BEGIN
     INSERT INTO messages_fts(messages_fts, rowid, body) VALUES ('delete', old.id, old.body);
   END`,
  `CREATE TRIGGER messages_fts_update AFTER UPDATE OF body ON messages BEGIN
     INSERT INTO messages_fts(messages_fts, rowid, body) VALUES ('delete', old.id, old.body);
     INSERT INTO messages_fts(rowid, body) VALUES (new.id, new.body);
   END`,
  `CREATE TABLE ticket_notes (
    id INTEGER PRIMARY KEY,
    companyId INTEGER NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    ticketId INTEGER NOT NULL REFERENCES tickets(id) ON DELETE CASCADE,
    contactId INTEGER NOT NULL REFERENCES contacts(id) ON DELETE CASCADE,
    userId INTEGER REFERENCES users(id) ON DELETE SET NULL,
    note TEXT NOT NULL,
    createdAt TEXT NOT NULL,
    updatedAt TEXT NOT NULL
  )`,
  `CREATE INDEX ticket_notes_ticket ON ticket_notes (companyId, ticketId, contactId)`,
  `CREATE TABLE tags (
    id INTEGER PRIMARY KEY,
    companyId INTEGER NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    color TEXT NOT NULL DEFAULT '#A4CCCC',
    kanban INTEGER NOT NULL DEFAULT 0,
    createdAt TEXT NOT NULL,
    updatedAt TEXT NOT NULL,
    UNIQUE (companyId, name)
  )`,
  `CREATE TABLE ticket_tags (
    companyId INTEGER NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    ticketId INTEGER NOT NULL REFERENCES tickets(id) ON DELETE CASCADE,
    tagId INTEGER NOT NULL REFERENCES tags(id) ON DELETE CASCADE,
    PRIMARY KEY (ticketId, tagId)
  )`,
  `CREATE INDEX ticket_tags_tag ON ticket_tags (tagId, ticketId)`,
  `CREATE TABLE quick_messages (
    id INTEGER PRIMARY KEY,
    companyId INTEGER NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    userId INTEGER REFERENCES users(id) ON DELETE SET NULL,
    shortcode TEXT NOT NULL,
    message TEXT NOT NULL DEFAULT '',
    geral INTEGER NOT NULL DEFAULT 0,
    mediaPath TEXT,
    mediaName TEXT,
    createdAt TEXT NOT NULL,
    updatedAt TEXT NOT NULL
  )`,
  `CREATE INDEX quick_messages_company ON quick_messages (companyId, shortcode)`,
  `CREATE TABLE schedules (
    id INTEGER PRIMARY KEY,
    companyId INTEGER NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    contactId INTEGER NOT NULL REFERENCES contacts(id) ON DELETE CASCADE,
    ticketId INTEGER REFERENCES tickets(id) ON DELETE SET NULL,
    userId INTEGER REFERENCES users(id) ON DELETE SET NULL,
    body TEXT NOT NULL,
    sendAt TEXT NOT NULL,
    sentAt TEXT,
    status TEXT NOT NULL DEFAULT 'PENDENTE',
    mediaPath TEXT,
    mediaName TEXT,
    createdAt TEXT NOT NULL,
    updatedAt TEXT NOT NULL
  )`,
  `CREATE INDEX schedules_due ON schedules (status, sendAt)`,
  `CREATE INDEX schedules_company ON schedules (companyId, sendAt)`,
  `CREATE TABLE user_ratings (
    id INTEGER PRIMARY KEY,
    companyId INTEGER NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    ticketId INTEGER NOT NULL REFERENCES tickets(id) ON DELETE CASCADE,
    userId INTEGER REFERENCES users(id) ON DELETE SET NULL,
    rate INTEGER NOT NULL,
    createdAt TEXT NOT NULL
  )`,
  `CREATE INDEX user_ratings_company ON user_ratings (companyId, createdAt)`,
];

// deno-lint-ignore no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
