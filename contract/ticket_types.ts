/**
 * The shapes the /tickets workspace reads from the API and the socket (seeds/000 sections 3
 * and 7). Islands import nothing from server/ (DESIGN 'Boundaries'): these mirror
 * server/tickets/view.ts (TicketView, MessageView) and the notes, tags, quick messages, contacts
 * and users answers, only with the fields the page uses.
 */
export type TicketStatus = "pending" | "open" | "closed";

export type ContactRef = {
  id: number;
  name: string;
  number: string;
  email?: string;
  profilePicUrl?: string;
  isGroup?: boolean;
};

export type TagRef = { id: number; name: string; color: string };

export type Ticket = {
  id: number;
  uuid: string;
  status: TicketStatus;
  contactId: number;
  contact: ContactRef;
  userId: number | null;
  user: { id: number; name: string } | null;
  queueId: number | null;
  queue: { id: number; name: string; color: string } | null;
  whatsappId: number | null;
  whatsapp: { id: number; name: string; status?: string } | null;
  tags: TagRef[];
  isGroup: boolean;
  chatbot?: boolean;
  lastMessage: string;
  unreadMessages: number;
  createdAt: string;
  updatedAt: string;
};

export type TicketPage = { tickets: Ticket[]; count?: number; hasMore: boolean };

export type MessageBase = {
  id: number;
  ticketId: number;
  body: string;
  fromMe: boolean;
  mediaType: string | null;
  /** The authorised media route (/api/messages/:id/media); fetched with the bearer token. */
  mediaUrl: string | null;
  mediaName?: string | null;
  isDeleted: boolean;
  isEdited?: boolean;
  ack: number;
  read: boolean;
  createdAt: string;
  updatedAt?: string;
};

export type Message = MessageBase & { quotedMsg: MessageBase | null };

export type MessagePage = {
  messages: Message[];
  ticket?: Ticket;
  count?: number;
  hasMore: boolean;
};

export type ExtraInfo = { id?: number; name: string; value: string };

export type Contact = ContactRef & {
  uuid?: string;
  extraInfo?: ExtraInfo[];
  whatsappId?: number | null;
  /** Answered a campaign with an opt-out word (GET /api/contacts/:id; issue 13). */
  campaignOptOut?: { word: string; at: string } | null;
};

export type Note = {
  id: number;
  note: string;
  ticketId: number;
  contactId: number;
  userId: number | null;
  user: { id: number; name: string } | null;
  createdAt: string;
};

export type QuickMessage = {
  id: number;
  shortcode: string;
  message: string;
  isMedia?: boolean;
  mediaName?: string | null;
};

export type UserOption = { id: number; name: string; queues?: { id: number; name: string }[] };

export type WhatsappOption = { id: number; name: string; isDefault?: boolean; status?: string };

export type QueueOption = { id: number; name: string; color: string };

/** `company-<id>-ticket` (server/realtime/publish.ts). */
export type TicketEvent =
  | { action: "update"; ticket: Ticket }
  | { action: "delete"; ticketId: number }
  | { action: "updateUnread"; ticketId: number };

/** `company-<id>-appMessage`. */
export type MessageEvent = {
  action: "create" | "update";
  message: Message;
  ticket: Ticket;
  contact?: ContactRef;
};

/** `company-<id>-contact`. */
export type ContactEvent = { action: string; contact?: ContactRef; contactId?: number };

/** The body of ERR_OTHER_OPEN_TICKET's message: a JSON string (seeds/000 section 7). */
export type OtherOpenTicket = {
  id?: number;
  uuid?: string;
  status?: TicketStatus;
  userId: number | null;
  user: { id?: number; name: string } | null;
  queueId?: number | null;
  queue: { id?: number; name: string } | null;
};
