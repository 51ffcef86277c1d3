import { type Kysely, sql } from "kysely";

/**
 * Issue 45 item 6: campaigns and schedules on a connection with the 24-hour window (the Cloud
 * API) send an approved template, saved with them as JSON {name, language, parameters}; a
 * parameter may hold the campaign's or schedule's variables ({nome}, {{name}}), filled per
 * recipient. A campaign's shipping row keeps its recipient's filled template, written once at
 * start like its `message`, so a resumed dispatch sends exactly what was prepared.
 * Issue 45 item 5: a message keeps the contact's reaction and the attendant's (one each, as
 * WhatsApp shows them; a removed reaction is null again).
 */
const statements = [
  `ALTER TABLE campaigns ADD COLUMN template TEXT`,
  `ALTER TABLE campaign_shipping ADD COLUMN template TEXT`,
  `ALTER TABLE schedules ADD COLUMN template TEXT`,
  // Reactions (capability \`reactions\`): the contact's emoji on a message and ours; null: none.
  `ALTER TABLE messages ADD COLUMN reaction TEXT`,
  `ALTER TABLE messages ADD COLUMN ownReaction TEXT`,
  // A chatbot menu's choices (JSON [{id, title}]): sent as buttons or a list where the channel
  // has \`interactive\`, else the text (body) as ever.
  `ALTER TABLE outbox ADD COLUMN menu TEXT`,
];

// deno-lint-ignore no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
