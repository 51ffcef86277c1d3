/**
 * The event catalogue: every realtime channel and the ONE payload type it carries. The server
 * sends `{ "event": "company-<companyId>-<channel>", "data": <payload> }` (seeds/000 section 7,
 * seeds/002 section 7); server/realtime/ publishes through these types and islands/lib/socket.ts
 * subscribes through them, so a payload that does not match its channel is a type error on both
 * sides. Adding a channel: one entry in RealtimeEvents (the compiler asks for it in CHANNEL_SET),
 * then its route from a domain event in server/realtime/listeners.ts.
 */
import type {
  CampaignView,
  ContactListItemView,
  ContactListView,
  FileListView,
} from "./campaign_types.ts";
import type { InvoiceView, PaymentEvent } from "./billing_types.ts";
import type { Connection, SessionUpdate } from "./connection.ts";
import type { IntegrationView, PromptView } from "./integrations.ts";
import type { Contact, UserRow } from "./people_types.ts";
import type { CompanyView } from "./platform_types.ts";
import type { QueueEvent } from "./queue_types.ts";
import type { QuickMessageView } from "./quick_message_types.ts";
import type { ScheduleView } from "./schedule_types.ts";
import type { TagView } from "./tag_types.ts";
import type { AnnouncementView, ChatMessageView, ChatView } from "./team_types.ts";
import type {
  MessageView,
  SlaKind,
  TakenBackNotice,
  TicketContact,
  TicketView,
} from "./ticket_types.ts";
import type { PlanFlags } from "./types.ts";
import type { TicketSummaryView } from "./assist_types.ts";
import type { WebhookView } from "./webhook_types.ts";

/**
 * A live list's event (seeds/001 section 4 'Live updates', seeds/002 section 7): a record made or
 * changed, one removed, or "read the list again" (many rows changed). The list kit
 * (islands/lib/list/) reads exactly this.
 */
export type ResourceEvent<T> =
  | { action: "create" | "update"; record: T }
  | { action: "delete"; id: number }
  | { action: "reload" };

/**
 * A resource event that also carries the record and id under the names the seeds' core client
 * reads (users `user` / `userId`, contacts `contact` / `contactId`; tags, prompts and schedules
 * alike).
 */
export type NamedResourceEvent<T, K extends string> =
  | ({ action: "create" | "update"; record: T } & { [P in K]: T })
  | ({ action: "delete"; id: number } & { [P in `${K}Id`]: number })
  | { action: "reload" };

/** What a chat's participants hear on `chat` and `chat-<id>` (server/chats/service.ts). */
export type ChatEvent =
  | { action: "new-message"; newMessage: ChatMessageView; chat: ChatView }
  | { action: "update"; chat: ChatView };

/** Every company channel and its payload. */
export type RealtimeEvents = {
  whatsapp:
    | { action: "update"; whatsapp: Connection }
    | { action: "delete"; whatsappId: number; whatsapp: { id: number } };
  /** Admins get the QR or pairing code; everyone else the same event without it. */
  whatsappSession: { action: "update"; session: SessionUpdate };
  user: NamedResourceEvent<UserRow, "user">;
  /** A participant's chat list: new messages, reads, and a chat that left their list. */
  chat: ChatEvent | { action: "delete"; id: number };
  /** A chat made or changed, to its participants. */
  "chat-user": ResourceEvent<ChatView>;
  /** A message of a ticket; `contact` is the ticket's. */
  appMessage: {
    action: "create" | "update";
    message: MessageView;
    ticket: TicketView;
    contact: TicketContact;
  };
  /** Issue 28: the user pinned or unpinned a ticket (their sockets only: pins are per user). */
  ticketPin: { action: "pin" | "unpin"; ticketId: number };
  /** Issue 26: distribution gave the ticket to this user (their sockets only). */
  ticketAssigned: { action: "assigned"; ticket: TicketView };
  /**
   * Issue 50 item 17: distribution took a ticket back from an attendant who was offline; `lost`
   * to them (the notice they read on coming back), `given` to who got it (the bell).
   */
  ticketTakenBack:
    | { action: "lost"; notice: TakenBackNotice }
    | { action: "given"; ticket: TicketView; fromName: string };
  /** Issue 26: a ticket missed its queue's target (admins; the bell rings). */
  sla: { action: "breach"; kind: SlaKind; ticket: TicketView };
  ticket:
    | { action: "update"; ticket: TicketView }
    | { action: "delete"; ticketId: number }
    | { action: "updateUnread"; ticketId: number }
    /** Issue 48: the assistant's summary, to the ticket's chat room. */
    | { action: "summary"; ticketId: number; summary: TicketSummaryView };
  contact: NamedResourceEvent<Contact, "contact">;
  /** Platform-wide; create and update repeat the id beside the record. */
  announcement:
    | { action: "create" | "update"; record: AnnouncementView; id: number }
    | { action: "delete"; id: number };
  /** To one user's sockets: their sessions ended, or they signed in elsewhere. */
  auth:
    | { action: "sessionEnded"; reason: string }
    | { action: "otherLogin"; user: { id: number } };
  queue: QueueEvent;
  settings: { action: "update"; setting: { key: string; value: string } };
  tag: NamedResourceEvent<TagView, "tag">;
  quickMessage: ResourceEvent<QuickMessageView>;
  schedule: NamedResourceEvent<ScheduleView, "schedule">;
  /** The company's plan changed (null: it has none). */
  plan: { action: "update"; plan: PlanFlags | null };
  company: { action: "update"; company: CompanyView };
  invoice: ResourceEvent<InvoiceView>;
  /** seeds/001 section 4: a paid invoice (action CONCLUIDA). */
  payment: PaymentEvent;
  contactList: ResourceEvent<ContactListView>;
  contactListItem: ResourceEvent<ContactListItemView>;
  campaign: ResourceEvent<CampaignView>;
  file: ResourceEvent<FileListView>;
  queueIntegration: ResourceEvent<IntegrationView>;
  prompt: NamedResourceEvent<PromptView, "prompt">;
  webhook: ResourceEvent<WebhookView>;
  /**
   * Events between processes may have been lost (Redis restarted or unreachable, docs/scaling.md):
   * every live list reads itself again (islands/lib/socket.ts useRoomSync).
   */
  sync: { action: "reload" };
};

