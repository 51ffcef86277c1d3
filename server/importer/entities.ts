import type { Database } from "../../db/client.ts";
import { seedCompanySettings } from "../seed.ts";
import { DEFAULT_SETTINGS } from "../settings/defaults.ts";
import { upsertSetting } from "../settings/repository.ts";
import type { MediaConfig } from "../media/store.ts";
import { type Context, type Entity, iso } from "./engine.ts";
import { copyMedia } from "./media.ts";
import {
  emailTaken,
  insertRows,
  nameTaken,
  openTicketOf,
  recordClosedHistory,
  setQuoted,
} from "./repository.ts";
import type { Row } from "./source.ts";
import { centsOf } from "../../contract/money.ts";

/**
 * What comes over, table by table (issue 47; the rules are README's 'Switching from Whaticket or
 * ticketz'). Each entity reads one source table in id order and says what our row is, or why the
 * record is skipped. Order matters: a record's references are imported before it.
 */

const str = (v: unknown, fallback = ""): string =>
  v === null || v === undefined ? fallback : String(v);
const flag = (v: unknown): 0 | 1 => (v === true || v === 1 || v === "1" || v === "t" ? 1 : 0);
const json = (v: unknown): string =>
  v === null || v === undefined ? "[]" : typeof v === "string" ? v : JSON.stringify(v);

type State = {
  multi: boolean;
  /** whaticket-community: the one company everything goes to. */
  single?: number;
  media?: { dir: string; config: MediaConfig };
  pendingQuotes?: { self: string; quoted: string; companyId: number }[];
};

const state = (ctx: Context) => ctx.state as State;

/** The SaaS line's company column, or nothing (community has one company). */
const companyCol = (ctx: Context, alias: string) =>
  state(ctx).multi ? `${alias}."companyId"` : "NULL::int";

/** WHERE for --company: only that source company's rows. */
function only(ctx: Context, alias: string): { where: string; params: unknown[] } {
  if (!state(ctx).multi || ctx.only === "all") return { where: "TRUE", params: [] };
  return { where: `${alias}."companyId" = $1`, params: [ctx.only] };
}

function companyOf(ctx: Context, sourceCompany: unknown): number | undefined {
  const s = state(ctx);
  if (!s.multi) return s.single;
  if (sourceCompany === null || sourceCompany === undefined) return undefined;
  return ctx.fresh.get("companies")?.get(String(sourceCompany));
}

const byCompany = (row: Row, ctx: Context) => companyOf(ctx, row._company ?? row.companyId);

const stamps = (row: Row, now: string) => {
  const createdAt = iso(row.createdAt) ?? now;
  return { createdAt, updatedAt: iso(row.updatedAt) ?? createdAt };
};

/** A free name: the source's, else "<name> (importada)", "(importada 2)"... */
async function freeName(db: Database, table: "companies" | "plans", name: string) {
  if (!await nameTaken(db, table, name)) return name;
  for (let n = 1;; n++) {
    const candidate = n === 1 ? `${name} (importada)` : `${name} (importada ${n})`;
    if (!await nameTaken(db, table, candidate)) return candidate;
  }
}

const simple = (
  ctx: Context,
  table: string,
  alias: string,
  extra = "",
): { sql: string; params: unknown[] } => {
  const o = only(ctx, alias);
  return {
    sql: `SELECT ${alias}.*, ${
      companyCol(ctx, alias)
    } AS "_company" FROM "${table}" ${alias} ${extra} WHERE ${o.where} ORDER BY ${alias}."id"`,
    params: o.params,
  };
};

export const PLANS: Entity = {
  kind: "plans",
  table: "plans",
  query: async (ctx) =>
    state(ctx).multi && await ctx.source.hasTable("Plans")
      ? {
        sql: ctx.only === "all"
          ? `SELECT * FROM "Plans" ORDER BY "id"`
          : `SELECT p.* FROM "Plans" p WHERE p."id" IN (SELECT "planId" FROM "Companies" WHERE "id" = $1) ORDER BY p."id"`,
        params: ctx.only === "all" ? [] : [ctx.only],
      }
      : null,
  key: (r) => String(r.id),
  company: () => 0,
  build: async (row, ctx) => {
    const name = await freeName(ctx.db, "plans", str(row.name, "Plano"));
    if (name !== row.name) ctx.notes.push(`plan "${row.name}" imported as "${name}"`);
    const flags = (col: string) => (col in row ? flag(row[col]) : 1);
    return {
      values: {
        name,
        users: Number(row.users ?? 0),
        connections: Number(row.connections ?? 0),
        queues: Number(row.queues ?? 0),
        valueCents: centsOf(Number(row.value ?? 0)),
        useCampaigns: flags("useCampaigns"),
        useSchedules: flags("useSchedules"),
        useInternalChat: flags("useInternalChat"),
        useExternalApi: flags("useExternalApi"),
        useKanban: flags("useKanban"),
        useOpenAi: flags("useOpenAi"),
        useIntegrations: flags("useIntegrations"),
        ...stamps(row, ctx.now),
      },
    };
  },
};

