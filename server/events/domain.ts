/**
 * Domain events: what happened, told after the commit by the service that did it, through the
 * one bus (bus.ts, `deps.events`). Listeners turn them into what the outside sees:
 * server/realtime/listeners.ts maps each to its channel and rooms (the browsers),
 * server/webhooks/capture.ts queues the webhook deliveries of contact.*, ticket.* and message.*.
 * A service never names a channel or a room.
 *
 * The names of the webhook events (contract/webhook_types.ts WEBHOOK_EVENTS) are event names of
 * this catalogue, with the same meaning.
 */
import type { ResourceEvent, ResourceRecords } from "../../contract/events.ts";
import type { Connection, SessionUpdate } from "../../contract/connection.ts";
import type { Contact } from "../../contract/people_types.ts";
import type { CompanyView } from "../../contract/platform_types.ts";
import type { Queue, QueueOption } from "../../contract/queue_types.ts";
import type { QuickMessageView } from "../../contract/quick_message_types.ts";
import type { ScheduleView } from "../../contract/schedule_types.ts";
import type { AnnouncementView, ChatMessageView, ChatView } from "../../contract/team_types.ts";
import type {
  MessageView,
  SlaKind,
  TakenBackNotice,
  TicketView,
} from "../../contract/ticket_types.ts";
import type { PlanFlags } from "../../contract/types.ts";
import type { TicketSummaryView } from "../../contract/assist_types.ts";

/** Where a ticket sits: who may see it follows from this (server/realtime/publish.ts). */
export type TicketPlacement = { status: string; queueId: number | null; userId: number | null };

/**
 * A ticket changed; `before` is where it sat before the change (a transfer leaves old lists);
 * `actor` is the person who changed it (unset: WhatsApp, a bot, a job, distribution): a push of
 * the change names them and never reaches them (server/push/capture.ts).
 */
export type TicketChanged = {
  ticket: TicketView;
  before?: TicketPlacement;
  actor?: TicketActor;
} & Outgoing;
export type TicketActor = { id: number; name: string };

/** A message of a ticket, with the ticket as it is after the message. */
export type MessageChanged = { message: MessageView; ticket: TicketView } & Outgoing;

/**
 * The key of the event's note written with the change (server/events/outgoing_repository.ts):
 * set, the webhooks and pushes of the event are recovered by the `outgoing` job if this process
 * dies before queueing them, and queued under this key (one delivery per event, any process).
 */
export type Outgoing = { outgoing?: string };

/**
 * A record of a list page changed (those whose rooms are the company's or its admins': see
 * LIST_AUDIENCE in server/realtime/listeners.ts).
 */
export type ListRecords = Pick<
  ResourceRecords,
  | "user"
  | "tag"
  | "prompt"
  | "file"
  | "campaign"
  | "contactList"
  | "contactListItem"
  | "webhook"
  | "queueIntegration"
  | "invoice"
>;
export type ListChanged = {
  [R in keyof ListRecords]: {
    companyId: number;
    resource: R;
    change: ResourceEvent<ListRecords[R]>;
  };
}[keyof ListRecords];

