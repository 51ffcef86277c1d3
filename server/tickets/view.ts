import { capabilitiesOf } from "../../contract/channels.ts";
import type { Message } from "../../db/schema.ts";
import type { MessageView, PreviousBody, TicketView } from "../../contract/ticket_types.ts";

/** Declared once in contract/ (the islands read the same types). */
export type { MessageView, TicketView };

/** The row loadTicketViews selects; the inbound pipeline builds the same from its lookup. */
export type TicketViewRow = {
  id: number;
  uuid: string;
  status: TicketView["status"];
  contactId: number;
  userId: number | null;
  queueId: number | null;
  whatsappId: number | null;
  isGroup: number;
  chatbot: number;
  useIntegration: number;
  integrationId: number | null;
  promptId: number | null;
  lastMessage: string;
  /** 1 when the newest message is deleted for everyone (loadTicketViews; absent elsewhere). */
  lastMessageDeleted?: number;
  unreadMessages: number;
  companyId: number;
  createdAt: string;
  updatedAt: string;
  firstResponseDueAt: string | null;
  resolutionDueAt: string | null;
  slaBreachedAt: string | null;
  resolutionPausedAt: string | null;
  contactName: string;
  contactNumber: string;
  contactEmail: string;
  contactPic: string;
  contactIsGroup: number;
  userName: string | null;
  queueName: string | null;
  queueColor: string | null;
  whatsappName: string | null;
  whatsappStatus: string | null;
  whatsappProvider: string | null;
  tagsJson: string | null;
  referralJson: string | null;
};

export function ticketViewOf(r: TicketViewRow): TicketView {
  return {
    id: r.id,
    uuid: r.uuid,
    status: r.status,
    contactId: r.contactId,
    contact: {
      id: r.contactId,
      name: r.contactName,
      number: r.contactNumber,
      email: r.contactEmail,
      profilePicUrl: r.contactPic,
      isGroup: r.contactIsGroup === 1,
    },
    userId: r.userId,
    user: r.userId !== null && r.userName !== null ? { id: r.userId, name: r.userName } : null,
    queueId: r.queueId,
    queue: r.queueId !== null && r.queueName !== null
      ? { id: r.queueId, name: r.queueName, color: r.queueColor ?? "" }
      : null,
    whatsappId: r.whatsappId,
    whatsapp: r.whatsappId !== null && r.whatsappName !== null
      ? {
        id: r.whatsappId,
        name: r.whatsappName,
        status: r.whatsappStatus ?? "",
        // What the chat offers (issue 45): the window, templates, reactions… never the kind.
        capabilities: capabilitiesOf(r.whatsappProvider ?? ""),
      }
      : null,
    tags: r.tagsJson ? JSON.parse(r.tagsJson) as TicketView["tags"] : [],
    isGroup: r.isGroup === 1,
    chatbot: r.chatbot === 1,
    useIntegration: r.useIntegration === 1,
    integrationId: r.integrationId,
    promptId: r.promptId,
    lastMessage: r.lastMessage,
    lastMessageDeleted: r.lastMessageDeleted === 1,
    unreadMessages: r.unreadMessages,
    companyId: r.companyId,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
    firstResponseDueAt: r.firstResponseDueAt ?? null,
    resolutionDueAt: r.resolutionDueAt ?? null,
    slaBreachedAt: r.slaBreachedAt ?? null,
    resolutionPausedAt: r.resolutionPausedAt ?? null,
    referral: r.referralJson ? JSON.parse(r.referralJson) as TicketView["referral"] : null,
  };
}

/**
 * A ticket as the lists answer it (GET /api/tickets, issue 49): the view without what only an
 * open ticket reads, its connection's capabilities (the chat's tools) and the ad it came from.
 * The open ticket reads its own view (GET /api/tickets/u/:uuid, GET /api/messages/:ticketId).
 */
export function listItemOf(view: TicketView): TicketView {
  const { referral: _, whatsapp, ...item } = view;
  return {
    ...item,
    whatsapp: whatsapp && { id: whatsapp.id, name: whatsapp.name, status: whatsapp.status },
  };
}

export function mediaUrlOf(message: Pick<Message, "id" | "mediaUrl">): string | null {
  return message.mediaUrl ? `/api/messages/${message.id}/media` : null;
}

export function baseView(m: MessageViewRow): Omit<MessageView, "quotedMsg"> {
  return {
    id: m.id,
    wid: m.wid,
    ticketId: m.ticketId,
    contactId: m.contactId,
    body: m.body,
    fromMe: m.fromMe === 1,
    mediaType: m.mediaType,
    mediaUrl: mediaUrlOf(m),
    mediaName: m.mediaName,
    isDeleted: m.isDeleted === 1,
    isEdited: m.isEdited === 1,
    ack: m.ack,
    read: m.read === 1,
    sendError: m.sendError ?? null,
    mediaPending: m.mediaPending === 1,
    isForwarded: m.isForwarded === 1,
    previousBodies: previousBodiesOf(m.previousBodies),
    transcript: m.transcript ?? null,
    transcriptError: m.transcriptError ?? null,
    reaction: m.reaction ?? null,
    ownReaction: m.ownReaction ?? null,
    createdAt: m.createdAt,
    updatedAt: m.updatedAt,
  };
}

/** The stored history of edits (messages.previousBodies, JSON); [] when never edited. */
export function previousBodiesOf(json: string | null): PreviousBody[] {
  if (!json) return [];
  try {
    const list = JSON.parse(json);
    return Array.isArray(list) ? list : [];
  } catch {
    return [];
  }
}

/** A message row as views need it: the provider's raw payload (dataJson) is never read. */
export type MessageRow = Omit<Message, "dataJson">;

/** The columns baseView reads: what the conversation's answer selects (issue 49). */
export type MessageViewRow = Omit<
  MessageRow,
  | "companyId"
  | "whatsappId"
  | "remoteJid"
  | "participant"
  | "quotedMsgId"
  | "mediaMimetype"
>;
