import { Hono } from "hono";
import type { AppDeps, AppEnv } from "../../server/context.ts";
import {
  acceptWebhook,
  processWebhooks,
  webhookHandshake,
} from "../../server/whatsapp/providers/cloud_api/service.ts";

/**
 * /api/whatsapp-cloud/:key: where Meta calls a Cloud API connection (its webhookUrl). Public: the
 * GET handshake is checked by the verify token, every POST by its X-Hub-Signature-256 over the
 * raw bytes (401 before anything is read or stored). A verified post is stored, answered 200 at
 * once, and processed after (issue 45 item 3).
 */
export function whatsappCloudRoutes(deps: AppDeps) {
  const app = new Hono<AppEnv>();

  app.get("/:key", async (c) => {
    const challenge = await webhookHandshake(deps, c.req.param("key"), {
      mode: c.req.query("hub.mode"),
      token: c.req.query("hub.verify_token"),
      challenge: c.req.query("hub.challenge"),
    });
    return c.text(challenge, 200);
  });

  app.post("/:key", async (c) => {
    const raw = new Uint8Array(await c.req.arrayBuffer());
    const accepted = await acceptWebhook(
      deps,
      c.req.param("key"),
      raw,
      c.req.header("x-hub-signature-256"),
    );
    // After the commit above, not awaited: Meta wants its 200 fast.
    processWebhooks(deps, accepted.companyId, accepted.whatsappId);
    return c.json({ received: true });
  });

  return app;
}
