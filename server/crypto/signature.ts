/**
 * How we sign what we POST to a customer's URL (outgoing webhooks, webhook/n8n integrations):
 *
 *   X-Balcao-Timestamp: <unix seconds of this request>
 *   X-Balcao-Signature: sha256=<hex HMAC-SHA256(secret, "<timestamp>.<raw body>")>
 *
 * The timestamp is inside the signed material: a receiver that checks the signature and refuses
 * a timestamp more than a few minutes old refuses a captured request sent again (README
 * 'Automation', 'Outgoing webhooks').
 */
export async function signature(secret: string, timestamp: number, body: string): Promise<string> {
  const key = await crypto.subtle.importKey(
    "raw",
    new TextEncoder().encode(secret),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const mac = await crypto.subtle.sign(
    "HMAC",
    key,
    new TextEncoder().encode(`${timestamp}.${body}`),
  );
  return `sha256=${
    Array.from(new Uint8Array(mac), (b) => b.toString(16).padStart(2, "0")).join("")
  }`;
}

/** The two headers above for a request sent at `now`. */
export async function signatureHeaders(
  secret: string,
  now: Date,
  body: string,
): Promise<{ "x-balcao-timestamp": string; "x-balcao-signature": string }> {
  const timestamp = Math.floor(now.getTime() / 1000);
  return {
    "x-balcao-timestamp": String(timestamp),
    "x-balcao-signature": await signature(secret, timestamp, body),
  };
}