/** `chat-<id>`: one open conversation, to its participants only (seeds/002 section 7). */
export type ChatRoomChannel = `chat-${number}`;

export type Channel = keyof RealtimeEvents | ChatRoomChannel;

/** The payload of a channel. */
export type PayloadOf<C extends Channel> = C extends keyof RealtimeEvents ? RealtimeEvents[C]
  : ChatEvent;

/** Every channel name of RealtimeEvents (the compiler keeps the two equal). */
const CHANNEL_SET: { [C in keyof RealtimeEvents]: true } = {
  whatsapp: true,
  whatsappSession: true,
  user: true,
  chat: true,
  "chat-user": true,
  appMessage: true,
  ticket: true,
  ticketAssigned: true,
  ticketTakenBack: true,
  ticketPin: true,
  sla: true,
  contact: true,
  announcement: true,
  auth: true,
  queue: true,
  settings: true,
  tag: true,
  quickMessage: true,
  schedule: true,
  plan: true,
  company: true,
  invoice: true,
  payment: true,
  contactList: true,
  contactListItem: true,
  campaign: true,
  file: true,
  queueIntegration: true,
  prompt: true,
  webhook: true,
  sync: true,
};
export const CHANNELS = Object.keys(CHANNEL_SET) as (keyof RealtimeEvents)[];

/**
 * The channels whose payload is a resource event, and their record: the list kit subscribes to
 * these (useResourceList's `channel`).
 */
export type ResourceRecords = {
  user: UserRow;
  announcement: AnnouncementView;
  "chat-user": ChatView;
  contact: Contact;
  tag: TagView;
  quickMessage: QuickMessageView;
  schedule: ScheduleView;
  invoice: InvoiceView;
  contactList: ContactListView;
  contactListItem: ContactListItemView;
  campaign: CampaignView;
  file: FileListView;
  queueIntegration: IntegrationView;
  prompt: PromptView;
  webhook: WebhookView;
};
export type ResourceChannel = keyof ResourceRecords;

// Every resource channel's payload is a ResourceEvent of its record (a type error otherwise).
type IsResource<C extends ResourceChannel> = RealtimeEvents[C] extends
  ResourceEvent<ResourceRecords[C]> ? true : never;
const _resourceChannels: { [C in ResourceChannel]: IsResource<C> } = {
  user: true,
  announcement: true,
  "chat-user": true,
  contact: true,
  tag: true,
  quickMessage: true,
  schedule: true,
  invoice: true,
  contactList: true,
  contactListItem: true,
  campaign: true,
  file: true,
  queueIntegration: true,
  prompt: true,
  webhook: true,
};

/** The resource channels whose records a list of T can show. */
export type ResourceChannelOf<T> = {
  [C in ResourceChannel]: ResourceRecords[C] extends T ? C : never;
}[ResourceChannel];

/** Events of the socket itself (not of a company channel), sent by server/realtime/socket.ts. */
export type SocketEvents = {
  /** The socket is authenticated and in its company's rooms. */
  ready: { companyId: number; userId: number };
  /** A join was accepted: the room is joined from now on. */
  joined: { event: string; data: unknown };
};
