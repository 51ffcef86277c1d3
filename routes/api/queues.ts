import { Hono } from "hono";
import { z } from "zod";
import { HEX_COLOR_PATTERN } from "../../contract/palette.ts";
import { allow, requireAuth } from "../../server/auth/middleware.ts";
import { type AppDeps, type AppEnv, authOf } from "../../server/context.ts";
import { limitedText, name2to50 } from "../../server/http/fields.ts";
import { idParam } from "../../server/http/params.ts";
import { validate } from "../../server/http/validate.ts";
import { fileField } from "../../server/media/uploads.ts";
import { workingHours } from "../../server/queues/hours_schema.ts";
import {
  clearQueueMedia,
  createQueue,
  deleteQueue,
  getQueue,
  listQueues,
  queueMedia,
  setQueueMedia,
  updateQueue,
} from "../../server/queues/service.ts";
import { LIMITS } from "../../contract/validation.ts";
import { DISTRIBUTIONS } from "../../contract/queue_types.ts";

/** seeds/001 section 5: colour required, 3 to 9 characters; stored upper-case. */
const color = limitedText(LIMITS.color).regex(
  HEX_COLOR_PATTERN,
  "Cor inválida: use #RGB ou #RRGGBB",
)
  .transform((v) => v.toUpperCase());

const optionalId = z.number().int().positive().nullable().optional();
const slaMinutes = z.number().int().min(LIMITS.slaMinutes.min).max(LIMITS.slaMinutes.max)
  .nullable().optional();

const queueBody = z.object({
  name: name2to50,
  color,
  greetingMessage: z.string().max(4096, "Too Long!").optional(),
  outOfHoursMessage: z.string().max(4096, "Too Long!").optional(),
  orderQueue: z.number().int().min(0).max(9999).nullable().optional(),
  schedules: workingHours.optional(),
  // Prompts and integrations (seeds/002) are referenced by id; their tables come later.
  promptId: optionalId,
  integrationId: optionalId,
  // Issue 26: distribution and service-level targets (minutes of the queue's hours).
  distribution: z.enum(DISTRIBUTIONS).optional(),
  firstResponseMinutes: slaMinutes,
  resolutionMinutes: slaMinutes,
  // The resolution clock stops while the ticket's last message is ours (default off).
  pauseWhenWaitingOnCustomer: z.boolean().optional(),
});

export function queueRoutes(deps: AppDeps) {
  const app = new Hono<AppEnv>();
  app.use("*", requireAuth(deps), allow("queue:read"));

  // Every user reads the company's queues (pickers, filters); changes are admin work.
  app.get("/", async (c) => c.json(await listQueues(deps, authOf(c).companyId)));

  app.get("/:id", validate("param", idParam), async (c) => {
    return c.json(await getQueue(deps, authOf(c).companyId, c.req.valid("param").id));
  });

  app.get("/:id/media", validate("param", idParam), async (c) => {
    return await queueMedia(deps, authOf(c).companyId, c.req.valid("param").id);
  });

  app.post("/", allow("queue:manage"), validate("json", queueBody), async (c) => {
    return c.json(await createQueue(deps, authOf(c), c.req.valid("json")), 201);
  });

  app.put(
    "/:id",
    allow("queue:manage"),
    validate("param", idParam),
    validate("json", queueBody.partial()),
    async (c) => {
      const { id } = c.req.valid("param");
      return c.json(await updateQueue(deps, authOf(c), id, c.req.valid("json")));
    },
  );

  app.delete("/:id", allow("queue:manage"), validate("param", idParam), async (c) => {
    await deleteQueue(deps, authOf(c), c.req.valid("param").id);
    return c.body(null, 204);
  });

  app.post("/:id/media-upload", allow("queue:manage"), validate("param", idParam), async (c) => {
    const file = fileField(await c.req.parseBody());
    return c.json(await setQueueMedia(deps, authOf(c).companyId, c.req.valid("param").id, file));
  });

  app.delete("/:id/media-upload", allow("queue:manage"), validate("param", idParam), async (c) => {
    return c.json(await clearQueueMedia(deps, authOf(c).companyId, c.req.valid("param").id));
  });

  return app;
}
