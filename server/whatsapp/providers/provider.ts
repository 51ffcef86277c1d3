/**
 * The one interface every WhatsApp implementation fulfils (DESIGN 'WhatsApp'). A connection's
 * `provider` column picks it: "beta" is Baileys (real numbers), "simulator" the built-in phone
 * network. Sessions, the inbound pipeline and the outbox only ever see this interface.
 */

export type { ChannelKind as ProviderKind } from "../../../contract/channels.ts";
import type { ChannelKind as ProviderKind, MenuChoice } from "../../../contract/channels.ts";
import type { TicketReferral } from "../../../contract/ticket_types.ts";

/** Persisted on whatsapps.status (seeds/000 section 3). */
export type SessionStatus =
  | "qrcode"
  | "PAIRING"
  | "OPENING"
  | "CONNECTED"
  | "DISCONNECTED"
  | "TIMEOUT";

/** seeds/000 section 3 'Message'. Plain text messages have no media type. */
export type MediaType =
  | "image"
  | "audio"
  | "video"
  | "application"
  | "locationMessage"
  | "vcard"
  | "call_log";

/** Our ack scale (seeds/000 section 4): 0 waiting in the outbox, 1 sent, 2 delivered, 3 read, 4 played. */
export type Ack = 0 | 1 | 2 | 3 | 4 | 5;

export type InboundMedia = {
  mimetype: string;
  filename?: string;
  /** Declared size when the provider knows it before downloading (to refuse oversized media early). */
  size?: number;
  download(): Promise<Uint8Array>;
};

export type InboundMessage = {
  /** WhatsApp message id: with the connection, the idempotency key. */
  id: string;
  /** The chat: a contact's or a group's JID. */
  chatJid: string;
  isGroup: boolean;
  /** Sent by the connected phone itself (shown as fromMe). */
  fromMe: boolean;
  /** In groups, who wrote it. */
  participantJid?: string;
  /** Phone-number and LID identities of the contact when the provider knows both. */
  phoneJid?: string;
  lidJid?: string;
  pushName?: string;
  timestamp: Date;
  body: string;
  mediaType?: MediaType;
  media?: InboundMedia;
  /** WhatsApp id of the message this one replies to. */
  quotedId?: string;
  /** A tapped menu button or list row: the choice's id, answered to the bot as if typed. */
  choice?: string;
  /** The sender forwarded it (WhatsApp's contextInfo.isForwarded): shown 'Encaminhada'. */
  forwarded?: boolean;
  /** The ad or post the contact tapped to write (Cloud API `referral`): kept on the ticket. */
  referral?: Omit<TicketReferral, "at">;
  /** "notify" live, "append" offline backlog: both are ingested alike. */
  origin: "notify" | "append";
  /** The provider's original, kept so that the provider can serve retries (getMessage). */
  raw?: unknown;
};

export type ProviderEvent =
  | { type: "qr"; qr: string }
  | { type: "pairingCode"; code: string }
  | { type: "status"; status: SessionStatus; reason?: string }
  | { type: "connected"; number: string }
  /** Logged out from the phone (Baileys 401): the session needs a new QR; auth was cleared. */
  | { type: "loggedOut" }
  | { type: "message"; message: InboundMessage }
  | { type: "ack"; id: string; chatJid: string; ack: Ack }
  | { type: "edit"; id: string; chatJid: string; body: string }
  | { type: "revoke"; id: string; chatJid: string }
  /** The contact reacted to message `id` with `emoji` ("" removes it; capability `reactions`). */
  | { type: "reaction"; id: string; chatJid: string; emoji: string }
  /** The network refused a message we sent, after accepting it (Cloud API `failed` status). */
  | { type: "failed"; id: string; chatJid: string; code: string }
  | {
    type: "contact";
    jid: string;
    name?: string;
    phoneJid?: string;
    lidJid?: string;
    profilePicUrl?: string;
  }
  | {
    type: "call";
    id: string;
    from: string;
    isVideo: boolean;
    status: "offer" | "ringing" | "timeout" | "reject" | "accept";
  };

export type SentMessage = { id: string; timestamp: Date; raw?: unknown };

/**
 * Options of a send. `messageId` is the WhatsApp id the outbox chose before the first attempt:
 * a provider should send under it (Baileys: `sendMessage(jid, content, { messageId })`) so that
 * a resend after a crash is recognised as the same message instead of delivered twice.
 */
export type SendOptions = {
  quotedId?: string;
  messageId?: string;
  /** Shown as forwarded on WhatsApp (Baileys: contextInfo.isForwarded, forwardingScore 1). */
  forwarded?: boolean;
};

/**
 * What a send throws when it fails. `permanent` failures (invalid number, refused media) are not
 * retried; anything else (including a plain Error) is treated as transient and retried later.
 */
export class ProviderSendError extends Error {
  readonly permanent: boolean;
  /** The catalogue's code shown on the message when the send fails for good (else ERR_SENDING_WAPP_MSG). */
  readonly failureCode?: string;
  constructor(
    message: string,
    options: { permanent: boolean; cause?: unknown; failureCode?: string },
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "ProviderSendError";
    this.permanent = options.permanent;
    this.failureCode = options.failureCode;
  }
}

