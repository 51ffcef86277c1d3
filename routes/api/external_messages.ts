import { type Context, Hono } from "hono";
import { describeRoute, resolver } from "hono-openapi";
import { z } from "zod";
import type { AppDeps, AppEnv } from "../../server/context.ts";
import { AppError, badRequest } from "../../server/errors.ts";
import { connectionOfToken } from "../../server/external_api/auth.ts";
import { sendThroughApi } from "../../server/external_api/send.ts";
import { filesOf } from "./messages.ts";
import { templateField } from "../../server/http/fields.ts";

/** The JSON body of POST /api/messages/send; multipart sends the same fields plus `medias`. */
export const apiSendJson = z.object({
  number: z.string({ error: "Required" }).trim().min(1, "Required").max(50, "Too Long!"),
  body: z.string().max(65_536, "Too Long!").default(""),
  /** Issue 45: an approved template (a Cloud API connection; the only way past the window). */
  template: templateField.optional(),
});

/** The send route's entry in /api/openapi.json: its body is read by hand (JSON or multipart). */
const SEND_DOC = {
  summary: "Send a message with a connection's API token",
  security: [{ connectionToken: [] }],
  parameters: [{
    in: "header" as const,
    name: "Idempotency-Key",
    required: false,
    schema: { type: "string" as const, minLength: 1, maxLength: 255 },
  }],
  requestBody: {
    required: true,
    content: {
      "application/json": { schema: resolver(apiSendJson) },
      "multipart/form-data": {
        schema: {
          type: "object" as const,
          required: ["number"],
          properties: {
            number: { type: "string" as const },
            body: { type: "string" as const },
            medias: {
              type: "array" as const,
              items: { type: "string" as const, contentMediaType: "application/octet-stream" },
            },
          },
        },
      },
    },
  },
  responses: { 201: { description: "Queued: {messageId, messageIds, ticketId, contactId}" } },
};

/** An Idempotency-Key: printable ASCII, as the IETF draft and the payment APIs use it. */
export const idempotencyKey = z.string().regex(
  /^[\x21-\x7e]{1,255}$/,
  "1 to 255 printable characters",
);

/**
 * POST /api/messages/send (issue 16): the external API, authorised by a connection's token
 * (`Authorization: Bearer <token>`), not by a user's session. One fixed window of
 * EXTERNAL_API_RATE_LIMIT messages per minute per connection (a request with ten files is ten;
 * 429 ERR_RATE_LIMITED with Retry-After, and a request that does not fit whole sends nothing),
 * counted after the token is verified so that wrong tokens cannot use up a connection's
 * allowance. Answers 201 ApiSendAnswer; a replayed Idempotency-Key answer also
 * carries `Idempotent-Replayed: true`.
 */
export function externalMessageRoutes(deps: AppDeps) {
  const app = new Hono<AppEnv>();
  // Per deployment with REDIS_URL (deps.counters), per process without.
  const limiter = deps.counters("external", deps.config.externalApiRateLimit, 60_000);

  /** Counts `messages` sends of the connection; over the limit, 429 and nothing counted. */
  const limit = async (c: Context<AppEnv>, whatsappId: number, messages: number) => {
    const key = `whatsapp:${whatsappId}`;
    const wait = await limiter.hit(key, deps.clock.now().getTime(), messages);
    if (wait <= 0) return;
    await limiter.refund(key, messages);
    c.header("retry-after", String(wait));
    throw new AppError(
      429,
      "ERR_RATE_LIMITED",
      `Limite de ${deps.config.externalApiRateLimit} envios por minuto atingido`,
    );
  };

  app.post("/send", describeRoute(SEND_DOC), async (c) => {
    const whatsapp = await connectionOfToken(deps, c.req.header("authorization"));
    // A connection already at its limit is refused before its body is read.
    await limit(c, whatsapp.id, 0);
    const keyHeader = c.req.header("idempotency-key");
    const key = keyHeader === undefined ? undefined : idempotencyKey.safeParse(keyHeader);
    if (key && !key.success) {
      throw badRequest("ERR_VALIDATION", "Idempotency-Key inválida", {
        "Idempotency-Key": ["1 to 255 printable characters"],
      });
    }
    const type = c.req.header("content-type") ?? "";
    let input;
    if (type.startsWith("multipart/form-data")) {
      const form = await c.req.parseBody({ all: true });
      const fields = apiSendJson.parse({
        number: typeof form.number === "string" ? form.number : undefined,
        body: typeof form.body === "string" ? form.body : "",
      });
      input = { ...fields, files: filesOf(form.medias) };
    } else if (type.startsWith("application/json")) {
      const json = await c.req.json().catch(() => {
        throw badRequest("ERR_VALIDATION", "Invalid JSON body");
      });
      input = { ...apiSendJson.parse(json), files: [] };
    } else {
      throw new AppError(
        415,
        "ERR_VALIDATION",
        "Envie application/json {number, body} ou multipart/form-data {number, body?, medias}",
      );
    }
    // Each file is a message of its own (the text goes with the first), a text alone is one.
    await limit(c, whatsapp.id, Math.max(1, input.files.length));
    const { answer, replayed } = await sendThroughApi(deps, whatsapp, input, key?.data);
    // A replay answers as the first request did (201), marked so that a client can tell.
    return c.json(answer, 201, replayed ? { "idempotent-replayed": "true" } : {});
  });

  return app;
}
