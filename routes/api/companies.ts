import { Hono } from "hono";
import { z } from "zod";
import { allow, requireAuth } from "../../server/auth/middleware.ts";
import { rateLimited } from "../../server/auth/rate_limit.ts";
import { clientAddress } from "../../server/http/client_address.ts";
import {
  companyPlan,
  createCompany,
  deleteCompany,
  getCompany,
  listCompanies,
  pageCompanies,
  updateCompany,
  updateCompanySchedules,
} from "../../server/companies/service.ts";
import { signup } from "../../server/companies/signup.ts";
import { type AppDeps, type AppEnv, authOf } from "../../server/context.ts";
import { limitedText, name2to50, password5to50, requiredEmail } from "../../server/http/fields.ts";
import { idParam, pageNumber } from "../../server/http/params.ts";
import { validate } from "../../server/http/validate.ts";
import { workingHours } from "../../server/queues/hours_schema.ts";
import { RECURRENCES } from "../../contract/platform_types.ts";
import { LIMITS } from "../../contract/validation.ts";

const companyIdParam = z.object({ companyId: z.coerce.number().int().positive() });
const schedulesBody = z.object({ schedules: workingHours });

/** A real calendar day, YYYY-MM-DD (2026-02-30 is refused), or null for none. */
const dueDate = z.string().trim().regex(/^\d{4}-\d{2}-\d{2}$/, "Data inválida (AAAA-MM-DD)")
  .refine((v) => {
    const d = new Date(`${v}T00:00:00Z`);
    return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === v;
  }, "Data inválida (AAAA-MM-DD)")
  .nullable();
const phone = z.string().trim().max(30, "Too Long!").transform((v) => v === "" ? null : v)
  .nullable();
const planId = z.coerce.number({ error: "Selecione um plano" }).int().positive(
  "Selecione um plano",
);
const bool = z.union([z.boolean(), z.enum(["true", "false"])]).transform((v) =>
  v === true || v === "true"
);

const companyFields = {
  name: limitedText(LIMITS.name),
  email: requiredEmail,
  phone: phone.default(null),
  planId,
  status: bool.default(true),
  campaignsEnabled: bool.default(true),
  dueDate: dueDate.default(null),
  recurrence: z.enum(RECURRENCES, "Recorrência inválida").default("MENSAL"),
};
const createBody = z.object({ ...companyFields, password: password5to50.optional() });
const updateBody = z.object({
  name: companyFields.name,
  email: companyFields.email,
  phone,
  planId,
  status: bool,
  campaignsEnabled: bool,
  dueDate,
  recurrence: companyFields.recurrence.unwrap(),
}).partial();

/** seeds/001 'Signup': name 2-50, email, password 5-50, plan; and the company's own data. */
const signupBody = z.object({
  name: name2to50,
  companyName: limitedText(LIMITS.name),
  email: requiredEmail,
  phone: phone.default(null),
  password: password5to50,
  planId,
});

/** /api/companies (seeds/001 section 7 'Companies'). */
export function companyRoutes(deps: AppDeps) {
  const app = new Hono<AppEnv>();
  const signupLimiter = deps.counters(
    "signup",
    deps.config.signupMaxPerIp,
    deps.config.signupWindowSeconds * 1000,
  );

  // Public (registered before the auth middleware): the signup page's form.
  app.post(
    "/cadastro",
    async (c, next) => {
      // Counted before the body is read: a flood of bad bodies is refused as well. Every
      // signup counts, successful ones first (each creates a company), per client address.
      const address = clientAddress(c, deps.config.trustedProxies);
      const wait = await signupLimiter.hit(address, deps.clock.now().getTime());
      if (wait > 0) {
        c.header("Retry-After", String(wait));
        throw rateLimited(wait);
      }
      await next();
    },
    validate("json", signupBody),
    async (c) => {
      return c.json(await signup(deps, c.req.valid("json")), 201);
    },
  );

  app.use("*", requireAuth(deps), allow("company:read"));

  app.get(
    "/",
    allow("company:manage"),
    validate("query", z.object({ searchParam: z.string().max(100).optional(), pageNumber })),
    async (c) => {
      const { searchParam, pageNumber } = c.req.valid("query");
      return c.json(await pageCompanies(deps, searchParam, pageNumber));
    },
  );

  app.get("/list", allow("company:manage"), async (c) => c.json(await listCompanies(deps)));

  app.get("/listPlan/:companyId", validate("param", companyIdParam), async (c) => {
    return c.json(await companyPlan(deps, authOf(c), c.req.valid("param").companyId));
  });

  app.get("/:id{[0-9]+}", validate("param", idParam), async (c) => {
    return c.json(await getCompany(deps, authOf(c), c.req.valid("param").id));
  });

  app.post("/", allow("company:manage"), validate("json", createBody), async (c) => {
    return c.json(await createCompany(deps, authOf(c), c.req.valid("json")), 201);
  });

  app.put(
    "/:id{[0-9]+}",
    allow("company:manage"),
    validate("param", idParam),
    validate("json", updateBody),
    async (c) =>
      c.json(await updateCompany(deps, authOf(c), c.req.valid("param").id, c.req.valid("json"))),
  );

  app.delete("/:id{[0-9]+}", allow("company:manage"), validate("param", idParam), async (c) => {
    await deleteCompany(deps, authOf(c), c.req.valid("param").id);
    return c.body(null, 204);
  });

  app.put(
    "/:id/schedules",
    allow("working-hours:manage"),
    validate("param", idParam),
    validate("json", schedulesBody),
    async (c) => {
      const { id } = c.req.valid("param");
      const { schedules } = c.req.valid("json");
      return c.json(await updateCompanySchedules(deps, authOf(c), id, schedules));
    },
  );

  return app;
}
