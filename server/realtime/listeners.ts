import type { NamedResourceEvent, ResourceEvent } from "../../contract/events.ts";
import type { EventBus } from "../events/bus.ts";
import type { DomainEventName, DomainEvents, ListChanged } from "../events/domain.ts";
import type { Audience } from "./events.ts";
import type { Fanout } from "./delivery.ts";
import {
  publishMessage,
  publishTicketDelete,
  publishTicketSummary,
  publishTicketUnread,
  publishTicketUpdate,
  send,
  sendEveryCompany,
  sendFiltered,
} from "./publish.ts";

/**
 * The one place where domain events (server/events/domain.ts) become socket events: each names
 * its channel (contract/events.ts), its payload and its rooms. Tickets and messages follow the
 * visibility rules of publish.ts; the rest go to the company, its admins, or named users.
 */
const COMPANY: Audience[] = [{ kind: "company" }];
const ADMINS: Audience[] = [{ kind: "admins" }];

const users = (ids: readonly number[]): Audience[] =>
  ids.map((userId) => ({ kind: "user", userId }));

/** A record kept by its author and the admins (schedules; private quick answers). */
function ownerAndAdmins(userId: number | null): Audience[] {
  return [...ADMINS, ...(userId !== null ? users([userId]) : [])];
}

/** A record made or changed, also under the seeds' own name (`user`, `contact`). */
function namedRecord<T, K extends string>(
  action: "create" | "update",
  record: T,
  key: K,
): NamedResourceEvent<T, K> {
  return { action, record, [key]: record } as NamedResourceEvent<T, K>;
}

/** A record removed, its id also as `<name>Id` (`userId`, `contactId`). */
function namedDelete<K extends string>(id: number, key: K): NamedResourceEvent<never, K> {
  return { action: "delete", id, [`${key}Id`]: id } as NamedResourceEvent<never, K>;
}

function named<T, K extends string>(change: ResourceEvent<T>, key: K): NamedResourceEvent<T, K> {
  if (change.action === "reload") return change;
  if (change.action === "delete") return namedDelete(change.id, key);
  return namedRecord(change.action, change.record, key);
}

/** Live lists: company-wide, or admins only where the record is theirs alone. */
function publishList(hub: Fanout, e: ListChanged) {
  const { companyId } = e;
  switch (e.resource) {
    case "user":
      return send(hub, companyId, "user", named(e.change, "user"));
    case "tag":
      return send(hub, companyId, "tag", named(e.change, "tag"));
    case "prompt":
      return send(hub, companyId, "prompt", named(e.change, "prompt"));
    case "file":
      return send(hub, companyId, "file", e.change);
    case "campaign":
      return send(hub, companyId, "campaign", e.change);
    case "contactList":
      return send(hub, companyId, "contactList", e.change);
    case "contactListItem":
      return send(hub, companyId, "contactListItem", e.change);
    // The record carries the signing secret; the pages and routes are the admins'.
    case "webhook":
      return send(hub, companyId, "webhook", e.change, ADMINS);
    case "queueIntegration":
      return send(hub, companyId, "queueIntegration", e.change, ADMINS);
    // Only admins see /financeiro.
    case "invoice":
      return send(hub, companyId, "invoice", e.change, ADMINS);
  }
}

type Routes = { [K in DomainEventName]: (hub: Fanout, event: DomainEvents[K]) => unknown };

