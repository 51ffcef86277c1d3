import type { Database } from "../../../db/client.ts";
import type { Contact, Message } from "../../../db/schema.ts";
import type { BotDecision } from "../../bots/bot.ts";
import { noteOutgoingMany } from "../../events/outgoing_repository.ts";
import { renderVariables } from "../../messages/variables.ts";
import { enqueueInTransaction, lastMessageOf, type OutgoingMedia } from "../outbox/outbox.ts";
import { enqueueReplyMedia } from "../outbox/reply_media.ts";
import { normalizeAddress } from "../providers/address.ts";
import type { InboundMessage, InboundRef } from "../providers/provider.ts";
import type { TicketState } from "./lookup_repository.ts";
import type { MessageValues } from "./message_values.ts";
import {
  changeTicket,
  insertMessageOnce,
  openTicketOf,
  openTicketOnce,
  touchTicket,
} from "./repository.ts";

/** Rolls the message transaction back when the idempotency key turns out to be taken. */
export class Duplicate extends Error {}

export type StoreInput = {
  ref: InboundRef;
  m: InboundMessage;
  contact: Contact;
  group: boolean;
  /** The contact's open ticket on this connection as read before, and its latest ticket. */
  open: TicketState | undefined;
  latest: TicketState | undefined;
  values: MessageValues;
  /** The ad the message came from (JSON), kept on the ticket. */
  referral: string | undefined;
  bot: BotDecision;
  /** The bot's files, each with its own key already (reply_media.ts). */
  replyMedia: OutgoingMedia[];
  /** A text sent whatever the bot says (a refused call's notice). */
  extraReply?: string;
  timeZone: string;
  now: Date;
};

export type StoreResult = {
  /** The inbound message first, then the replies queued with it. */
  stored: Message[];
  ticketId: number;
  unread: number;
  created: boolean;
  changed: boolean;
  /** The outgoing notes' keys of what is told after commit (events/outgoing.ts). */
  notes: { ticket?: string; messages: string[] };
};

/**
 * The message, its ticket (found or opened) and the bot's replies and changes: run inside ONE
 * transaction (the pipeline's write batcher). Throws Duplicate when the message's (connection,
 * WhatsApp id) is already stored, so the whole turn rolls back.
 */
export async function storeMessage(trx: Database, input: StoreInput): Promise<StoreResult> {
  const { m, open, latest } = input;
  const companyId = input.ref.companyId;
  const stamp = input.now.toISOString();
  const { target, isNew, turn } = await targetTicket(trx, input);
  const replies = replyBodies(input, target.id, turn);
  const hasChanges = Object.keys(turn.changes).length > 0;
  const values = { ...input.values, ticketId: target.id };
  const unreadIncrement = m.fromMe ? 0 : 1;
  let rows: Message[];
  let unread: number;
  if (replies.length === 0 && turn.media.length === 0 && !hasChanges) {
    // The usual message: its insert and the ticket's touch go to the database thread
    // together, one round trip instead of two. A duplicate found by the insert throws,
    // which rolls the touch back with it.
    const lastMessage = lastMessageOf(values.body, values.mediaName, values.mediaType);
    const [inbound, touched] = await Promise.all([
      insertMessageOnce(trx, values),
      touchTicket(trx, companyId, target.id, lastMessage, stamp, unreadIncrement),
    ]);
    if (!inbound) throw new Duplicate();
    rows = [inbound];
    unread = touched;
  } else {
    const inbound = await insertMessageOnce(trx, values);
    if (!inbound) throw new Duplicate();
    rows = [inbound, ...await queueReplies(trx, input, target.id, replies, turn.media)];
    const last = rows[rows.length - 1];
    const lastMessage = lastMessageOf(last.body, last.mediaName, last.mediaType);
    if (hasChanges) await changeTicket(trx, companyId, target.id, turn.changes);
    unread = await touchTicket(trx, companyId, target.id, lastMessage, stamp, unreadIncrement);
  }
  // Came from an ad: the ticket keeps which (the latest ad wins).
  if (input.referral) {
    await changeTicket(trx, companyId, target.id, { referral: input.referral });
  }
  if (latest && latest.awaitingRating === 1 && latest.status === "closed" && !m.fromMe) {
    // Any other answer than a rating ends the wait for one (and goes the normal way).
    await changeTicket(trx, companyId, latest.id, { awaitingRating: 0 });
  }
  // The webhooks and pushes of what is told after commit, noted with it (events/outgoing.ts).
  const ticketEvent = isNew
    ? "ticket.created"
    : hasChanges && open
    ? ((turn.changes.status ?? open.status) === "closed" ? "ticket.closed" : "ticket.updated")
    : undefined;
  const before = open
    ? { status: open.status, queueId: open.queueId, userId: open.userId }
    : undefined;
  const keys = await noteOutgoingMany(trx, companyId, [
    ...(ticketEvent ? [{ event: ticketEvent, subject: { ticketId: target.id, before } }] : []),
    ...rows.map((row) => ({
      event: "message.created",
      subject: { ticketId: target.id, messageId: row.id },
    })),
  ], stamp);
  return {
    stored: rows,
    ticketId: target.id,
    unread,
    created: isNew,
    changed: hasChanges,
    notes: ticketEvent ? { ticket: keys[0], messages: keys.slice(1) } : { messages: keys },
  };
}

