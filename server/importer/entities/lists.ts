import { centsOf } from "../../../contract/money.ts";
import { type Entity, iso } from "../engine.ts";
import { num, optional, stamps, str, tableEntity } from "./shared.ts";

/**
 * A company's contact lists (the campaigns' recipients) and its invoices (issue 47; Whaticket
 * SaaS' ContactLists, ContactListItems and Invoices).
 */

export const CONTACT_LISTS: Entity = tableEntity({
  kind: "contact_lists",
  query: optional("ContactLists", "l"),
  build: (row, ctx, _refs, companyId) => ({
    values: { companyId, name: str(row.name, `Lista ${row.id}`), ...stamps(row, ctx.now) },
  }),
});

export const CONTACT_LIST_ITEMS: Entity = tableEntity({
  kind: "contact_list_items",
  query: optional("ContactListItems", "i"),
  refs: (r) => ({ list: ["contact_lists", r.contactListId] }),
  build: (row, ctx, refs, companyId) => {
    const contactListId = refs.get("list");
    if (contactListId === null) return { skip: "its contact list is not imported" };
    const number = str(row.number).replace(/\D/g, "");
    if (number === "") return { skip: "no number" };
    const valid = row.isWhatsappValid;
    return {
      values: {
        companyId,
        contactListId,
        name: str(row.name, number),
        number,
        email: str(row.email),
        // Checked there: the answer comes over; not checked: our campaigns check it.
        isWhatsappValid: valid === null || valid === undefined ? null : valid ? 1 : 0,
        checkedAt: valid === null || valid === undefined ? null : iso(row.updatedAt),
        ...stamps(row, ctx.now),
      },
    };
  },
});

export const INVOICES: Entity = tableEntity({
  kind: "invoices",
  query: optional("Invoices", "v"),
  build: (row, ctx, _refs, companyId) => {
    const dueDate = iso(row.dueDate)?.slice(0, 10);
    if (!dueDate) return { skip: "no due date" };
    const paid = str(row.status).toLowerCase() === "paid";
    const { createdAt, updatedAt } = stamps(row, ctx.now);
    return {
      values: {
        companyId,
        detail: str(row.detail),
        valueCents: centsOf(num(row.value)),
        dueDate,
        status: paid ? "paid" : "open",
        // Paid there: when is not recorded, its last change stands for it.
        paidAt: paid ? updatedAt : null,
        paidVia: paid ? "import" : null,
        createdAt,
        updatedAt,
      },
    };
  },
});
