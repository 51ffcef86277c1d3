import { type Entity, iso } from "../engine.ts";
import { ticketsDerived } from "../derived_repository.ts";
import { insertRows, openTicketOf, recordClosedHistory } from "../repository.ts";
import { flag, linkEntity, optional, stamps, str, tableEntity } from "./shared.ts";

/** Conversations (issue 47): tickets and their tags, ratings, notes; quick answers, schedules. */

const STATUSES: Record<string, "open" | "pending" | "closed"> = {
  open: "open",
  pending: "pending",
  closed: "closed",
  group: "open",
};

const closedOf = (id: number, v: Record<string, unknown>) => ({
  companyId: v.companyId as number,
  id,
  createdAt: v.createdAt as string,
  closedAt: v.closedAt as string,
  userId: v.userId as number | null,
  queueId: v.queueId as number | null,
  whatsappId: v.whatsappId as number | null,
});

export const TICKETS: Entity = tableEntity({
  kind: "tickets",
  query: optional("Tickets", "t"),
  // An open or pending ticket one at a time (the check below); closed ones in bulk.
  oneByOne: (values) => values.status !== "closed",
  derived: ticketsDerived,
  afterMany: (db, rows) =>
    recordClosedHistory(db, rows.map(({ id, values }) => closedOf(id, values))),
  refs: (r) => ({
    contact: ["contacts", r.contactId],
    user: ["users", r.userId],
    queue: ["queues", r.queueId],
    whatsapp: ["whatsapps", r.whatsappId],
    option: ["queue_options", r.queueOptionId],
  }),
  // One at a time: Balcão keeps one open ticket per contact and connection (tickets_one_open),
  // so a source's second open one of the same pair comes over closed.
  insert: async (db, values, ctx) => {
    const v = { ...values };
    const companyId = v.companyId as number;
    if (
      v.status !== "closed" &&
      await openTicketOf(db, companyId, v.contactId as number, v.whatsappId as number | null)
    ) {
      v.status = "closed";
      v.closedAt = v.updatedAt;
      ctx.note(companyId, "tickets", "imported closed: its contact had another open ticket");
    }
    const [id] = await insertRows(db, "tickets", [v]);
    if (v.status === "closed") await recordClosedHistory(db, [closedOf(id, v)]);
    return id;
  },
  build: (row, ctx, refs, companyId) => {
    const contactId = refs.get("contact");
    if (contactId === null) return { skip: "its contact is not imported" };
    const status = STATUSES[str(row.status)] ?? "closed";
    const { createdAt, updatedAt } = stamps(row, ctx.now);
    return {
      values: {
        uuid: row.uuid ? String(row.uuid) : crypto.randomUUID(),
        companyId,
        contactId,
        whatsappId: refs.get("whatsapp"),
        userId: refs.get("user"),
        queueId: refs.get("queue"),
        queueOptionId: refs.get("option"),
        status,
        isGroup: flag(row.isGroup),
        chatbot: flag(row.chatbot),
        lastMessage: str(row.lastMessage),
        unreadMessages: Number(row.unreadMessages ?? 0),
        acceptedAt: null,
        closedAt: status === "closed" ? updatedAt : null,
        createdAt,
        updatedAt,
      },
    };
  },
});

export const TICKET_TAGS = linkEntity(
  "ticket_tags",
  { table: "TicketTags", parent: "Tickets", parentCol: "ticketId", optional: true },
  [["ticketId", "tickets", "ticketId"], ["tagId", "tags", "tagId"]],
  "its ticket or tag is not imported",
);

export const QUICK_ANSWERS: Entity = tableEntity({
  kind: "quick_messages",
  // The SaaS line's QuickMessages, or whaticket-community's QuickAnswers (one company).
  query: async (ctx) =>
    await optional("QuickMessages", "q")(ctx) ?? await optional("QuickAnswers", "q")(ctx),
  refs: (r) => ({ user: ["users", r.userId] }),
  build: (row, ctx, refs, companyId) => {
    const userId = refs.get("user");
    return {
      values: {
        companyId,
        userId,
        shortcode: str(row.shortcode ?? row.shortcut).replace(/^\//, ""),
        message: str(row.message),
        geral: userId === null ? 1 : 0,
        ...stamps(row, ctx.now),
      },
    };
  },
});

export const SCHEDULES: Entity = tableEntity({
  kind: "schedules",
  query: optional("Schedules", "s"),
  refs: (r) => ({
    contact: ["contacts", r.contactId],
    ticket: ["tickets", r.ticketId],
    user: ["users", r.userId],
  }),
  build: (row, ctx, refs, companyId) => {
    const contactId = refs.get("contact");
    if (contactId === null) return { skip: "its contact is not imported" };
    const sentAt = iso(row.sentAt);
    // Pending ones stay pending: our schedules job sends them when due.
    const status = sentAt ? "ENVIADA" : str(row.status) === "ERRO" ? "ERRO" : "PENDENTE";
    return {
      values: {
        companyId,
        contactId,
        ticketId: refs.get("ticket"),
        userId: refs.get("user"),
        body: str(row.body),
        sendAt: iso(row.sendAt) ?? ctx.now,
        sentAt,
        status,
        ...stamps(row, ctx.now),
      },
    };
  },
});

export const RATINGS: Entity = tableEntity({
  kind: "user_ratings",
  query: optional("UserRatings", "r"),
  link: false,
  refs: (r) => ({ ticket: ["tickets", r.ticketId], user: ["users", r.userId] }),
  build: (row, ctx, refs, companyId) => {
    const ticketId = refs.get("ticket");
    if (ticketId === null) return { skip: "its ticket is not imported" };
    const rate = Number(row.rate);
    if (!(rate >= 1 && rate <= 3)) return { skip: "rate outside 1-3" };
    return {
      values: {
        companyId,
        ticketId,
        userId: refs.get("user"),
        rate,
        createdAt: iso(row.createdAt) ?? ctx.now,
      },
    };
  },
});

export const NOTES: Entity = tableEntity({
  kind: "ticket_notes",
  query: optional("TicketNotes", "n", ["Contacts", "contactId"]),
  refs: (r) => ({
    ticket: ["tickets", r.ticketId],
    contact: ["contacts", r.contactId],
    user: ["users", r.userId],
  }),
  build: (row, ctx, refs, companyId) => {
    const ticketId = refs.get("ticket"), contactId = refs.get("contact");
    if (ticketId === null || contactId === null) return { skip: "its ticket is not imported" };
    return {
      values: {
        companyId,
        ticketId,
        contactId,
        userId: refs.get("user"),
        note: str(row.note),
        ...stamps(row, ctx.now),
      },
    };
  },
});
