import { Hono } from "hono";
import { z } from "zod";
import { allow, requireAuth } from "../../server/auth/middleware.ts";
import { type AppDeps, type AppEnv, authOf } from "../../server/context.ts";
import { idParam } from "../../server/http/params.ts";
import { validate } from "../../server/http/validate.ts";
import { BACK } from "../../server/bots/menu.ts";
import { fileField } from "../../server/media/uploads.ts";
import {
  createOption,
  deleteOption,
  getOption,
  listOptionsLevel,
  optionMedia,
  optionTree,
  setOptionMedia,
  updateOption,
} from "../../server/queue_options/service.ts";

const positiveId = z.coerce.number().int().positive();

/** parentId -1 (or absent) means the roots (seeds/001 section 7). */
const levelQuery = z.object({
  queueId: positiveId,
  parentId: z.coerce.number().int().min(-1).optional()
    .transform((v) => (v === undefined || v === -1 || v === 0 ? null : v)),
});

/**
 * The answer a contact types to pick the option: numbers are sent as text. "#" is taken: the
 * inbound pipeline reads it as "back to the previous menu" (server/bots/menu.ts BACK).
 */
const answer = z.union([z.string(), z.number().int()]).transform((v) => String(v).trim())
  .pipe(
    z.string().min(1, "Required").max(20, "Too Long!")
      .refine((v) => v !== BACK, `"${BACK}" volta ao menu anterior e não pode ser uma opção`),
  );

const parentId = z.number().int().nullable().optional()
  .transform((v) => (v === undefined ? undefined : v === null || v <= 0 ? null : v));

const createBody = z.object({
  title: z.string({ error: "Required" }).trim().min(1, "Required").max(100, "Too Long!"),
  message: z.string().max(4096, "Too Long!").optional(),
  option: answer,
  queueId: z.number().int().positive(),
  parentId,
});

const updateBody = createBody.partial().extend({ parentId });

export function queueOptionRoutes(deps: AppDeps) {
  const app = new Hono<AppEnv>();
  // The chatbot trees are configured in the queue dialog, in the admin area.
  app.use("*", requireAuth(deps), allow("queue:manage"));

  app.get("/", validate("query", levelQuery), async (c) => {
    const { queueId, parentId } = c.req.valid("query");
    return c.json(await listOptionsLevel(deps, authOf(c).companyId, queueId, parentId));
  });

  app.get("/tree", validate("query", z.object({ queueId: positiveId })), async (c) => {
    return c.json(await optionTree(deps, authOf(c).companyId, c.req.valid("query").queueId));
  });

  app.get("/:id", validate("param", idParam), async (c) => {
    return c.json(await getOption(deps, authOf(c).companyId, c.req.valid("param").id));
  });

  app.get("/:id/media", validate("param", idParam), async (c) => {
    return await optionMedia(deps, authOf(c).companyId, c.req.valid("param").id);
  });

  app.post("/", validate("json", createBody), async (c) => {
    return c.json(await createOption(deps, authOf(c).companyId, c.req.valid("json")), 201);
  });

  app.put("/:id", validate("param", idParam), validate("json", updateBody), async (c) => {
    const { id } = c.req.valid("param");
    return c.json(await updateOption(deps, authOf(c).companyId, id, c.req.valid("json")));
  });

  app.delete("/:id", validate("param", idParam), async (c) => {
    await deleteOption(deps, authOf(c).companyId, c.req.valid("param").id);
    return c.body(null, 204);
  });

  app.post("/:id/media-upload", validate("param", idParam), async (c) => {
    const file = fileField(await c.req.parseBody());
    return c.json(await setOptionMedia(deps, authOf(c).companyId, c.req.valid("param").id, file));
  });

  app.delete("/:id/media-upload", validate("param", idParam), async (c) => {
    return c.json(await setOptionMedia(deps, authOf(c).companyId, c.req.valid("param").id, null));
  });

  return app;
}
