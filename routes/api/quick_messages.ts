import { Hono } from "hono";
import { z } from "zod";
import { allow, requireAuth } from "../../server/auth/middleware.ts";
import { type AppDeps, type AppEnv, authOf } from "../../server/context.ts";
import { idParam, pageNumber } from "../../server/http/params.ts";
import { validate } from "../../server/http/validate.ts";
import { fileField } from "../../server/media/uploads.ts";
import {
  attachQuickMessageMedia,
  changeQuickMessage,
  createQuickMessage,
  detachQuickMessageMedia,
  listQuickMessagePage,
  quickMessageChoices,
  quickMessageMedia,
  removeQuickMessage,
  showQuickMessage,
} from "../../server/quick_messages/service.ts";
import { LIMITS } from "../../contract/validation.ts";
import { ADMIN_TEXTS, limitedText } from "../../server/http/fields.ts";

// seeds/001 section 5: shortcode required ('Obrigatório').
const shortcode = limitedText(LIMITS.shortcode, ADMIN_TEXTS);
const message = z.string().max(10_000);
const geral = z.union([z.boolean(), z.literal(0), z.literal(1)]).transform((v) =>
  v === true || v === 1
);

/** Issue 28: the queue whose attendants get the answer after '/' (null: none). */
const queueId = z.number().int().positive().nullable();

/** /api/quick-messages (seeds/001 sections 2, 3, 5, 7). */
export function quickMessageRoutes(deps: AppDeps) {
  const app = new Hono<AppEnv>();
  app.use("*", requireAuth(deps), allow("quick-message:work"));

  // userId of Whaticket's query is ignored: a user gets their own answers, never another's.
  app.get("/list", async (c) => c.json(await quickMessageChoices(deps, authOf(c))));

  app.get(
    "/",
    validate("query", z.object({ searchParam: z.string().max(100).optional(), pageNumber })),
    async (c) => {
      const { searchParam, pageNumber } = c.req.valid("query");
      return c.json(await listQuickMessagePage(deps, authOf(c), searchParam, pageNumber));
    },
  );

  app.get("/:id{[0-9]+}", validate("param", idParam), async (c) => {
    return c.json(await showQuickMessage(deps, authOf(c), c.req.valid("param").id));
  });

  app.post(
    "/",
    validate(
      "json",
      z.object({
        shortcode,
        message: message.default(""),
        geral: geral.optional(),
        queueId: queueId.optional(),
      }),
    ),
    async (c) => c.json(await createQuickMessage(deps, authOf(c), c.req.valid("json")), 201),
  );

  app.put(
    "/:id{[0-9]+}",
    validate("param", idParam),
    validate(
      "json",
      z.object({
        shortcode: shortcode.optional(),
        message: message.optional(),
        geral: geral.optional(),
        queueId: queueId.optional(),
      }),
    ),
    async (c) =>
      c.json(
        await changeQuickMessage(deps, authOf(c), c.req.valid("param").id, c.req.valid("json")),
      ),
  );

  app.delete("/:id{[0-9]+}", validate("param", idParam), async (c) => {
    await removeQuickMessage(deps, authOf(c), c.req.valid("param").id);
    return c.body(null, 204);
  });

  // Multipart `file` (and Whaticket's `typeArch`, checked but never used in a path).
  app.post("/:id{[0-9]+}/media-upload", validate("param", idParam), async (c) => {
    const form = await c.req.parseBody();
    const view = await attachQuickMessageMedia(
      deps,
      authOf(c),
      c.req.valid("param").id,
      fileField(form),
      form.typeArch,
    );
    return c.json(view);
  });

  app.delete("/:id{[0-9]+}/media-upload", validate("param", idParam), async (c) => {
    return c.json(await detachQuickMessageMedia(deps, authOf(c), c.req.valid("param").id));
  });

  // The attachment, for the page and for the message input that sends it after '/'.
  app.get("/:id{[0-9]+}/media", validate("param", idParam), async (c) => {
    return await quickMessageMedia(deps, authOf(c), c.req.valid("param").id);
  });

  return app;
}