export const COMPANIES: Entity = {
  kind: "companies",
  table: "companies",
  query: (ctx) =>
    Promise.resolve(
      state(ctx).multi
        ? {
          sql: `SELECT * FROM "Companies" c WHERE ${
            only(ctx, "c").where.replace(`c."companyId"`, `c."id"`)
          } ORDER BY "id"`,
          params: only(ctx, "c").params,
        }
        : null,
    ),
  key: (r) => String(r.id),
  company: () => 0,
  refs: (r) => ({ plan: ["plans", r.planId] }),
  build: async (row, ctx, refs) => {
    const name = await freeName(ctx.db, "companies", str(row.name, "Empresa"));
    if (name !== row.name) ctx.notes.push(`company "${row.name}" imported as "${name}"`);
    const due = iso(row.dueDate);
    return {
      values: {
        name,
        email: row.email ?? null,
        phone: row.phone ?? null,
        planId: refs.get("plan"),
        status: row.status === false ? 0 : 1,
        dueDate: due ? due.slice(0, 10) : null,
        recurrence: row.recurrence ? String(row.recurrence) : null,
        schedules: json(row.schedules),
        ...stamps(row, ctx.now),
      },
      after: (db, id) => seedCompanySettings(db, id, ctx.now),
    };
  },
};

/** The settings Balcão has (others, e.g. a fork's own, are skipped and counted). */
export const SETTINGS: Entity = {
  kind: "settings",
  table: "settings",
  query: (ctx) =>
    Promise.resolve(
      state(ctx).multi ? simple(ctx, "Settings", "s") : {
        sql: `SELECT s.*, NULL::int AS "_company" FROM "Settings" s ORDER BY s."key"`,
        params: [],
      },
    ),
  key: (r) => String(r.id ?? r.key),
  company: byCompany,
  oneByOne: true,
  // The company's defaults are there already (seeded with it): the source's value replaces them.
  insert: async (db, values) =>
    (await upsertSetting(
      db,
      values.companyId as number,
      values.key as string,
      values.value as string,
      values.updatedAt as string,
    )).id,
  build: (row, ctx, _refs, companyId) => {
    const key = str(row.key);
    if (!(key in DEFAULT_SETTINGS)) return { skip: "no such setting in Balcão" };
    return {
      values: { companyId, key, value: str(row.value), ...stamps(row, ctx.now) },
    };
  },
};

export const CONNECTIONS: Entity = {
  kind: "whatsapps",
  table: "whatsapps",
  query: (ctx) => Promise.resolve(simple(ctx, "Whatsapps", "w")),
  key: (r) => String(r.id),
  company: byCompany,
  build: (row, ctx, _refs, companyId) => ({
    values: {
      companyId,
      name: str(row.name, `Conexão ${row.id}`),
      // A WhatsApp session is not portable: the connection asks for a new QR code.
      status: "DISCONNECTED",
      qrcode: "",
      retries: 0,
      isDefault: flag(row.isDefault),
      greetingMessage: str(row.greetingMessage),
      complationMessage: str(row.complationMessage ?? row.farewellMessage),
      outOfHoursMessage: str(row.outOfHoursMessage),
      ratingMessage: str(row.ratingMessage),
      ...stamps(row, ctx.now),
    },
  }),
};

export const QUEUES: Entity = {
  kind: "queues",
  table: "queues",
  query: (ctx) => Promise.resolve(simple(ctx, "Queues", "q")),
  key: (r) => String(r.id),
  company: byCompany,
  build: (row, ctx, _refs, companyId) => ({
    values: {
      companyId,
      name: str(row.name),
      color: str(row.color, "#888888"),
      greetingMessage: str(row.greetingMessage),
      outOfHoursMessage: str(row.outOfHoursMessage),
      schedules: json(row.schedules),
      orderQueue: row.orderQueue === undefined ? null : (row.orderQueue as number | null),
      ...stamps(row, ctx.now),
    },
  }),
};

