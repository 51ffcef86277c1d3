import { type Kysely, sql } from "kysely";

/**
 * Internal chat (seeds/002 sections 2.7, 3 'Chat', 'Chat message', 4 'Chat unread counter'):
 * conversations between users of one company. `chat_users` holds who takes part and each one's
 * unread counter (reset by the read call); its primary key keeps a user in a chat once.
 */
const statements = [
  `CREATE TABLE chats (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    uuid TEXT NOT NULL UNIQUE,
    companyId INTEGER NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    ownerId INTEGER REFERENCES users(id) ON DELETE SET NULL,
    title TEXT NOT NULL,
    lastMessage TEXT NOT NULL DEFAULT '',
    createdAt TEXT NOT NULL,
    updatedAt TEXT NOT NULL
  )`,
  `CREATE INDEX chats_company ON chats (companyId, updatedAt, id)`,
  `CREATE TABLE chat_users (
    companyId INTEGER NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    chatId INTEGER NOT NULL REFERENCES chats(id) ON DELETE CASCADE,
    userId INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    unreads INTEGER NOT NULL DEFAULT 0,
    createdAt TEXT NOT NULL,
    updatedAt TEXT NOT NULL,
    PRIMARY KEY (chatId, userId)
  )`,
  `CREATE INDEX chat_users_user ON chat_users (companyId, userId, chatId)`,
  `CREATE TABLE chat_messages (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    companyId INTEGER NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    chatId INTEGER NOT NULL REFERENCES chats(id) ON DELETE CASCADE,
    senderId INTEGER REFERENCES users(id) ON DELETE SET NULL,
    message TEXT NOT NULL,
    createdAt TEXT NOT NULL,
    updatedAt TEXT NOT NULL
  )`,
  `CREATE INDEX chat_messages_chat ON chat_messages (companyId, chatId, id)`,
];

// deno-lint-ignore no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
