/**
 * Connection API tokens (issue 16, seeds/000 section 3 'Connection.token'). A token is 32 bytes
 * from the CSPRNG, base64url, with a prefix that makes it recognisable in logs and secret
 * scanners. It is shown once, in the answer that makes it (a new connection, a regenerated
 * token); the connection keeps only its SHA-256, by which a request is looked up, and a hint
 * (prefix and last four characters) for admins to tell tokens apart (issue 35: a copy of the
 * database does not send messages). The lookup's timing depends on the hash, which a caller
 * cannot steer.
 */
export const TOKEN_PREFIX = "blc_";

/** `prefix` + 32 CSPRNG bytes in base64url (connection tokens, webhook secrets). */
export function randomToken(prefix: string): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  const base64url = btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  return `${prefix}${base64url}`;
}

export function newConnectionToken(): string {
  return randomToken(TOKEN_PREFIX);
}

export async function tokenHash(token: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(token));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** What admins see of a token: `blc_…abcd`. */
export function tokenHint(token: string): string {
  return `${token.slice(0, TOKEN_PREFIX.length)}…${token.slice(-4)}`;
}

/**
 * A new token: `plain`, for the one answer that shows it, and the columns a connection stores
 * (the token column stays empty).
 */
export async function newTokenColumns(): Promise<{
  plain: string;
  columns: { token: string; tokenHash: string; tokenHint: string };
}> {
  const plain = newConnectionToken();
  return {
    plain,
    columns: { token: "", tokenHash: await tokenHash(plain), tokenHint: tokenHint(plain) },
  };
}