/** Chatbot trees: a parent is imported before its children (ids grow downwards the tree). */
export const QUEUE_OPTIONS: Entity = {
  kind: "queue_options",
  table: "queue_options",
  query: async (ctx) =>
    await ctx.source.hasTable("QueueOptions")
      ? withParent(ctx, "QueueOptions", "o", "Queues", "queueId")
      : null,
  key: (r) => String(r.id),
  company: byCompany,
  oneByOne: true,
  refs: (r) => ({ queue: ["queues", r.queueId], parent: ["queue_options", r.parentId] }),
  build: (row, ctx, refs, companyId) => {
    const queueId = refs.get("queue");
    if (queueId === null) return { skip: "its queue is not imported" };
    const parentId = refs.get("parent");
    if (row.parentId !== null && row.parentId !== undefined && parentId === null) {
      return { skip: "its parent option is not imported" };
    }
    return {
      values: {
        companyId,
        queueId,
        parentId,
        title: str(row.title),
        message: str(row.message),
        option: str(row.option),
        ...stamps(row, ctx.now),
      },
    };
  },
};

function linkQuery(
  ctx: Context,
  table: string,
  parent: string,
  parentCol: string,
  cols: [string, string],
) {
  const o = only(ctx, "p");
  return {
    sql: `SELECT l."${cols[0]}", l."${cols[1]}", ${
      companyCol(ctx, "p")
    } AS "_company" FROM "${table}" l JOIN "${parent}" p ON p."id" = l."${parentCol}"
      WHERE ${o.where} ORDER BY l."${cols[0]}", l."${cols[1]}"`,
    params: o.params,
  };
}

export const CONNECTION_QUEUES: Entity = {
  kind: "whatsapp_queues",
  table: "whatsapp_queues",
  link: true,
  query: (ctx) =>
    Promise.resolve(linkQuery(ctx, "WhatsappQueues", "Whatsapps", "whatsappId", [
      "whatsappId",
      "queueId",
    ])),
  key: (r) => `${r.whatsappId}-${r.queueId}`,
  company: byCompany,
  refs: (r) => ({ w: ["whatsapps", r.whatsappId], q: ["queues", r.queueId] }),
  build: (_row, _ctx, refs, companyId) => {
    const whatsappId = refs.get("w"), queueId = refs.get("q");
    if (whatsappId === null || queueId === null) {
      return { skip: "its connection or queue is not imported" };
    }
    return { values: { companyId, whatsappId, queueId } };
  },
};

const PROFILES = new Set(["admin", "user"]);

export const USERS: Entity = {
  kind: "users",
  table: "users",
  query: (ctx) => Promise.resolve(simple(ctx, "Users", "u")),
  key: (r) => String(r.id),
  company: byCompany,
  oneByOne: true,
  refs: (r) => ({ whatsapp: ["whatsapps", r.whatsappId] }),
  build: async (row, ctx, refs, companyId, mappedId) => {
    const email = str(row.email).trim().toLowerCase();
    if (await emailTaken(ctx.db, email, mappedId)) {
      return { skip: "e-mail already used by a Balcão user" };
    }
    const profile = str(row.profile, "user");
    if (row.super === true) {
      ctx.notes.push(`user ${email} was a super user there: imported as a company admin`);
    }
    return {
      values: {
        companyId,
        name: str(row.name),
        email,
        // bcrypt hashes as they are: people sign in with their old passwords.
        passwordHash: str(row.passwordHash),
        profile: row.super === true ? "admin" : PROFILES.has(profile) ? profile : "user",
        super: 0,
        whatsappId: refs.get("whatsapp"),
        tokenVersion: Number(row.tokenVersion ?? 0),
        lastSeenAt: null,
        ...stamps(row, ctx.now),
      },
    };
  },
};

export const USER_QUEUES: Entity = {
  kind: "user_queues",
  table: "user_queues",
  link: true,
  query: (ctx) =>
    Promise.resolve(linkQuery(ctx, "UserQueues", "Users", "userId", ["userId", "queueId"])),
  key: (r) => `${r.userId}-${r.queueId}`,
  company: byCompany,
  refs: (r) => ({ u: ["users", r.userId], q: ["queues", r.queueId] }),
  build: (_row, _ctx, refs, companyId) => {
    const userId = refs.get("u"), queueId = refs.get("q");
    if (userId === null || queueId === null) return { skip: "its user or queue is not imported" };
    return { values: { companyId, userId, queueId } };
  },
};

