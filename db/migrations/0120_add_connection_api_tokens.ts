import { type Kysely, sql } from "kysely";

/**
 * Connection API tokens (issue 16): every connection gets a token from the CSPRNG and its
 * SHA-256 (`tokenHash`), by which POST /api/messages/send finds the connection. Tokens typed by
 * hand before (any text, often short or empty) are replaced: they may be guessable. The hash
 * index is global on purpose, not led by companyId: the token is what names the company.
 * The format is server/external_api/tokens.ts's, written out here because db/ imports nothing of
 * ours and a migration must keep doing what it did when it landed.
 */
async function newToken(): Promise<{ token: string; hash: string }> {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  const token = "blc_" +
    btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  const digest = new Uint8Array(
    await crypto.subtle.digest("SHA-256", new TextEncoder().encode(token)),
  );
  return { token, hash: Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("") };
}

// deno-lint-ignore no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE whatsapps ADD COLUMN tokenHash TEXT`.execute(db);
  const rows = await sql<{ id: number }>`SELECT id FROM whatsapps`.execute(db);
  for (const { id } of rows.rows) {
    const { token, hash } = await newToken();
    await sql`UPDATE whatsapps SET token = ${token}, tokenHash = ${hash} WHERE id = ${id}`
      .execute(db);
  }
  await sql`CREATE UNIQUE INDEX whatsapps_token_hash ON whatsapps (tokenHash)`.execute(db);
}
