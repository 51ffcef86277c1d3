import { Hono } from "hono";
import { z } from "zod";
import { allow, requireAuth } from "../../server/auth/middleware.ts";
import {
  checkoutInfo,
  createInvoiceByHand,
  currentInvoice,
  deleteInvoiceByHand,
  getInvoice,
  invoiceReceipt,
  listInvoices,
  listInvoicesCapped,
  markPaidByHand,
  updateInvoiceByHand,
} from "../../server/billing/service.ts";
import { type AppDeps, type AppEnv, authOf } from "../../server/context.ts";
import { idParam, pageNumber } from "../../server/http/params.ts";
import { validate } from "../../server/http/validate.ts";

const invoiceFields = {
  detail: z.string().trim().min(1, "Required").max(200, "Too Long!"),
  value: z.coerce.number().nonnegative().max(1e9),
  dueDate: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "YYYY-MM-DD").refine(
    (v) => !Number.isNaN(Date.parse(`${v}T00:00:00Z`)),
    "YYYY-MM-DD",
  ),
};
const createBody = z.object({
  companyId: z.coerce.number().int().positive(),
  ...invoiceFields,
});
const updateBody = z.object({
  ...invoiceFields,
  status: z.enum(["open", "paid"]),
}).partial();

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

  // The specification's client reads a plain array here (capped: repository INVOICE_LIST_MAX).
  app.get(
    "/list",
    validate("query", z.object({ searchParam: z.string().max(100).optional() })),
    async (c) => {
      const { searchParam } = c.req.valid("query");
      return c.json(await listInvoicesCapped(deps, authOf(c), searchParam));
    },
  );

  // Super users bill by hand (the specification's client's invoice form).
  app.post("/", allow("invoice:manage"), validate("json", createBody), async (c) => {
    return c.json(await createInvoiceByHand(deps, authOf(c), c.req.valid("json")), 201);
  });

  app.put(
    "/:id{[0-9]+}",
    allow("invoice:manage"),
    validate("param", idParam),
    validate("json", updateBody),
    async (c) => {
      const { id } = c.req.valid("param");
      return c.json(await updateInvoiceByHand(deps, authOf(c), id, c.req.valid("json")));
    },
  );

  app.delete("/:id{[0-9]+}", allow("invoice:manage"), validate("param", idParam), async (c) => {
    await deleteInvoiceByHand(deps, authOf(c), c.req.valid("param").id);
    return c.body(null, 204);
  });

  // The /subscription page's button: the oldest unpaid invoice, or the current period's, made now.
  app.post("/current", async (c) => {
    const { invoice, created } = await currentInvoice(deps, authOf(c));
    return c.json(invoice, created ? 201 : 200);
  });

  app.get("/:id{[0-9]+}", validate("param", idParam), async (c) => {
    return c.json(await getInvoice(deps, authOf(c), c.req.valid("param").id));
  });

  app.get("/:id{[0-9]+}/receipt", validate("param", idParam), async (c) => {
    const { html, fileName } = await invoiceReceipt(deps, authOf(c), c.req.valid("param").id);
    return c.body(html, 200, {
      "content-type": "text/html; charset=utf-8",
      "content-disposition": `attachment; filename="${fileName}"`,
    });
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
