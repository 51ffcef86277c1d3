import { Hono } from "hono";
import { z } from "zod";
import {
  CHECKOUT_LIMITS,
  CHECKOUT_TEXTS,
  COUNTRIES,
  cpfCnpjDigits,
} from "../../contract/billing_rules.ts";
import { allow, requireAuth } from "../../server/auth/middleware.ts";
import { checkout } from "../../server/billing/checkout.ts";
import { changePlan, planChangeQuote } from "../../server/billing/plan_change.ts";
import { receiveWebhook } from "../../server/billing/confirmation.ts";
import { type AppDeps, type AppEnv, authOf } from "../../server/context.ts";
import { limitedText } from "../../server/http/fields.ts";
import { idParam } from "../../server/http/params.ts";
import { validate } from "../../server/http/validate.ts";

const required = (limit: { min: number; max: number }, message: string) =>
  limitedText(limit, { required: message, tooShort: message, tooLong: "Too Long!" });

/**
 * The subscription payload of seeds/001 section 3. Card fields (nameOnCard, cardNumber, cvv) are
 * part of the old payload but unused: they are dropped here and never stored.
 */
const subscriptionBody = z.object({
  firstName: required(CHECKOUT_LIMITS.name, CHECKOUT_TEXTS.name),
  lastName: z.string().trim().max(100).optional(),
  address2: required(CHECKOUT_LIMITS.address, CHECKOUT_TEXTS.address),
  city: required(CHECKOUT_LIMITS.city, CHECKOUT_TEXTS.city),
  state: z.string().trim().max(CHECKOUT_LIMITS.state.max).default(""),
  zipcode: required(CHECKOUT_LIMITS.zipcode, CHECKOUT_TEXTS.zipcode),
  country: z.enum(COUNTRIES, { error: CHECKOUT_TEXTS.country }),
  cpfCnpj: z.string().max(30).optional().transform((v, ctx) => {
    const digits = cpfCnpjDigits(v ?? "");
    if (digits === null) {
      ctx.addIssue({ code: "custom", message: "CPF/CNPJ inválido" });
      return z.NEVER;
    }
    return digits || undefined;
  }),
  invoiceId: z.coerce.number().int().positive(),
  price: z.coerce.number().nonnegative().max(1e9).optional(),
});

/** POST /api/subscription: the checkout of an invoice (seeds/001 sections 4, 7). */
export function subscriptionRoutes(deps: AppDeps) {
  const app = new Hono<AppEnv>();
  app.use("*", requireAuth(deps), allow("invoice:pay"));
  app.post("/", validate("json", subscriptionBody), async (c) => {
    const body = c.req.valid("json");
    const name = [body.firstName, body.lastName].filter(Boolean).join(" ");
    return c.json(
      await checkout(deps, authOf(c), {
        name,
        email: null,
        cpfCnpj: body.cpfCnpj,
        zipcode: body.zipcode,
        address: body.address2,
        city: body.city,
        state: body.state,
        country: body.country,
        invoiceId: body.invoiceId,
        price: body.price,
      }),
    );
  });

  // Issue 29 item 3: the admin chooses another plan (server/billing/plan_change.ts).
  app.put(
    "/plan",
    allow("plan:change"),
    validate("json", z.object({ planId: z.coerce.number().int().positive() })),
    async (c) => c.json(await changePlan(deps, authOf(c), c.req.valid("json").planId)),
  );
  // Issue 50 item 12: the amount the confirmation shows.
  app.get(
    "/plan/:id{[0-9]+}/quote",
    allow("plan:change"),
    validate("param", idParam),
    async (c) => c.json(await planChangeQuote(deps, authOf(c), c.req.valid("param").id)),
  );
  return app;
}

/**
 * POST /api/billing/:provider/webhook: public (the provider calls it); the provider adapter checks
 * the request's token or signature before anything is read.
 */
export function billingWebhookRoutes(deps: AppDeps) {
  const app = new Hono<AppEnv>();
  app.post("/:provider{[a-z]+}/webhook", async (c) => {
    let body: unknown;
    try {
      body = await c.req.json();
    } catch {
      body = undefined;
    }
    // A body that is not JSON reaches the adapter as undefined: the token is checked first
    // (a forged request learns nothing), then the shape (400).
    const provider = c.req.param("provider");
    const headers = c.req.raw.headers;
    return c.json(await receiveWebhook(deps, provider, headers, body));
  });
  return app;
}
