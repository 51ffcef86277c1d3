import type { Entity } from "../engine.ts";
import { emailTaken } from "../repository.ts";
import { flag, json, linkEntity, optional, stamps, str, tableEntity } from "./shared.ts";

/** How a company works (issue 47): connections, queues and chatbot trees, users. */

export const CONNECTIONS: Entity = tableEntity({
  kind: "whatsapps",
  query: optional("Whatsapps", "w"),
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
});

export const QUEUES: Entity = tableEntity({
  kind: "queues",
  query: optional("Queues", "q"),
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
});

/** Chatbot trees: a parent is imported before its children (ids grow downwards the tree). */
export const QUEUE_OPTIONS: Entity = tableEntity({
  kind: "queue_options",
  query: optional("QueueOptions", "o", ["Queues", "queueId"]),
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
});

export const CONNECTION_QUEUES = linkEntity(
  "whatsapp_queues",
  { table: "WhatsappQueues", parent: "Whatsapps", parentCol: "whatsappId" },
  [["whatsappId", "whatsapps", "whatsappId"], ["queueId", "queues", "queueId"]],
  "its connection or queue is not imported",
);

const PROFILES = new Set(["admin", "user"]);

export const USERS: Entity = tableEntity({
  kind: "users",
  query: optional("Users", "u"),
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
});

export const USER_QUEUES = linkEntity(
  "user_queues",
  { table: "UserQueues", parent: "Users", parentCol: "userId" },
  [["userId", "users", "userId"], ["queueId", "queues", "queueId"]],
  "its user or queue is not imported",
);
