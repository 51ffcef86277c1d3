/**
 * Secrets at rest (issue 15: prompt API keys, TTS keys, dialogflow service accounts): AES-GCM
 * with a key from DATA_ENCRYPTION_KEY, or one generated once and kept in app_secrets. A copy of
 * the database file alone no longer hands out a company's OpenAI key. Sealed text reads
 * `v1:<base64 of iv + ciphertext>`; the empty string stays empty (nothing to hide).
 */
const PREFIX = "v1:";

/** The AES-GCM key derived (SHA-256) from the configured or stored secret text. */
export async function dataKey(secret: string): Promise<CryptoKey> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(secret));
  return await crypto.subtle.importKey("raw", digest, "AES-GCM", false, ["encrypt", "decrypt"]);
}

function toBase64(bytes: Uint8Array): string {
  let text = "";
  for (let i = 0; i < bytes.length; i += 0x8000) {
    text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(text);
}

export async function seal(key: CryptoKey, plain: string): Promise<string> {
  if (plain === "") return "";
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const data = new Uint8Array(
    await crypto.subtle.encrypt({ name: "AES-GCM", iv }, key, new TextEncoder().encode(plain)),
  );
  const out = new Uint8Array(iv.length + data.length);
  out.set(iv);
  out.set(data, iv.length);
  return PREFIX + toBase64(out);
}

/** The plain text; throws when the text was sealed with another key or tampered with. */
export async function unseal(key: CryptoKey, sealed: string): Promise<string> {
  if (sealed === "") return "";
  if (!sealed.startsWith(PREFIX)) throw new Error("not a sealed value");
  const bytes = Uint8Array.from(atob(sealed.slice(PREFIX.length)), (c) => c.charCodeAt(0));
  const plain = await crypto.subtle.decrypt(
    { name: "AES-GCM", iv: bytes.subarray(0, 12) },
    key,
    bytes.subarray(12),
  );
  return new TextDecoder().decode(plain);
}

/** What an answer shows of a secret: its last 4 characters at most, never the whole. */
export function mask(plain: string): string {
  if (plain === "") return "";
  const tail = plain.length > 12 ? plain.slice(-4) : "";
  return `••••••••${tail}`;
}

/**
 * For views: the plain text, or "" when it cannot be opened (DATA_ENCRYPTION_KEY changed), so a
 * list still answers; the admin types the secret again.
 */
export async function unsealOrEmpty(key: CryptoKey, sealed: string): Promise<string> {
  try {
    return await unseal(key, sealed);
  } catch {
    return "";
  }
}
