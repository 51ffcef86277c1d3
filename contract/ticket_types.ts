import type { Capabilities } from "./channels.ts";
/**
 * The shapes the /tickets workspace reads from the API and the socket (seeds/000 sections 3
 * and 7). A ticket and a message are declared ONCE, here: the server's views
 * (server/tickets/view.ts) build exactly these types and the islands read them; the notes, tags,
 * quick messages, contacts and users answers follow with the fields the page uses.
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

/** The contact as a ticket carries it (also the `contact` of `appMessage` events). */
export type TicketContact = {
  id: number;
  name: string;
  number: string;
  email: string;
  profilePicUrl: string;
  isGroup: boolean;
};

/**
 * Issue 45: the ad (Click-to-WhatsApp) or post the contact came from, as the network tells it
 * with their message. `sourceType` is Meta's ("ad", "post"); `ctwaClid` identifies the click
 * for the advertiser's reports; `at` is when that message arrived.
 */
export type TicketReferral = {
  sourceType: string;
  sourceId: string | null;
  sourceUrl: string | null;
  headline: string | null;
  body: string | null;
  mediaType: string | null;
  /** The ad's image or video link, and its thumbnail (Meta's, short-lived). */
  mediaUrl: string | null;
  thumbnailUrl: string | null;
  ctwaClid: string | null;
  at: string;
};

/** A ticket as the API and the socket answer it (seeds/000 section 3 'Ticket'). */
export type TicketView = {
  id: number;
  uuid: string;
  status: TicketStatus;
  contactId: number;
  contact: TicketContact;
  userId: number | null;
  user: { id: number; name: string } | null;
  queueId: number | null;
  queue: { id: number; name: string; color: string } | null;
  whatsappId: number | null;
  whatsapp:
    | { id: number; name: string; status: string; capabilities?: Capabilities }
    | null;
  tags: TagRef[];
  isGroup: boolean;
  chatbot: boolean;
  useIntegration: boolean;
  integrationId: number | null;
  promptId: number | null;
  lastMessage: string;
  /** The newest message was deleted for everyone: the lists show "message deleted" instead. */
  lastMessageDeleted?: boolean;
  unreadMessages: number;
  companyId: number;
  createdAt: string;
  updatedAt: string;
  /** Issue 26: when the queue's targets fall due (ISO), and when a breach was recorded. */
  firstResponseDueAt: string | null;
  resolutionDueAt: string | null;
  slaBreachedAt: string | null;
  /**
   * Issue 28: pinned by the caller to the top of their lists. HTTP answers carry it; socket
   * payloads, heard by many users, leave it out (the `ticketPin` channel tells one user's tabs).
   */
  pinned?: boolean;
  /** When the resolution clock stopped, waiting on the customer (null: running). */
  resolutionPausedAt: string | null;
  /** The ad the contact came from (issue 45); null: none. */
  referral?: TicketReferral | null;
};

/** Which service-level target a breach missed. */
/**
 * Issue 50 item 17: a ticket distribution took back from the reader while they were offline
 * (told when they come back). `toUserName`: who has it now (null: it waits in its queue).
 */
export type TakenBackNotice = {
  id: number;
  ticketId: number;
  ticketUuid: string;
  contactName: string;
  at: string;
  toUserName: string | null;
};

export type SlaKind = "firstResponse" | "resolution";

/** The page's name for a ticket: the same type. */
export type Ticket = TicketView;

export type TicketPage = { tickets: Ticket[]; count?: number; hasMore: boolean };

/** A message as the API and the socket answer it (seeds/000 section 3 'Message'). */
export type MessageView = {
  id: number;
  wid: string | null;
  ticketId: number;
  contactId: number | null;
  body: string;
  fromMe: boolean;
  mediaType: string | null;
  /** The authorised media route (/api/messages/:id/media); fetched with the bearer token. */
  mediaUrl: string | null;
  mediaName: string | null;
  isDeleted: boolean;
  isEdited: boolean;
  ack: number;
  read: boolean;
  quotedMsg: Omit<MessageView, "quotedMsg"> | null;
  /** Set when the outbox gave up sending this message ("ERR_SENDING_WAPP_MSG"). */
  sendError?: string | null;
  /** Inbound media not stored yet (the server's storage failed); it arrives by itself later. */
  mediaPending?: boolean;
  /** Sent as a forward (WhatsApp shows it 'Encaminhada'; so does our bubble). */
  isForwarded?: boolean;
  /** The texts edits replaced, oldest first (shown on demand under 'editada'). */
  previousBodies?: PreviousBody[];
  /** Issue 48: a voice note's text (the assistant's transcription); null until there is one. */
  transcript?: string | null;
  /** Why the voice note has no transcript (the bubble's hover); null when nothing failed. */
  transcriptError?: string | null;
  /** Issue 45: the contact's reaction (an emoji) and the attendant's; null: none. */
  reaction?: string | null;
  ownReaction?: string | null;
  createdAt: string;
  updatedAt: string;
};

/**
 * What POST /api/messages/forward did for one contact: the ticket and the queued messages, or
 * why that contact got nothing (ERR_FORWARD_OTHER_ATTENDANT, ERR_FORWARD_TICKET_PENDING...).
 */
export type ForwardResult =
  | { contactId: number; ticketId: number; messages: number[] }
  | { contactId: number; error: string; message: string };

/** A text an edit replaced, and when it was replaced. */
export type PreviousBody = { body: string; editedAt: string };

/** A quoted message (no quote of its own). */
export type MessageBase = Omit<MessageView, "quotedMsg">;

/** The page's name for a message: the same type. */
export type Message = MessageView;

export type MessagePage = {
  messages: Message[];
  ticket?: Ticket;
  count?: number;
  hasMore: boolean;
  /** Issue 28: the page an `around=<messageId>` answer is (1: the newest). */
  pageNumber?: number;
};

/** Issue 28: GET /api/messages/:ticketId/search, the contact's whole history, newest first. */
export type MessageSearchAnswer = { messages: MessageBase[] };

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