export const CONTACTS: Entity = {
  kind: "contacts",
  table: "contacts",
  query: (ctx) => Promise.resolve(simple(ctx, "Contacts", "c")),
  key: (r) => String(r.id),
  company: byCompany,
  build: (row, ctx, _refs, companyId) => {
    const raw = str(row.number).trim();
    // A contact known only by its LID (…@lid): the LID stands for the number until WhatsApp
    // tells the phone, as our inbound contacts do.
    const lid = /@lid$/.test(raw) ? raw.replace(/@lid$/, "") : null;
    const number = lid ?? raw.replace(/@.*$/, "");
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
};

export const CONTACT_FIELDS: Entity = {
  kind: "contact_custom_fields",
  table: "contact_custom_fields",
  query: (ctx) =>
    Promise.resolve(withParent(ctx, "ContactCustomFields", "f", "Contacts", "contactId")),
  key: (r) => String(r.id),
  company: byCompany,
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
};

/** Rows of a table without a company column, with their parent's company. */
function withParent(ctx: Context, table: string, alias: string, parent: string, col: string) {
  const o = only(ctx, "p");
  return {
    sql: `SELECT ${alias}.*, ${companyCol(ctx, "p")} AS "_company" FROM "${table}" ${alias}
      JOIN "${parent}" p ON p."id" = ${alias}."${col}" WHERE ${o.where} ORDER BY ${alias}."id"`,
    params: o.params,
  };
}

export const TAGS: Entity = {
  kind: "tags",
  table: "tags",
  query: async (ctx) => await ctx.source.hasTable("Tags") ? simple(ctx, "Tags", "t") : null,
  key: (r) => String(r.id),
  company: byCompany,
  build: (row, ctx, _refs, companyId) => ({
    values: {
      companyId,
      name: str(row.name),
      color: str(row.color, "#888888"),
      kanban: flag(row.kanban),
      ...stamps(row, ctx.now),
    },
  }),
};

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

export const TICKETS: Entity = {
  kind: "tickets",
  table: "tickets",
  query: (ctx) => Promise.resolve(simple(ctx, "Tickets", "t")),
  key: (r) => String(r.id),
  company: byCompany,
  // An open or pending ticket one at a time (the check below); closed ones in bulk.
  oneByOne: (values) => values.status !== "closed",
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
};

export const TICKET_TAGS: Entity = {
  kind: "ticket_tags",
  table: "ticket_tags",
  link: true,
  query: async (ctx) =>
    await ctx.source.hasTable("TicketTags")
      ? linkQuery(ctx, "TicketTags", "Tickets", "ticketId", ["ticketId", "tagId"])
      : null,
  key: (r) => `${r.ticketId}-${r.tagId}`,
  company: byCompany,
  refs: (r) => ({ t: ["tickets", r.ticketId], g: ["tags", r.tagId] }),
  build: (_row, _ctx, refs, companyId) => {
    const ticketId = refs.get("t"), tagId = refs.get("g");
    if (ticketId === null || tagId === null) return { skip: "its ticket or tag is not imported" };
    return { values: { companyId, ticketId, tagId } };
  },
};

const PLACEHOLDER = "📎 arquivo não encontrado na importação";

export const MESSAGES: Entity = {
  kind: "messages",
  table: "messages",
  // By time then id: a quoted message comes before the answer that quotes it.
  query: (ctx) => {
    const o = only(ctx, "m");
    return Promise.resolve({
      sql: `SELECT m.*, ${companyCol(ctx, "m")} AS "_company", t."whatsappId" AS "_whatsapp"
        FROM "Messages" m JOIN "Tickets" t ON t."id" = m."ticketId"
        WHERE ${o.where} ORDER BY m."createdAt", m."id"`,
      params: o.params,
    });
  },
  key: (r) => String(r.id),
  company: (row, ctx) =>
    state(ctx).multi ? companyOf(ctx, row._company ?? row.companyId) : state(ctx).single,
  refs: (r) => ({
    ticket: ["tickets", r.ticketId],
    contact: ["contacts", r.contactId],
    whatsapp: ["whatsapps", r._whatsapp],
    quoted: ["messages", r.quotedMsgId],
  }),
  build: async (row, ctx, refs, companyId, mappedId) => {
    const ticketId = refs.get("ticket");
    if (ticketId === null) return { skip: "its ticket is not imported" };
    let body = str(row.body);
    let media: { mediaUrl: string | null; mediaMimetype: string | null; mediaName: string | null } =
      { mediaUrl: null, mediaMimetype: null, mediaName: null };
    // An update (an ack, an edit) keeps the file the first import stored.
    const mediaUrl = row.mediaUrl && mappedId === null ? String(row.mediaUrl) : "";
    if (mediaUrl) {
      const m = state(ctx).media;
      if (!m) ctx.note(companyId, "messages", "media not copied (no --media)");
      else {
        const copied = await copyMedia(m.config, m.dir, companyId, mediaUrl, row._company);
        if (copied === "missing") {
          ctx.note(companyId, "messages", "media file missing (message kept with a placeholder)");
          body = body ? `${PLACEHOLDER}: ${body}` : PLACEHOLDER;
        } else {media = {
            mediaUrl: copied.path,
            mediaMimetype: copied.mimetype,
            mediaName: copied.name,
          };}
      }
    }
    const quoted = refs.get("quoted");
    if (row.quotedMsgId && quoted === null) {
      (state(ctx).pendingQuotes ??= []).push({
        self: String(row.id),
        quoted: String(row.quotedMsgId),
        companyId,
      });
    }
    const fromMe = flag(row.fromMe);
    const mediaType = row.mediaType && row.mediaType !== "chat" ? String(row.mediaType) : null;
    return {
      values: {
        companyId,
        ticketId,
        contactId: fromMe ? null : refs.get("contact"),
        whatsappId: refs.get("whatsapp"),
        wid: String(row.id),
        remoteJid: row.remoteJid ? String(row.remoteJid) : null,
        participant: row.participant ? String(row.participant) : null,
        body,
        fromMe,
        mediaType,
        ...(mappedId === null ? media : {}),
        isDeleted: flag(row.isDeleted),
        isEdited: flag(row.isEdited),
        ack: Number(row.ack ?? 0),
        read: flag(row.read),
        quotedMsgId: quoted,
        dataJson: row.dataJson ? String(row.dataJson) : null,
        ...stamps(row, ctx.now),
      },
    };
  },
  // Quotes of a message of the same batch: resolved once the batch's ids are known.
  afterBatch: async (db, ctx) => {
    const pending = state(ctx).pendingQuotes ?? [];
    state(ctx).pendingQuotes = [];
    if (pending.length === 0) return;
    const fresh = ctx.fresh.get("messages")!;
    for (const p of pending) {
      const id = fresh.get(p.self), quotedMsgId = fresh.get(p.quoted);
      if (id === undefined) continue;
      if (quotedMsgId === undefined) {
        ctx.note(p.companyId, "messages", "quoted message missing (kept without the quote)");
        continue;
      }
      await setQuoted(db, p.companyId, [{ id, quotedMsgId }]);
    }
  },
};

export const QUICK_ANSWERS: Entity = {
  kind: "quick_messages",
  table: "quick_messages",
  query: async (ctx) =>
    await ctx.source.hasTable("QuickMessages")
      ? simple(ctx, "QuickMessages", "q")
      : await ctx.source.hasTable("QuickAnswers")
      ? {
        sql: `SELECT q.*, NULL::int AS "_company" FROM "QuickAnswers" q ORDER BY q."id"`,
        params: [],
      }
      : null,
  key: (r) => String(r.id),
  company: byCompany,
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
};

export const SCHEDULES: Entity = {
  kind: "schedules",
  table: "schedules",
  query: async (ctx) =>
    await ctx.source.hasTable("Schedules") ? simple(ctx, "Schedules", "s") : null,
  key: (r) => String(r.id),
  company: byCompany,
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
};

export const RATINGS: Entity = {
  kind: "user_ratings",
  table: "user_ratings",
  query: async (ctx) =>
    await ctx.source.hasTable("UserRatings") ? simple(ctx, "UserRatings", "r") : null,
  key: (r) => String(r.id),
  company: byCompany,
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
};

export const NOTES: Entity = {
  kind: "ticket_notes",
  table: "ticket_notes",
  query: async (ctx) =>
    await ctx.source.hasTable("TicketNotes")
      ? withParent(ctx, "TicketNotes", "n", "Contacts", "contactId")
      : null,
  key: (r) => String(r.id),
  company: byCompany,
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
};

export const ENTITIES: Entity[] = [
  PLANS,
  COMPANIES,
  SETTINGS,
  CONNECTIONS,
  QUEUES,
  QUEUE_OPTIONS,
  CONNECTION_QUEUES,
  USERS,
  USER_QUEUES,
  CONTACTS,
  CONTACT_FIELDS,
  TAGS,
  TICKETS,
  TICKET_TAGS,
  MESSAGES,
  QUICK_ANSWERS,
  SCHEDULES,
  RATINGS,
  NOTES,
];
