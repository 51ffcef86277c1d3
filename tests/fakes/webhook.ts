import { Hono } from "hono";
import { serveFake } from "./serve.ts";

/**
 * A webhook/n8n receiver as the README documents it: checks X-Balcao-Signature (HMAC-SHA256 of
 * "<X-Balcao-Timestamp>.<raw body>" with the integration's secret) and answers what `reply`
 * decides. A bad signature answers 401 (the bot then hands over). It keeps what it got, so a test
 * can check the timestamp and replay a request.
 */
export type Received = {
  body: Record<string, unknown>;
  raw: string;
  timestamp: string;
  signature: string;
  signatureOk: boolean;
};

export async function hmacHex(secret: string, body: string): Promise<string> {
  const key = await crypto.subtle.importKey(
    "raw",
    new TextEncoder().encode(secret),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const mac = new Uint8Array(
    await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(body)),
  );
  return [...mac].map((b) => b.toString(16).padStart(2, "0")).join("");
}

export function fakeWebhook(options: {
  secret: () => string;
  reply: (body: Record<string, unknown>) => unknown | Promise<unknown>;
  /** Milliseconds to wait before answering (a slow service). */
  delayMs?: number;
  /** When it answers something else than 200 (a service that is down: 503). */
  status?: () => number;
}) {
  const received: Received[] = [];
  const app = new Hono();
  app.post("/hook", async (c) => {
    const raw = await c.req.text();
    const timestamp = c.req.header("x-balcao-timestamp") ?? "";
    const signature = c.req.header("x-balcao-signature") ?? "";
    const signatureOk =
      signature === `sha256=${await hmacHex(options.secret(), `${timestamp}.${raw}`)}`;
    const body = JSON.parse(raw);
    received.push({ body, raw, timestamp, signature, signatureOk });
    if (options.delayMs) await new Promise((r) => setTimeout(r, options.delayMs));
    if (!signatureOk) return c.json({ error: "bad signature" }, 401);
    const status = options.status?.() ?? 200;
    if (status !== 200) return c.json({ error: "unavailable" }, status as 503);
    const answer = await options.reply(body);
    return typeof answer === "string" ? c.text(answer) : c.json(answer);
  });
  const server = serveFake(app);
  return { ...server, hookUrl: `${server.url}/hook`, received };
}
