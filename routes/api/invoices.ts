import { Hono } from "hono";
import { z } from "zod";
import { allow, requireAuth } from "../../server/auth/middleware.ts";
import {
  checkoutInfo,
  currentInvoice,
  getInvoice,
  listInvoices,
  markPaidByHand,
} from "../../server/billing/service.ts";
import { type AppDeps, type AppEnv, authOf } from "../../server/context.ts";
import { idParam, pageNumber } from "../../server/http/params.ts";
import { validate } from "../../server/http/validate.ts";

/** /api/invoices (seeds/001 sections 2 'Invoices screen', 3, 7): company admins, super users. */
export function invoiceRoutes(deps: AppDeps) {
  const app = new Hono<AppEnv>();
  app.use("*", requireAuth(deps), allow("invoice:pay"));

  app.get(
    "/all",
    validate("query", z.object({ searchParam: z.string().max(100).optional(), pageNumber })),
    async (c) => {
      const { searchParam, pageNumber } = c.req.valid("query");
      return c.json(await listInvoices(deps, authOf(c), searchParam, pageNumber));
    },
  );

  // The /subscription page's button: the oldest unpaid invoice, or the current period's, made now.
  app.post("/current", async (c) => {
    const { invoice, created } = await currentInvoice(deps, authOf(c));
    return c.json(invoice, created ? 201 : 200);
  });

  app.get("/:id{[0-9]+}", validate("param", idParam), async (c) => {
    return c.json(await getInvoice(deps, authOf(c), c.req.valid("param").id));
  });

  app.get("/:id{[0-9]+}/checkout", validate("param", idParam), async (c) => {
    return c.json(await checkoutInfo(deps, authOf(c), c.req.valid("param").id));
  });

  app.put(
    "/:id{[0-9]+}/paid",
    allow("invoice:mark-paid"),
    validate("param", idParam),
    async (c) => {
      return c.json(await markPaidByHand(deps, authOf(c), c.req.valid("param").id));
    },
  );

  return app;
}
