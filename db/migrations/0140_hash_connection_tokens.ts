import { type Kysely, sql } from "kysely";

/**
 * Connection API tokens at rest (issue 35): only their SHA-256 (`tokenHash`, 0120) stays, by which
 * POST /api/messages/send finds the connection, and `tokenHint`, what an admin sees of the token
 * (its prefix and last four characters). The token itself is shown once, when it is made; a copy
 * of the database or a backup no longer sends messages as the company. The hash of a row without
 * one is computed here (0120 gave every row one; this keeps the migration whole on its own). The
 * format is server/external_api/tokens.ts's, written out because db/ imports nothing of ours.
 */
async function sha256(text: string): Promise<string> {
  const digest = new Uint8Array(
    await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)),
  );
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}

function tokenHintOf(token: string): string {
  return token.length > 12 ? `${token.slice(0, 4)}…${token.slice(-4)}` : "";
}

// deno-lint-ignore no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE whatsapps ADD COLUMN tokenHint TEXT NOT NULL DEFAULT ''`.execute(db);
  const rows = await sql<{ id: number; token: string; tokenHash: string | null }>`
    SELECT id, token, tokenHash FROM whatsapps WHERE token <> ''`.execute(db);
  for (const row of rows.rows) {
    const hash = row.tokenHash ?? await sha256(row.token);
    await sql`UPDATE whatsapps SET token = '', tokenHint = ${tokenHintOf(row.token)},
      tokenHash = ${hash} WHERE id = ${row.id}`.execute(db);
  }
}
