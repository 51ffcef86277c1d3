import { Hono } from "hono";
import { z } from "zod";
import { allow, requireAuth } from "../../server/auth/middleware.ts";
import { type AppDeps, type AppEnv, authOf } from "../../server/context.ts";
import { requireCampaigns } from "../../server/campaigns/gate.ts";
import { exampleSpreadsheet } from "../../server/campaigns/list_example.ts";
import {
  changeItem,
  contactListChoices,
  createContactList,
  createItem,
  importItems,
  listContactLists,
  listItems,
  listItemsAll,
  readContactList,
  readItem,
  removeContactList,
  removeItem,
  renameContactList,
} from "../../server/campaigns/lists_service.ts";
import { normalizeNumber } from "../../server/contacts/numbers.ts";
import { name2to50, optionalEmail } from "../../server/http/fields.ts";
import { idParam, pageNumber } from "../../server/http/params.ts";
import { validate } from "../../server/http/validate.ts";
import { fileField } from "../../server/media/uploads.ts";
import { LIMITS } from "../../contract/validation.ts";

const search = z.object({ searchParam: z.string().max(100).optional(), pageNumber });

/** seeds/002 section 5 'Contact list item': number 8 to 50, normalised as contacts are. */
const itemNumber = z.string().trim().min(LIMITS.contactNumber.min, "Too Short!")
  .max(LIMITS.contactNumber.max, "Too Long!").transform((raw, ctx) => {
    const n = normalizeNumber(raw);
    if (!n.ok || n.isGroup) {
      ctx.addIssue({ code: "custom", message: n.ok ? "Grupos não recebem campanhas" : n.message });
      return z.NEVER;
    }
    return n.number;
  });

/** /api/contact-lists (seeds/002 section 7 'Contact lists and items'). */
export function contactListRoutes(deps: AppDeps) {
  const app = new Hono<AppEnv>();
  app.use("*", requireAuth(deps), ...requireCampaigns(deps), allow("contact-list:manage"));

  app.get("/", validate("query", search), async (c) => {
    const { searchParam, pageNumber } = c.req.valid("query");
    return c.json(await listContactLists(deps, authOf(c).companyId, searchParam, pageNumber));
  });

  app.get("/list", async (c) => c.json(await contactListChoices(deps, authOf(c).companyId)));

  // The template the page offers, written by the code the import reads with (list_example.ts).
  app.get(
    "/example.xlsx",
    async (c) =>
      c.body(await exampleSpreadsheet() as Uint8Array<ArrayBuffer>, 200, {
        "content-type": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        "content-disposition": 'attachment; filename="lista-de-contatos.xlsx"',
      }),
  );

  app.get("/:id{[0-9]+}", validate("param", idParam), async (c) => {
    return c.json(await readContactList(deps, authOf(c).companyId, c.req.valid("param").id));
  });

  app.post("/", validate("json", z.object({ name: name2to50 })), async (c) => {
    const view = await createContactList(deps, authOf(c).companyId, c.req.valid("json").name);
    return c.json(view, 201);
  });

  app.put(
    "/:id{[0-9]+}",
    validate("param", idParam),
    validate("json", z.object({ name: name2to50 })),
    async (c) => {
      const { id } = c.req.valid("param");
      return c.json(
        await renameContactList(deps, authOf(c).companyId, id, c.req.valid("json").name),
      );
    },
  );

  app.delete("/:id{[0-9]+}", validate("param", idParam), async (c) => {
    await removeContactList(deps, authOf(c).companyId, c.req.valid("param").id);
    return c.body(null, 204);
  });

  app.post("/:id{[0-9]+}/upload", validate("param", idParam), async (c) => {
    const file = fileField(await c.req.parseBody());
    return c.json(await importItems(deps, authOf(c).companyId, c.req.valid("param").id, file));
  });

  return app;
}

/** /api/contact-list-items (seeds/002 section 7). */
export function contactListItemRoutes(deps: AppDeps) {
  const app = new Hono<AppEnv>();
  app.use("*", requireAuth(deps), ...requireCampaigns(deps), allow("contact-list:manage"));
  const fields = { name: name2to50, number: itemNumber, email: optionalEmail.default("") };

  app.get(
    "/",
    validate("query", search.extend({ contactListId: z.coerce.number().int().positive() })),
    async (c) => {
      const { searchParam, pageNumber, contactListId } = c.req.valid("query");
      return c.json(
        await listItems(deps, authOf(c).companyId, contactListId, searchParam, pageNumber),
      );
    },
  );

  app.get(
    "/list",
    validate("query", z.object({ contactListId: z.coerce.number().int().positive() })),
    async (c) => {
      const { contactListId } = c.req.valid("query");
      return c.json(await listItemsAll(deps, authOf(c).companyId, contactListId));
    },
  );

  app.get("/:id{[0-9]+}", validate("param", idParam), async (c) => {
    return c.json(await readItem(deps, authOf(c).companyId, c.req.valid("param").id));
  });

  app.post(
    "/",
    validate("json", z.object({ ...fields, contactListId: z.number().int().positive() })),
    async (c) => c.json(await createItem(deps, authOf(c).companyId, c.req.valid("json")), 201),
  );

  app.put(
    "/:id{[0-9]+}",
    validate("param", idParam),
    validate("json", z.object(fields).partial()),
    async (c) => {
      const { id } = c.req.valid("param");
      return c.json(await changeItem(deps, authOf(c).companyId, id, c.req.valid("json")));
    },
  );

  // seeds/002 section 2.4: deleting an item is 'contacts-page:deleteContact', an admin action.
  app.delete("/:id{[0-9]+}", validate("param", idParam), async (c) => {
    await removeItem(deps, authOf(c).companyId, c.req.valid("param").id);
    return c.body(null, 204);
  });

  return app;
}
