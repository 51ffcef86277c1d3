import type { Entity } from "../engine.ts";
import { companyCol, flag, only, optional, stamps, str, tableEntity } from "./shared.ts";

/** Who a company talks to (issue 47): contacts, their extra fields, tags. */

export const CONTACTS: Entity = tableEntity({
  kind: "contacts",
  // ticketz keeps a contact's LID beside it (WhatsappLidMaps, one per company and LID).
  query: async (ctx) => {
    if (!await ctx.source.hasTable("WhatsappLidMaps")) return optional("Contacts", "c")(ctx);
    const o = only(ctx, "c");
    return {
      sql: `SELECT c.*, ${companyCol(ctx, "c")} AS "_company",
          (SELECT lm."lid" FROM "WhatsappLidMaps" lm WHERE lm."contactId" = c."id"
            ORDER BY lm."id" LIMIT 1) AS "_lid"
        FROM "Contacts" c WHERE ${o.where} ORDER BY c."id"`,
      params: o.params,
    };
  },
  build: (row, ctx, _refs, companyId) => {
    const raw = str(row.number).trim();
    // A contact known only by its LID (…@lid): the LID stands for the number until WhatsApp
    // tells the phone, as our inbound contacts do.
    const lid = /@lid$/.test(raw)
      ? raw.replace(/@lid$/, "")
      : row._lid
      ? str(row._lid).replace(/@.*$/, "")
      : null;
    const number = /@lid$/.test(raw) ? lid! : raw.replace(/@.*$/, "");
    if (number === "") return { skip: "no number" };
    return {
      values: {
        uuid: crypto.randomUUID(),
        companyId,
        name: str(row.name, number),
        number,
        lid,
        email: str(row.email),
        profilePicUrl: str(row.profilePicUrl),
        isGroup: flag(row.isGroup),
        ...stamps(row, ctx.now),
      },
    };
  },
});

export const CONTACT_FIELDS: Entity = tableEntity({
  kind: "contact_custom_fields",
  query: optional("ContactCustomFields", "f", ["Contacts", "contactId"]),
  refs: (r) => ({ contact: ["contacts", r.contactId] }),
  build: (row, ctx, refs, companyId) => {
    const contactId = refs.get("contact");
    if (contactId === null) return { skip: "its contact is not imported" };
    return {
      values: {
        companyId,
        contactId,
        name: str(row.name),
        value: str(row.value),
        ...stamps(row, ctx.now),
      },
    };
  },
});

/** Rows of a table without a company column, with their parent's company. */
export const TAGS: Entity = tableEntity({
  kind: "tags",
  query: optional("Tags", "t"),
  build: (row, ctx, _refs, companyId) => ({
    values: {
      companyId,
      name: str(row.name),
      color: str(row.color, "#888888"),
      kanban: flag(row.kanban),
      ...stamps(row, ctx.now),
    },
  }),
});