const ROUTES: Routes = {
  // An import's contacts reach the lists as one reload (contacts.reloaded), not one frame each.
  "contact.created": (hub, e) =>
    e.bulk || send(hub, e.companyId, "contact", namedRecord("create", e.contact, "contact")),
  "contact.updated": (hub, e) =>
    e.bulk || send(hub, e.companyId, "contact", namedRecord("update", e.contact, "contact")),
  "contact.deleted": (hub, e) => send(hub, e.companyId, "contact", namedDelete(e.id, "contact")),
  "contacts.reloaded": (hub, e) => send(hub, e.companyId, "contact", { action: "reload" }),

  "ticket.created": (hub, e) => publishTicketUpdate(hub, e.ticket, e.before),
  "ticket.updated": (hub, e) => publishTicketUpdate(hub, e.ticket, e.before),
  "ticket.closed": (hub, e) => publishTicketUpdate(hub, e.ticket, e.before),
  "ticket.deleted": (hub, e) =>
    publishTicketDelete(hub, e.companyId, e.ticketId, e.before, e.isGroup),
  "ticket.assigned": (hub, e) =>
    send(
      hub,
      e.companyId,
      "ticketAssigned",
      { action: "assigned", ticket: e.ticket },
      users([
        e.userId,
      ]),
    ),
  // The attendant who lost it reads the notice (on any tab still open, or when back); who got
  // it hears it on the bell.
  "ticket.takenBack": (hub, e) => {
    send(
      hub,
      e.companyId,
      "ticketTakenBack",
      { action: "lost", notice: e.notice },
      users([
        e.fromUserId,
      ]),
    );
    if (e.toUserId !== null) {
      send(
        hub,
        e.companyId,
        "ticketTakenBack",
        { action: "given", ticket: e.ticket, fromName: e.fromName },
        users([e.toUserId]),
      );
    }
  },
  "ticket.pinned": (hub, e) =>
    send(
      hub,
      e.companyId,
      "ticketPin",
      { action: e.pinned ? "pin" : "unpin", ticketId: e.ticketId },
      users([e.userId]),
    ),
  // The company's admins and the queue's supervisors (a mark on their membership) are told.
  "ticket.slaBreached": (hub, e) =>
    send(hub, e.companyId, "sla", { action: "breach", kind: e.kind, ticket: e.ticket }, [
      ...ADMINS,
      ...users(e.supervisorIds),
    ]),
  "ticket.summarized": (hub, e) => publishTicketSummary(hub, e.ticket, e.summary),
  "ticket.read": (hub, e) =>
    publishTicketUnread(hub, e.companyId, e.ticketId, e.placement, e.isGroup),
  "message.created": (hub, e) => publishMessage(hub, "create", e.message, e.ticket),
  "message.updated": (hub, e) => publishMessage(hub, "update", e.message, e.ticket),

  "list.changed": publishList,

  // A general answer is the company's; a private one (or a queue's) its owner's and the admins'.
  "quickMessage.saved": (hub, { record, created, wasShared }) => {
    // Made private: it leaves the others' lists first; its readers get it back next.
    const shared = record.geral && record.queueId === null;
    if (wasShared && !shared) {
      send(hub, record.companyId, "quickMessage", { action: "delete", id: record.id });
    }
    send(
      hub,
      record.companyId,
      "quickMessage",
      { action: created ? "create" : "update", record },
      shared ? COMPANY : ownerAndAdmins(record.userId),
    );
  },
  "quickMessage.deleted": (hub, e) =>
    send(
      hub,
      e.companyId,
      "quickMessage",
      { action: "delete", id: e.id },
      e.shared ? COMPANY : ownerAndAdmins(e.userId),
    ),
  "schedule.saved": (hub, e) =>
    send(
      hub,
      e.companyId,
      "schedule",
      namedRecord(e.created ? "create" : "update", e.record, "schedule"),
      ownerAndAdmins(e.record.userId),
    ),
  "schedule.deleted": (hub, e) =>
    send(
      hub,
      e.companyId,
      "schedule",
      namedDelete(e.id, "schedule"),
      ownerAndAdmins(e.userId),
    ),

  "queue.saved": (hub, e) =>
    send(hub, e.companyId, "queue", { action: e.created ? "create" : "update", queue: e.queue }),
  "queue.deleted": (hub, e) => send(hub, e.companyId, "queue", { action: "delete", queueId: e.id }),
  // The option tree is edited by admins only.
  "queueOption.saved": (hub, e) =>
    send(hub, e.companyId, "queue", {
      action: e.created ? "optionCreate" : "optionUpdate",
      option: e.option,
    }, ADMINS),
  "queueOption.deleted": (hub, e) =>
    send(hub, e.companyId, "queue", {
      action: "optionDelete",
      queueId: e.queueId,
      optionId: e.optionId,
      optionIds: e.optionIds,
    }, ADMINS),

  // Internal chats reach their participants' own sockets only (seeds/002 section 7).
  "chat.created": (hub, { companyId, chat }) =>
    send(hub, companyId, "chat-user", { action: "create", record: chat }, participants(chat)),
  "chat.updated": (hub, { companyId, chat, removed }) => {
    send(hub, companyId, "chat-user", { action: "update", record: chat }, participants(chat));
    // Who left the chat stops seeing it at once.
    send(hub, companyId, "chat", { action: "delete", id: chat.id }, users(removed));
  },
  "chat.deleted": (hub, e) =>
    send(hub, e.companyId, "chat", { action: "delete", id: e.id }, users(e.users)),
  // `chat-<id>` (the open conversation) and `chat` (lists, the menu dot, the bell).
  "chat.message": (hub, { companyId, chat, message }) => {
    const data = { action: "new-message" as const, newMessage: message, chat };
    send(hub, companyId, `chat-${chat.id}`, data, participants(chat));
    send(hub, companyId, "chat", data, participants(chat));
  },
  // Only the reader's counter changed, and only their screens show it.
  "chat.read": (hub, { companyId, chat, userId }) => {
    send(hub, companyId, `chat-${chat.id}`, { action: "update", chat }, users([userId]));
    send(hub, companyId, "chat", { action: "update", chat }, users([userId]));
  },

  // An inactive announcement is a delete for everyone but super users, who keep managing it.
  "announcement.saved": (hub, { record, created }) => {
    const full = { action: created ? "create" as const : "update" as const, record, id: record.id };
    sendEveryCompany(
      hub,
      "announcement",
      record.status ? full : { action: "delete", id: record.id },
      full,
    );
  },
  "announcement.deleted": (hub, e) =>
    sendEveryCompany(hub, "announcement", { action: "delete", id: e.id }),

  "connection.updated": (hub, e) =>
    send(hub, e.companyId, "whatsapp", { action: "update", whatsapp: e.connection }),
  "connection.deleted": (hub, e) =>
    send(hub, e.companyId, "whatsapp", {
      action: "delete",
      whatsappId: e.whatsappId,
      whatsapp: { id: e.whatsappId },
    }),
  // Admins get the QR or pairing code; everyone else the status alone (the menu's alert).
  "connection.session": (hub, e) => {
    send(hub, e.companyId, "whatsappSession", { action: "update", session: e.session }, ADMINS);
    sendFiltered(
      hub,
      e.companyId,
      "whatsappSession",
      { action: "update", session: e.public },
      COMPANY,
      { rule: "notAdmin" },
    );
  },

  // users.online is read with the users list; distribution hears it (server/distribution/).
  "user.presence": () => {},
  "user.sessionsEnded": (hub, e) =>
    send(hub, e.companyId, "auth", { action: "sessionEnded", reason: e.reason }, users([e.userId])),
  "session.ended": (hub, e) =>
    sendFiltered(
      hub,
      e.companyId,
      "auth",
      { action: "sessionEnded", reason: e.reason },
      users([e.userId]),
      { rule: "session", sessionId: e.sessionId },
    ),
  "user.signedInElsewhere": (hub, e) =>
    send(
      hub,
      e.companyId,
      "auth",
      { action: "otherLogin", user: { id: e.userId } },
      users([e.userId]),
    ),
  // A secret setting (a token, a key) is read by admins only.
  "setting.updated": (hub, e) =>
    send(
      hub,
      e.companyId,
      "settings",
      { action: "update", setting: e.setting },
      e.secret ? ADMINS : COMPANY,
    ),
  "plan.changed": (hub, e) => send(hub, e.companyId, "plan", { action: "update", plan: e.plan }),
  "company.updated": (hub, e) =>
    send(hub, e.company.id, "company", { action: "update", company: e.company }),
  "invoice.paid": (hub, e) =>
    send(hub, e.companyId, "payment", {
      action: "CONCLUIDA",
      invoiceId: e.invoiceId,
      company: { id: e.companyId, dueDate: e.dueDate },
    }),
};

function participants(chat: { users: { userId: number }[] }): Audience[] {
  return users(chat.users.map((u) => u.userId));
}

/**
 * Every domain event reaches the sockets of those who may see it (server/deps.ts wires it): the
 * local hub, or every process's through Redis (redis_fanout.ts).
 */
export function wireRealtime(events: EventBus, hub: Fanout) {
  const route = <K extends DomainEventName>(name: K) => {
    const publish: Routes[K] = ROUTES[name];
    events.on(name, (event) => publish(hub, event));
  };
  for (const name of Object.keys(ROUTES) as DomainEventName[]) route(name);
}
