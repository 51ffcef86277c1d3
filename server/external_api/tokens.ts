import { timingSafeEqual } from "node:crypto";

/**
 * Connection API tokens (issue 16, seeds/000 section 3 'Connection.token'). A token is 32 bytes
 * from the CSPRNG, base64url, with a prefix that makes it recognisable in logs and secret
 * scanners. The connection keeps it in the clear (admins see it on /messages-api and in the
 * connection dialog, to copy it) and also its SHA-256, which is what a request is looked up by:
 * the lookup's timing depends on the hash, which a caller cannot steer, and the match is then
 * confirmed with a constant-time comparison.
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

/** Both columns a new or regenerated token writes. */
export async function tokenColumns(): Promise<{ token: string; tokenHash: string }> {
  const token = newConnectionToken();
  return { token, tokenHash: await tokenHash(token) };
}

export function sameToken(given: string, stored: string): boolean {
  const a = new TextEncoder().encode(given);
  const b = new TextEncoder().encode(stored);
  return a.length === b.length && timingSafeEqual(a, b);
}
