import { Hono } from "hono";
import { z } from "zod";
import { allow, requireAuth } from "../../server/auth/middleware.ts";
import { type AppDeps, type AppEnv, authOf } from "../../server/context.ts";
import { validate } from "../../server/http/validate.ts";
import { sentByConnection } from "../../server/whatsapp/providers/simulator/service.ts";
import { atHolder } from "../../server/whatsapp/holder_calls.ts";

const idParam = z.object({ whatsappId: z.coerce.number().int().positive() });
const digits = z.string().trim().regex(/^\+?\d[\d\s()-]*$/, "Invalid number");
const wid = z.string().trim().min(1).max(200);

/** Who the phone side is: a number, optionally its LID, or a group (with `from` as the author). */
const party = {
  from: digits.optional(),
  lid: z.string().trim().regex(/^\d{1,30}$/, "Invalid LID").optional(),
  group: z.string().trim().regex(/^[\d-]{5,40}$/, "Invalid group id").optional(),
};

const messageBody = z.object({
  ...party,
  name: z.string().trim().max(100).optional(),
  avatarUrl: z.url().max(2000).optional(),
  body: z.string().max(65_536).optional(),
  media: z.object({
    base64: z.string().min(1),
    mimetype: z.string().min(1).max(200),
    filename: z.string().max(255).optional(),
  }).optional(),
  location: z.object({
    latitude: z.number().min(-90).max(90),
    longitude: z.number().min(-180).max(180),
    name: z.string().max(500).optional(),
  }).optional(),
  vcard: z.object({ name: z.string().min(1).max(100), number: digits }).optional(),
  quotedId: wid.optional(),
  id: wid.optional(),
  /** Written on the connected phone itself, to `from` (shown as fromMe). */
  fromMe: z.boolean().optional(),
  /** Forwarded by the phone (WhatsApp's forwarded mark). */
  forwarded: z.boolean().optional(),
});
const editBody = z.object({ ...party, id: wid, body: z.string().max(65_536) });
const revokeBody = z.object({ ...party, id: wid });
const callBody = z.object({ from: digits, isVideo: z.boolean().optional(), id: wid.optional() });
const readBody = z.object({ to: digits, ids: z.array(wid).max(1000).optional() });
const sentQuery = z.object({
  to: digits.optional(),
  after: z.coerce.number().int().min(0).optional(),
  limit: z.coerce.number().int().min(1).max(1000).optional(),
});

/**
 * /api/simulator/:whatsappId: the built-in phone network, acting as the phones around a
 * "simulator" connection (for demos, tests and the /simulator page). Any signed-in user of the
 * company may use it: it is a demo tool and only reaches the company's own simulator
 * connections (another company's, or a real number's, answer 404 ERR_NO_WAPP_FOUND). The phones
 * live next to the connection's session: from any process, they are asked of the one that runs it
 * (server/whatsapp/holder_calls.ts); what they were sent is read from the database anywhere.
 */
export function simulatorRoutes(deps: AppDeps) {
  const app = new Hono<AppEnv>();
  app.use("*", requireAuth(deps), allow("simulator:use"));

  app.get("/:whatsappId", validate("param", idParam), async (c) => {
    const { whatsappId } = c.req.valid("param");
    return c.json(await atHolder(deps, "simulator.state", authOf(c).companyId, whatsappId, {}));
  });

  app.post("/:whatsappId/scan", validate("param", idParam), async (c) => {
    const { whatsappId } = c.req.valid("param");
    return c.json(await atHolder(deps, "simulator.scan", authOf(c).companyId, whatsappId, {}));
  });

  app.post("/:whatsappId/unlink", validate("param", idParam), async (c) => {
    const { whatsappId } = c.req.valid("param");
    return c.json(await atHolder(deps, "simulator.unlink", authOf(c).companyId, whatsappId, {}));
  });

  app.post(
    "/:whatsappId/messages",
    validate("param", idParam),
    validate("json", messageBody),
    async (c) => {
      const { whatsappId } = c.req.valid("param");
      const outcome = await atHolder(
        deps,
        "simulator.messages",
        authOf(c).companyId,
        whatsappId,
        c.req.valid("json"),
      );
      if (!outcome.stored) return c.json(outcome, 202);
      return c.json(outcome, outcome.duplicate ? 200 : 201);
    },
  );

  app.post(
    "/:whatsappId/edit",
    validate("param", idParam),
    validate("json", editBody),
    async (c) => {
      const { whatsappId } = c.req.valid("param");
      return c.json(
        await atHolder(
          deps,
          "simulator.edit",
          authOf(c).companyId,
          whatsappId,
          c.req.valid("json"),
        ),
      );
    },
  );

  app.post(
    "/:whatsappId/revoke",
    validate("param", idParam),
    validate("json", revokeBody),
    async (c) => {
      const { whatsappId } = c.req.valid("param");
      return c.json(
        await atHolder(
          deps,
          "simulator.revoke",
          authOf(c).companyId,
          whatsappId,
          c.req.valid("json"),
        ),
      );
    },
  );

  app.post(
    "/:whatsappId/call",
    validate("param", idParam),
    validate("json", callBody),
    async (c) => {
      const { whatsappId } = c.req.valid("param");
      return c.json(
        await atHolder(
          deps,
          "simulator.call",
          authOf(c).companyId,
          whatsappId,
          c.req.valid("json"),
        ),
      );
    },
  );

  app.post(
    "/:whatsappId/read",
    validate("param", idParam),
    validate("json", readBody),
    async (c) => {
      const { whatsappId } = c.req.valid("param");
      return c.json(
        await atHolder(
          deps,
          "simulator.read",
          authOf(c).companyId,
          whatsappId,
          c.req.valid("json"),
        ),
      );
    },
  );

  app.get(
    "/:whatsappId/sent",
    validate("param", idParam),
    validate("query", sentQuery),
    async (c) => {
      const { whatsappId } = c.req.valid("param");
      return c.json(
        await sentByConnection(deps, authOf(c).companyId, whatsappId, c.req.valid("query")),
      );
    },
  );

  return app;
}
