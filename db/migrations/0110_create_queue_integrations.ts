import { type Kysely, sql } from "kysely";

/**
 * Queue integrations and AI prompts (issue 15, seeds/002 section 3 'Queue integration' and
 * 'Prompt').
 *
 * - `queue_integrations`: one outside bot (webhook, n8n, typebot, dialogflow) per row. `secret` is
 *   the HMAC key of the webhook signature; `jsonContent` (a dialogflow service account holds a
 *   private key) is sealed at rest (server/crypto/sealed.ts).
 * - `prompts`: one AI assistant per row, bound to a queue; `apiKey` and `voiceKey` sealed.
 * - `whatsapps.integrationId`: a connection may hand every new ticket to an integration.
 * - `tickets.botSession` / `botSessionAt`: the outside bot's conversation (the typebot sessionId)
 *   and its last activity, written by the pipeline in the same transaction as the message, so a
 *   restart continues the same conversation and an expired one is noticed (typebotExpires).
 */
const statements = [
  `CREATE TABLE queue_integrations (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    companyId INTEGER NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    type TEXT NOT NULL,
    name TEXT NOT NULL,
    projectName TEXT NOT NULL DEFAULT '',
    jsonContent TEXT NOT NULL DEFAULT '',
    language TEXT NOT NULL DEFAULT 'pt-BR',
    urlN8N TEXT NOT NULL DEFAULT '',
    secret TEXT NOT NULL,
    typebotSlug TEXT NOT NULL DEFAULT '',
    typebotExpires INTEGER NOT NULL DEFAULT 1,
    typebotDelayMessage INTEGER NOT NULL DEFAULT 1000,
    typebotKeywordFinish TEXT NOT NULL DEFAULT '',
    typebotKeywordRestart TEXT NOT NULL DEFAULT '',
    typebotRestartMessage TEXT NOT NULL DEFAULT '',
    typebotUnknownMessage TEXT NOT NULL DEFAULT '',
    createdAt TEXT NOT NULL,
    updatedAt TEXT NOT NULL
  )`,
  `CREATE INDEX queue_integrations_company_name ON queue_integrations (companyId, name)`,
  `CREATE TABLE prompts (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    companyId INTEGER NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    apiKey TEXT NOT NULL DEFAULT '',
    prompt TEXT NOT NULL DEFAULT '',
    voice TEXT NOT NULL DEFAULT 'texto',
    voiceKey TEXT NOT NULL DEFAULT '',
    voiceRegion TEXT NOT NULL DEFAULT '',
    temperature REAL NOT NULL DEFAULT 1,
    maxTokens INTEGER NOT NULL DEFAULT 100,
    maxMessages INTEGER NOT NULL DEFAULT 10,
    queueId INTEGER NOT NULL REFERENCES queues(id) ON DELETE CASCADE,
    createdAt TEXT NOT NULL,
    updatedAt TEXT NOT NULL
  )`,
  `CREATE INDEX prompts_company_name ON prompts (companyId, name)`,
  `ALTER TABLE whatsapps ADD COLUMN integrationId INTEGER`,
  `ALTER TABLE tickets ADD COLUMN botSession TEXT`,
  `ALTER TABLE tickets ADD COLUMN botSessionAt TEXT`,
];

// deno-lint-ignore no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
