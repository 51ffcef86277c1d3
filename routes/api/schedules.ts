import { Hono } from "hono";
import { z } from "zod";
import { allow, requireAuth, requirePlan } from "../../server/auth/middleware.ts";
import { type AppDeps, type AppEnv, authOf } from "../../server/context.ts";
import { idParam, pageNumber } from "../../server/http/params.ts";
import { validate } from "../../server/http/validate.ts";
import { fileField } from "../../server/media/uploads.ts";
import {
  attachScheduleMedia,
  changeSchedule,
  createSchedule,
  detachScheduleMedia,
  listSchedules,
  removeSchedule,
  retrySchedule,
  scheduleMedia,
  showSchedule,
} from "../../server/schedules/service.ts";
import { LIMITS } from "../../contract/validation.ts";
import { ADMIN_TEXTS, limitedText, templateField } from "../../server/http/fields.ts";

// seeds/000 section 5 and seeds/001 section 5.
const body = limitedText(LIMITS.scheduleBody, { ...ADMIN_TEXTS, required: ADMIN_TEXTS.tooShort });
const contactId = z.number({ error: "Obrigatório" }).int().positive();
const sendAt = z.iso.datetime({ offset: true, error: "Obrigatório" }).transform((v) =>
  new Date(v).toISOString()
);
const ticketId = z.number().int().positive().nullable().optional();
/** Issue 45: on a connection with the 24-hour window, the approved template to send. */
const template = templateField.nullable().optional();

/** /api/schedules (seeds/001 sections 2-7), behind the plan's useSchedules flag. */
export function scheduleRoutes(deps: AppDeps) {
  const app = new Hono<AppEnv>();
  app.use("*", requireAuth(deps), requirePlan("useSchedules"), allow("schedule:work"));

  app.get(
    "/",
    validate(
      "query",
      z.object({
        searchParam: z.string().max(100).optional(),
        contactId: z.coerce.number().int().positive().optional(),
        pageNumber,
      }),
    ),
    async (c) => {
      return c.json(await listSchedules(deps, authOf(c), c.req.valid("query")));
    },
  );

  app.get("/:id{[0-9]+}", validate("param", idParam), async (c) => {
    return c.json(await showSchedule(deps, authOf(c), c.req.valid("param").id));
  });

  app.post(
    "/",
    validate("json", z.object({ body, contactId, sendAt, ticketId, template })),
    async (c) => c.json(await createSchedule(deps, authOf(c), c.req.valid("json")), 201),
  );

  app.put(
    "/:id{[0-9]+}",
    validate("param", idParam),
    validate(
      "json",
      z.object({
        body: body.optional(),
        contactId: contactId.optional(),
        sendAt: sendAt.optional(),
        ticketId,
        template,
      }),
    ),
    async (c) =>
      c.json(await changeSchedule(deps, authOf(c), c.req.valid("param").id, c.req.valid("json"))),
  );

  app.post("/:id{[0-9]+}/retry", validate("param", idParam), async (c) => {
    return c.json(await retrySchedule(deps, authOf(c), c.req.valid("param").id));
  });

  app.post("/:id{[0-9]+}/media-upload", validate("param", idParam), async (c) => {
    const file = fileField(await c.req.parseBody());
    return c.json(await attachScheduleMedia(deps, authOf(c), c.req.valid("param").id, file));
  });

  app.delete("/:id{[0-9]+}/media-upload", validate("param", idParam), async (c) => {
    return c.json(await detachScheduleMedia(deps, authOf(c), c.req.valid("param").id));
  });

  app.get("/:id{[0-9]+}/media", validate("param", idParam), async (c) => {
    return await scheduleMedia(deps, authOf(c), c.req.valid("param").id);
  });

  app.delete("/:id{[0-9]+}", validate("param", idParam), async (c) => {
    await removeSchedule(deps, authOf(c), c.req.valid("param").id);
    return c.body(null, 204);
  });

  return app;
}