export type OutboundMedia = {
  data: Uint8Array;
  mimetype: string;
  filename: string;
  caption?: string;
  /** Voice note (audio recorded in the browser). */
  ptt?: boolean;
};

export interface Provider {
  readonly kind: ProviderKind;
  /** Starts or resumes the session; progress arrives as events (qr, status, connected). */
  start(): Promise<void>;
  /** Closes the connection, keeping credentials for the next start. */
  stop(): Promise<void>;
  /** Unlinks the device and forgets credentials. */
  logout(): Promise<void>;
  /** Pairing by code instead of QR (Baileys); the code also arrives as a pairingCode event. */
  requestPairingCode(phoneNumber: string): Promise<string>;
  sendText(toJid: string, text: string, options?: SendOptions): Promise<SentMessage>;
  sendMedia(toJid: string, media: OutboundMedia, options?: SendOptions): Promise<SentMessage>;
  deleteForEveryone(chatJid: string, messageId: string, fromMe: boolean): Promise<void>;
  /** Edits a text this number sent (WhatsApp allows it for 15 minutes: EDIT_WINDOW_MINUTES). */
  editText(chatJid: string, messageId: string, text: string): Promise<void>;
  /** Whether a number is on WhatsApp, and its JID. */
  checkNumber(number: string): Promise<{ exists: boolean; jid?: string }>;
  profilePictureUrl(jid: string): Promise<string | undefined>;
  /**
   * The media of a message received earlier, downloaded again from its stored payload (issue 34:
   * media that could not be stored then); undefined when the provider cannot now.
   */
  downloadMedia?(message: { id: string; raw: unknown }): Promise<Uint8Array | undefined>;
  /** A pre-approved template (capability `templates`): body parameters in order. */
  sendTemplate?(
    to: string,
    template: { name: string; language: string; parameters: string[] },
    options?: SendOptions,
  ): Promise<SentMessage>;
  /**
   * How long (ms) the number must wait before any send: its network throttled it (the Cloud
   * API's 130429, 429, 5xx). The outbox then claims nothing of this connection, so waiting costs
   * no attempt. Undefined or 0: send now.
   */
  pausedFor?(): Promise<number>;
  /**
   * Blue ticks on the contact's phone up to this message of theirs (capability `readReceipts`):
   * told when an attendant opens the chat.
   */
  markRead?(messageId: string): Promise<void>;
  /**
   * A chatbot menu (capability `interactive`): `text` is the whole menu as text, `choices` its
   * options; the provider sends buttons or a list where they fit, else the text.
   */
  sendMenu?(
    to: string,
    text: string,
    choices: MenuChoice[],
    options?: SendOptions,
  ): Promise<SentMessage>;
  /** An emoji on a message of the chat ("" removes ours; capability `reactions`). */
  sendReaction?(to: string, messageId: string, emoji: string): Promise<void>;
  /** Declines an incoming call (setting `call` disabled); optional for providers that cannot. */
  rejectCall?(callId: string, fromJid: string): Promise<void>;
}

/** What the session manager did with an event (the simulator answers its HTTP caller with it). */
export type DeliveryOutcome = {
  /** The stored message row (new, or the one a duplicate matched). */
  messageId?: number;
  ticketId?: number;
  /** The (connection, WhatsApp id) key was already stored: nothing was written. */
  duplicate?: boolean;
  /** Why nothing was stored, for events that are dropped on purpose (e.g. group messages). */
  ignored?: string;
};

/** What a provider gets from the session manager. */
export type ProviderContext = {
  whatsappId: number;
  companyId: number;
  /** Every event goes here; the session manager persists and routes it. Never throws back. */
  emit(event: ProviderEvent): void;
  /**
   * Like emit, but resolves once the event is processed (an inbound message stored, or known as a
   * duplicate). Rejects if processing failed, so a provider can withhold its receipt and let the
   * network redeliver. Events of one chat are processed in the order they are given.
   */
  deliver(event: ProviderEvent): Promise<DeliveryOutcome>;
  /**
   * For an event already acknowledged to WhatsApp that could not be stored because storage failed
   * (issue 34): kept in memory, in order, and stored when storage returns; resolves then.
   */
  hold?(event: ProviderEvent, error: unknown): Promise<DeliveryOutcome>;
  /** A stored message's provider payload, for retry requests (Baileys getMessage). */
  getStoredMessage(id: string): Promise<unknown | undefined>;
};

/** The connection an event came from. */
export type InboundRef = { id: number; companyId: number };

/**
 * What the inbound pipeline and the outbox need of the running sessions: a connection's provider
 * and a nudge to send what was just queued. The session manager is the one implementation; the
 * pipeline and the outbox never import it, so dependencies point one way:
 * sessions -> inbound -> outbox -> providers.
 */
export interface RunningProviders {
  /** The running provider of a connection, whatever its state. */
  provider(whatsappId: number): Provider | undefined;
  /** The provider only while the connection is CONNECTED (able to send). */
  connectedProvider(whatsappId: number): Provider | undefined;
  /** A row was queued for this connection: send it now rather than at the next tick. */
  kickOutbox(whatsappId: number): void;
  /** The company of a connection whose session runs here (its outbox reads that company's rows). */
  companyOf(whatsappId: number): number | undefined;
}