export type DomainEvents = {
  /**
   * A contact was made: through the API, an import, the send API or a WhatsApp message.
   * `bulk`: one of many (an import), whose lists read again on contacts.reloaded instead.
   */
  "contact.created": { companyId: number; contact: Contact; bulk?: boolean } & Outgoing;
  /** Its name, number, picture or fields changed (by a person, an import or by WhatsApp). */
  "contact.updated": { companyId: number; contact: Contact; bulk?: boolean } & Outgoing;
  /** Its tickets went with it (a ticket.deleted each, told before). */
  "contact.deleted": { companyId: number; id: number };
  /** Many contacts changed at once (an import): lists read again. */
  "contacts.reloaded": { companyId: number };

  /** A ticket was opened (an inbound message, an attendant, a schedule, the send API). */
  "ticket.created": TicketChanged;
  /** Accepted, transferred, returned, reopened, retagged, moved on the board, bot changes. */
  "ticket.updated": TicketChanged;
  /** It was closed (resolved by a person, a bot or the inactivity job). */
  "ticket.closed": TicketChanged;
  "ticket.deleted": {
    companyId: number;
    ticketId: number;
    before: TicketPlacement;
    isGroup: boolean;
  };
  /** Distribution gave it to `userId` (issue 26; a ticket.updated is told too). */
  "ticket.assigned": { companyId: number; userId: number; ticket: TicketView };
  /**
   * Issue 50 item 17: distribution took the ticket back from `fromUserId`, offline past the
   * company's minutes; `toUserId` got it next (null: it waits in its queue). Noted: the
   * attendant, offline, is told by a push too (server/push/capture.ts).
   */
  "ticket.takenBack": {
    companyId: number;
    ticket: TicketView;
    fromUserId: number;
    fromName: string;
    toUserId: number | null;
    notice: TakenBackNotice;
  } & Outgoing;
  /** Issue 28: `userId` pinned (or unpinned) the ticket to the top of their own lists. */
  "ticket.pinned": { companyId: number; userId: number; ticketId: number; pinned: boolean };
  /** A service-level target of its queue was missed (recorded once, slaBreachedAt). */
  "ticket.slaBreached": {
    companyId: number;
    ticket: TicketView;
    kind: SlaKind;
    /** Who supervises the ticket's queue: told with the admins. */
    supervisorIds: number[];
  } & Outgoing;
  /** Issue 48: the assistant summarised it (transfer, reopening, or asked): its chat shows it. */
  "ticket.summarized": { companyId: number; ticket: TicketView; summary: TicketSummaryView };
  /** Its unread count went back to 0. */
  "ticket.read": {
    companyId: number;
    ticketId: number;
    placement: TicketPlacement;
    isGroup: boolean;
  };

  /** A message in or out (also an automatic text, a bot's reply, a rating answer). */
  "message.created": MessageChanged;
  /** An ack, an edit, a deletion, a send failure. */
  "message.updated": MessageChanged;

  "list.changed": ListChanged;

  /** `shared`: a general answer (everyone reads it); `wasShared` before an update. */
  "quickMessage.saved": { record: QuickMessageView; created: boolean; wasShared: boolean };
  "quickMessage.deleted": {
    companyId: number;
    id: number;
    shared: boolean;
    userId: number | null;
  };
  /** Made, edited, sent or failed (the job); its author and the admins see it. */
  "schedule.saved": { companyId: number; record: ScheduleView; created: boolean };
  "schedule.deleted": { companyId: number; id: number; userId: number | null };

  "queue.saved": {
    companyId: number;
    queue: Queue;
    created: boolean;
    /** Its hours or service-level targets changed: waiting tickets' due instants follow. */
    retimed?: boolean;
  };
  "queue.deleted": { companyId: number; id: number };
  "queueOption.saved": { companyId: number; option: QueueOption; created: boolean };
  /** The option and its whole subtree. */
  "queueOption.deleted": {
    companyId: number;
    queueId: number;
    optionId: number;
    optionIds: number[];
  };

  "chat.created": { companyId: number; chat: ChatView };
  /** Renamed or its participants changed; `removed` left it. */
  "chat.updated": { companyId: number; chat: ChatView; removed: number[] };
  "chat.deleted": { companyId: number; id: number; users: number[] };
  "chat.message": { companyId: number; chat: ChatView; message: ChatMessageView } & Outgoing;
  /** `userId` read it (only their counter changed). */
  "chat.read": { companyId: number; chat: ChatView; userId: number };

  /** Platform-wide (super users): active or not. */
  "announcement.saved": { record: AnnouncementView; created: boolean };
  "announcement.deleted": { id: number };

  /** A connection's settings or status changed (never its secrets). */
  "connection.updated": { companyId: number; connection: Connection };
  "connection.deleted": { companyId: number; whatsappId: number };
  /** Its session moved: `session` carries the QR or pairing code, `public` does not. */
  "connection.session": { companyId: number; session: SessionUpdate; public: SessionUpdate };

  /** The user's first socket opened (online) or last one closed, users.online written. */
  "user.presence": { companyId: number; userId: number; online: boolean };
  "user.sessionsEnded": { companyId: number; userId: number; reason: string };
  /** The user signed in elsewhere: the other session is told before it ends. */
  "user.signedInElsewhere": { companyId: number; userId: number };
  /** One session ended by its user or an admin (issue 30): its sockets are told, then closed. */
  "session.ended": { companyId: number; userId: number; sessionId: number; reason: string };
  "setting.updated": {
    companyId: number;
    setting: { key: string; value: string };
    /** Only admins may read it (an API token, a key). */
    secret: boolean;
  };
  "plan.changed": { companyId: number; plan: PlanFlags | null };
  /** `hoursChanged`: its working hours changed (due instants of waiting tickets are counted again). */
  "company.updated": { company: CompanyView; hoursChanged?: boolean };
  "invoice.paid": { companyId: number; invoiceId: number; dueDate: string };
};

export type DomainEventName = keyof DomainEvents;

/** The event of a change to an existing ticket: ticket.closed when this change closed it. */
export function ticketChange(
  ticket: { status: string },
  before?: { status: string },
): "ticket.updated" | "ticket.closed" {
  return ticket.status === "closed" && before?.status !== "closed"
    ? "ticket.closed"
    : "ticket.updated";
}