/** What of the bot's decision this transaction carries out. */
type Turn = {
  replies: string[];
  changes: BotDecision["changes"];
  media: OutgoingMedia[];
  menus: NonNullable<BotDecision["menus"]>;
};

/** The open ticket, else a new one; else the one another process opened first. */
async function targetTicket(
  trx: Database,
  input: StoreInput,
): Promise<{ target: { id: number }; isNew: boolean; turn: Turn }> {
  const { ref, bot, contact } = input;
  const turn: Turn = {
    replies: bot.replies,
    changes: bot.changes,
    media: input.replyMedia,
    menus: bot.menus ?? {},
  };
  if (input.open) return { target: input.open, isNew: false, turn };
  const stamp = input.now.toISOString();
  // tickets_one_open stops a second pending/open ticket for this contact and connection.
  const opened = await openTicketOnce(trx, {
    uuid: crypto.randomUUID(),
    companyId: ref.companyId,
    contactId: contact.id,
    whatsappId: ref.id,
    status: "pending",
    queueId: bot.newTicketQueueId ?? null,
    isGroup: input.group ? 1 : 0,
    lastMessage: "",
    unreadMessages: 0,
    createdAt: stamp,
    updatedAt: stamp,
  });
  if (opened) return { target: opened, isNew: true, turn };
  // Another process opened it first: use that one; its creator already greeted.
  const theirs = await openTicketOf(trx, ref.companyId, contact.id, ref.id);
  return {
    target: theirs,
    isNew: false,
    turn: { replies: [], changes: {}, media: [], menus: {} },
  };
}

/** The replies' texts, their variables filled for this ticket, each with its menu choices. */
function replyBodies(input: StoreInput, ticketId: number, turn: Turn) {
  const texts = [...turn.replies];
  if (input.extraReply) texts.push(input.extraReply);
  return texts
    .map((text, i) => ({
      body: renderVariables(text, {
        contact: input.contact,
        ticketId,
        now: input.now,
        timeZone: input.timeZone,
      }),
      // A menu the channel may send as buttons.
      menu: turn.menus[i],
    }))
    .filter((reply) => reply.body.trim());
}

/** The replies' outbox rows, texts then files; a bot may space them (typebotDelayMessage). */
async function queueReplies(
  trx: Database,
  input: StoreInput,
  ticketId: number,
  replies: ReturnType<typeof replyBodies>,
  media: OutgoingMedia[],
): Promise<Message[]> {
  const { ref, m } = input;
  const stamp = input.now.toISOString();
  const spacing = input.bot.spacingMs ?? 0;
  const dueAt = (i: number) =>
    spacing > 0 ? new Date(input.now.getTime() + i * spacing).toISOString() : stamp;
  const common = {
    companyId: ref.companyId,
    whatsappId: ref.id,
    ticketId,
    contactId: input.contact.id,
    toJid: normalizeAddress(m.chatJid),
  };
  const rows: Message[] = [];
  for (const [i, { body, menu }] of replies.entries()) {
    rows.push(
      await enqueueInTransaction(trx, { ...common, body, menu, now: stamp, dueAt: dueAt(i) }),
    );
  }
  rows.push(
    ...await enqueueReplyMedia(trx, {
      ...common,
      now: stamp,
      dueAt: (i) => dueAt(replies.length + i),
    }, media),
  );
  return rows;
}
