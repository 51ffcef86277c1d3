import { Hono } from "hono";
import { z } from "zod";
import { allow, requireAuth } from "../../server/auth/middleware.ts";
import { exportContactsCsv, importContacts } from "../../server/contacts/import.ts";
import {
  contactOptions,
  createContact,
  deleteContact,
  getContact,
  listContactsPage,
  updateContact,
} from "../../server/contacts/service.ts";
import { type AppDeps, type AppEnv, authOf } from "../../server/context.ts";
import { limitedText, name2to50, optionalEmail } from "../../server/http/fields.ts";
import { idParam, pageNumber } from "../../server/http/params.ts";
import { validate } from "../../server/http/validate.ts";
import { fileField } from "../../server/media/uploads.ts";
import { isoDate } from "../../server/clock.ts";
import { LIMITS } from "../../contract/validation.ts";

/** seeds/000 section 5 'Contact form': number 8 to 50 characters, normalised by the service. */
const number = limitedText(LIMITS.contactNumber);

const extraInfo = z.array(z.object({
  id: z.number().int().positive().optional(),
  name: z.string().trim().min(1, "Required").max(100, "Too Long!"),
  value: z.string().trim().max(1000, "Too Long!"),
})).max(50);

const contactBody = z.object({
  name: name2to50,
  number,
  email: optionalEmail.optional(),
  extraInfo: extraInfo.optional(),
});

const listQuery = z.object({ searchParam: z.string().max(100).optional(), pageNumber });
const optionsQuery = z.object({
  searchParam: z.string().max(100).optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});

export function contactRoutes(deps: AppDeps) {
  const app = new Hono<AppEnv>();
  app.use("*", requireAuth(deps), allow("contact:work"));

  app.get("/", validate("query", listQuery), async (c) => {
    return c.json(await listContactsPage(deps, authOf(c).companyId, c.req.valid("query")));
  });

  app.get("/list", validate("query", optionsQuery), async (c) => {
    return c.json(await contactOptions(deps, authOf(c).companyId, c.req.valid("query")));
  });

  // Export and import move the whole contact base: company admins only.
  app.get("/export", allow("contact:export"), (c) => {
    const name = `contatos-${isoDate(deps.clock.now())}.csv`;
    return c.body(exportContactsCsv(deps, authOf(c).companyId), 200, {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="${name}"`,
    });
  });

  // POST /upload is the same import under the specification's client's path (multipart `file`).
  for (const path of ["/import", "/upload"]) {
    app.post(path, allow("contact:import"), async (c) => {
      const body = await c.req.parseBody();
      const file = fileField(body);
      const updateExisting = String(body.updateExisting ?? "true") !== "false";
      return c.json(await importContacts(deps, authOf(c).companyId, file, { updateExisting }));
    });
  }

  app.get("/:id", validate("param", idParam), async (c) => {
    return c.json(await getContact(deps, authOf(c).companyId, c.req.valid("param").id));
  });

  app.post("/", validate("json", contactBody), async (c) => {
    return c.json(await createContact(deps, authOf(c).companyId, c.req.valid("json")), 201);
  });

  app.put(
    "/:id",
    validate("param", idParam),
    validate("json", contactBody.partial()),
    async (c) => {
      const { id } = c.req.valid("param");
      return c.json(await updateContact(deps, authOf(c).companyId, id, c.req.valid("json")));
    },
  );

  // seeds/000 section 6: contacts-page:deleteContact is an admin action.
  app.delete("/:id", allow("contact:delete"), validate("param", idParam), async (c) => {
    await deleteContact(deps, authOf(c).companyId, c.req.valid("param").id);
    return c.body(null, 204);
  });

  return app;
}
