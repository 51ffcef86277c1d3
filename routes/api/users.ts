import { Hono } from "hono";
import { z } from "zod";
import { allow, requireAuth } from "../../server/auth/middleware.ts";
import { type AppDeps, type AppEnv, authOf } from "../../server/context.ts";
import { name2to50, password5to50, requiredEmail } from "../../server/http/fields.ts";
import { idParam, pageNumber } from "../../server/http/params.ts";
import { validate } from "../../server/http/validate.ts";
import { LIMITS } from "../../contract/validation.ts";
import { TIME_OF_DAY } from "../../contract/working_hours.ts";
import { resetTwoFactor } from "../../server/auth/two_factor.ts";
import {
  createUser,
  deleteUser,
  getUser,
  listUserOptions,
  listUsersPage,
  updateUser,
} from "../../server/users/service.ts";

/** Issue 26: open tickets distribution gives the user at most; null is unlimited. */
const maxOpenTickets = z.number().int().min(LIMITS.maxOpenTickets.min)
  .max(LIMITS.maxOpenTickets.max).nullable();
/** Issue 26: queues (among queueIds) the user supervises. */
const supervisedQueueIds = z.array(z.number().int().positive()).max(200);
/** Issue 26: the user's daily hours for distribution (HH:MM; null: any time). */
const workTime = z.string().regex(TIME_OF_DAY).nullable();

/** seeds/000 section 5 'User form'. */
const userBody = z.object({
  name: name2to50,
  email: requiredEmail,
  password: password5to50,
  profile: z.string().toLowerCase().pipe(z.enum(["admin", "user"])).default("user"),
  queueIds: z.array(z.number().int().positive()).max(200).default([]),
  whatsappId: z.number().int().positive().nullable().default(null),
  allTicket: z.enum(["enable", "disable"]).default("disable"),
  super: z.boolean().default(false),
  maxOpenTickets: maxOpenTickets.default(null),
  supervisedQueueIds: supervisedQueueIds.default([]),
  startWork: workTime.default(null),
  endWork: workTime.default(null),
});

/**
 * An edit sends only what changes, or the whole form: every field optional, no defaults
 * (a missing field is left as it is); an empty password means "keep the current one".
 */
const updateBody = z.object({
  name: name2to50.optional(),
  email: requiredEmail.optional(),
  password: z.union([z.literal(""), password5to50]).optional(),
  profile: z.string().toLowerCase().pipe(z.enum(["admin", "user"])).optional(),
  queueIds: z.array(z.number().int().positive()).max(200).optional(),
  whatsappId: z.number().int().positive().nullable().optional(),
  allTicket: z.enum(["enable", "disable"]).optional(),
  super: z.boolean().optional(),
  maxOpenTickets: maxOpenTickets.optional(),
  supervisedQueueIds: supervisedQueueIds.optional(),
  startWork: workTime.optional(),
  endWork: workTime.optional(),
});

const listQuery = z.object({ searchParam: z.string().max(100).optional(), pageNumber });

export function userRoutes(deps: AppDeps) {
  const app = new Hono<AppEnv>();
  app.use("*", requireAuth(deps), allow("user:read"));

  app.get("/", validate("query", listQuery), async (c) => {
    return c.json(await listUsersPage(deps, authOf(c).companyId, c.req.valid("query")));
  });

  app.get(
    "/list",
    validate("query", z.object({ searchParam: z.string().max(100).optional() })),
    async (c) => {
      return c.json(await listUserOptions(deps, authOf(c).companyId, c.req.valid("query")));
    },
  );

  app.get("/:id", validate("param", idParam), async (c) => {
    return c.json(await getUser(deps, authOf(c).companyId, c.req.valid("param").id));
  });

  app.post("/", allow("user:create"), validate("json", userBody), async (c) => {
    return c.json(await createUser(deps, authOf(c), c.req.valid("json")), 201);
  });

  /**
   * Answers the user; `sessionEnded: true` when the caller changed their own password: every
   * session of theirs has ended (tokens and refresh cookie), so the client logs in again.
   */
  app.put("/:id", validate("param", idParam), validate("json", updateBody), async (c) => {
    const { id } = c.req.valid("param");
    const { user, sessionEnded } = await updateUser(deps, authOf(c), id, c.req.valid("json"));
    return c.json({ ...user, sessionEnded });
  });

  // A lost device (issue 30): the user signs in with the password alone again.
  app.post("/:id/2fa/reset", allow("two-factor:reset"), validate("param", idParam), async (c) => {
    await resetTwoFactor(deps, authOf(c), c.req.valid("param").id);
    return c.body(null, 204);
  });

  app.delete("/:id", allow("user:delete"), validate("param", idParam), async (c) => {
    await deleteUser(deps, authOf(c), c.req.valid("param").id);
    return c.body(null, 204);
  });

  return app;
}
