import { Hono } from "hono";
import { hmacHex } from "./webhook.ts";

/**
 * A webhook receiver as a customer would write one (an in-process Hono app on port 0): it checks
 * X-Balcao-Signature = sha256=HMAC-SHA256(secret, "<X-Balcao-Timestamp>.<raw body>") with the
 * webhook's secret, records every request, and answers `failWith` (a status) while it is set,
 * so tests can make it fail and then recover. While `holding` is set, a request is recorded and
 * its answer waits for that promise (a receiver that is slow for as long as the test wants).
 */
export type Received = {
  event: string;
  eventId: string;
  delivery: string;
  signatureValid: boolean;
  body: { id: string; event: string; companyId: number; data: Record<string, unknown> };
  answered: number;
};

export class WebhookReceiver {
  readonly received: Received[] = [];
  secret = "";
  failWith: number | null = null;
  holding: Promise<void> | null = null;
  readonly #server: Deno.HttpServer<Deno.NetAddr>;

  constructor() {
    const app = new Hono();
    app.post("/hook", async (c) => {
      const raw = await c.req.text();
      const timestamp = c.req.header("x-balcao-timestamp") ?? "";
      const expected = `sha256=${await hmacHex(this.secret, `${timestamp}.${raw}`)}`;
      const answered = this.failWith ?? 200;
      this.received.push({
        event: c.req.header("x-balcao-event") ?? "",
        eventId: c.req.header("x-balcao-event-id") ?? "",
        delivery: c.req.header("x-balcao-delivery") ?? "",
        signatureValid: c.req.header("x-balcao-signature") === expected,
        body: JSON.parse(raw),
        answered,
      });
      if (this.holding) await this.holding;
      return c.text(answered < 300 ? "ok" : "down", answered as 200);
    });
    this.#server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen: () => {} }, app.fetch);
  }

  get url(): string {
    return `http://127.0.0.1:${this.#server.addr.port}/hook`;
  }

  /** What the receiver accepted (2xx), in order. */
  accepted(): Received[] {
    return this.received.filter((r) => r.answered < 300);
  }

  async close() {
    await this.#server.shutdown();
  }
}
