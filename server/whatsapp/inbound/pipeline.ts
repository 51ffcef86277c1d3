import { noteMessage, noteOutgoing, noteOutgoingMany } from "../../events/outgoing_repository.ts";
import type { Contact, Message } from "../../../db/schema.ts";
import { log } from "../../log.ts";
import { deleteMedia } from "../../media/store.ts";
import { ticketChange } from "../../events/domain.ts";
import { settingValues } from "../../settings/values.ts";
import { ticketViewOf } from "../../tickets/view.ts";
import { loadTicketView, messageViews } from "../../tickets/view_repository.ts";
import { callLogBody, CALLS_DISABLED_TEXT } from "./bodies.ts";
import { contactView, resolveContact, type ResolvedContact } from "./contacts.ts";
import { storeInboundMedia } from "./media.ts";
import { applyUpdate, contactUpdate } from "./updates.ts";
import {
  groupOfAddress,
  idOfAddress,
  isAddress,
  isGroupAddress,
  lidOfAddress,
  normalizeAddress,
  phoneOfAddress,
} from "../providers/address.ts";
import { lookupInbound, type PipelineSettings, type TicketState } from "./lookup_repository.ts";
import {
  changeTicket,
  type InboundMessageValues,
  insertMessageOnce,
  insertMessageUnlessStored,
  insertRating,
  messageByWid,
  openTicketOf,
  openTicketOnce,
  setContactPicture,
  touchTicket,
} from "./repository.ts";
import { KeyedQueue } from "../keyed_queue.ts";
import { WriteBatcher } from "./write_batcher.ts";
import { enqueueInTransaction, lastMessageOf, type OutboxDeps } from "../outbox/outbox.ts";
import type {
  DeliveryOutcome,
  InboundMessage,
  InboundRef,
  ProviderEvent,
} from "../providers/provider.ts";
import { enqueueReplyMedia, forgetReplyMedia, prepareReplyMedia } from "../outbox/reply_media.ts";
import type { BotDecision, BotInboundMedia, BotTicket } from "../../bots/bot.ts";
import type { BotRegistry } from "../../bots/registry.ts";
import { renderVariables } from "../../messages/variables.ts";
import { TIME_ZONE_SETTING, zoneOf } from "../../../contract/time_zone.ts";

const SETTING_KEYS = ["CheckMsgIsGroup", "call", "scheduleType", TIME_ZONE_SETTING] as const;

/** Rolls the message transaction back when the idempotency key turns out to be taken. */
class Duplicate extends Error {}

/** How long a profile picture lookup may take (it runs after the message is stored). */
const PICTURE_TIMEOUT_MS = 10_000;

/**
 * The inbound pipeline (DESIGN 'WhatsApp'): dedupe by (connection, WhatsApp id) -> contact
 * upsert -> find-or-create the one open ticket -> the ticket's bot, if any (server/bots/: queue
 * menu, option tree, hours; integrations and prompts) ->
 * store message and media -> events after commit.
 *
 * Every event of one chat runs through a keyed queue, one at a time and in order, so that 50
 * concurrent messages of a new contact open exactly one ticket; the partial unique index
 * tickets_one_open is the backstop across processes.
 */
/** A ticket the pipeline is about to open, as the bots see it. */
const NEW_TICKET: BotTicket = {
  isNew: true,
  id: null,
  status: "pending",
  userId: null,
  queueId: null,
  chatbot: 0,
  queueOptionId: null,
  amountUsedBotQueues: 0,
  useIntegration: 0,
  integrationId: null,
  promptId: null,
  botSession: null,
  botSessionAt: null,
};

/** `storage`: media that cannot be stored is kept pending on a storage failure (issue 34). */
export type InboundDeps = OutboxDeps & { bots: BotRegistry };

export class InboundPipeline {
  readonly #chats = new KeyedQueue();
  readonly #background = new Set<Promise<unknown>>();
  readonly #writes: WriteBatcher;

  constructor(private readonly deps: InboundDeps) {
    this.#writes = new WriteBatcher(deps.db);
  }

  handle(ref: InboundRef, event: ProviderEvent): Promise<DeliveryOutcome> {
    switch (event.type) {
      case "message": {
        const message = validMessage(event.message, this.deps.clock.now());
        if (!message) return this.#malformed(ref, event);
        return this.#chats.run(chatKey(ref, message.chatJid), () => this.#message(ref, message));
      }
      case "ack":
      case "edit":
      case "revoke":
      case "failed":
      case "reaction": {
        if (!validId(event.id) || !isAddress(event.chatJid)) return this.#malformed(ref, event);
        return this.#chats.run(
          chatKey(ref, event.chatJid),
          () => applyUpdate(this.deps, ref, event),
        );
      }
      case "call": {
        if (!validId(event.id) || !isAddress(event.from)) return this.#malformed(ref, event);
        return this.#chats.run(chatKey(ref, event.from), () => this.#call(ref, event));
      }
      case "contact": {
        if (!isAddress(event.jid)) return this.#malformed(ref, event);
        return this.#chats.run(chatKey(ref, event.jid), () => contactUpdate(this.deps, ref, event));
      }
      default:
        return this.#malformed(ref, event);
    }
  }

  /** Resolves when every event given so far, and its follow-up work, has finished. */
  async drain(): Promise<void> {
    await this.#chats.drain();
    await this.#writes.idle();
    while (this.#background.size > 0) await Promise.all([...this.#background]);
  }

  #malformed(ref: InboundRef, event: unknown): Promise<DeliveryOutcome> {
    log.warn("malformed provider event ignored", {
      whatsappId: ref.id,
      type: (event as { type?: unknown })?.type,
    });
    return Promise.resolve({ ignored: "malformed event" });
  }

  async #settings(companyId: number): Promise<PipelineSettings> {
    const values = await settingValues(this.deps.db, companyId, SETTING_KEYS);
    return {
      ...values,
      timeZone: zoneOf([{ key: TIME_ZONE_SETTING, value: values.timeZone ?? "" }]),
    } as PipelineSettings;
  }

  async #call(
    ref: InboundRef,
    event: Extract<ProviderEvent, { type: "call" }>,
  ): Promise<DeliveryOutcome> {
    // Only the offer is logged: ringing/timeout/reject/accept follow the same call.
    if (event.status !== "offer") return { ignored: "call status" };
    if (isGroupAddress(event.from)) return { ignored: "group call" };
    const settings = await this.#settings(ref.companyId);
    const rejected = settings.call === "disabled";
    const now = this.deps.clock.now();
    if (rejected) {
      const provider = this.deps.sessions.provider(ref.id);
      if (provider?.rejectCall) {
        await provider.rejectCall(event.id, event.from).catch((error) =>
          log.warn("call reject failed", { whatsappId: ref.id, error })
        );
      }
      log.info("call rejected (setting call disabled)", { whatsappId: ref.id, callId: event.id });
    }
    return await this.#message(ref, {
      id: event.id,
      chatJid: event.from,
      isGroup: false,
      fromMe: false,
      timestamp: now,
      body: callLogBody(event.isVideo === true, now, rejected, settings.timeZone),
      mediaType: "call_log",
      origin: "notify",
    }, { botAnswers: false, extraReply: rejected ? CALLS_DISABLED_TEXT : undefined });
  }

  async #message(
    ref: InboundRef,
    m: InboundMessage,
    options: { botAnswers?: boolean; extraReply?: string } = {},
  ): Promise<DeliveryOutcome> {
    const { db, clock, config } = this.deps;
    const companyId = ref.companyId;
    const now = clock.now();
    const stamp = now.toISOString();
    const group = m.isGroup || isGroupAddress(m.chatJid)
      ? groupOfAddress(m.chatJid) ?? idOfAddress(m.chatJid)
      : undefined;
    const identity = group ? { group } : {
      phone: phoneOfAddress(m.phoneJid) ?? phoneOfAddress(m.chatJid),
      lid: lidOfAddress(m.lidJid) ?? lidOfAddress(m.chatJid),
      // fromMe: the push name is the phone owner's, not the contact's
      pushName: m.fromMe ? undefined : m.pushName,
    };
    const number = identity.group ?? identity.phone ?? identity.lid;
    if (!number) {
      log.warn("inbound message without a usable identity ignored", {
        whatsappId: ref.id,
        chatJid: m.chatJid,
      });
      return { ignored: "malformed event" };
    }
    // One query: settings, the idempotency key's early check, contact candidates, their tickets.
    const lookup = await lookupInbound(db, companyId, ref.id, m.id, number, identity.lid);
    const settings = lookup.settings;
    if (group && settings.CheckMsgIsGroup === "enabled") return { ignored: "group message" };
    // A redelivery does no download and no contact work.
    if (lookup.seen) {
      return { duplicate: true, messageId: lookup.seen.id, ticketId: lookup.seen.ticketId };
    }

    const resolved = await resolveContact(
      db,
      companyId,
      ref.id,
      identity,
      stamp,
      lookup.candidates.map((c) => c.contact),
    );
    if (!resolved) return { ignored: "malformed event" };
    this.#contactChanged(resolved);
    const contact = resolved.contact;
    let sender: Contact | undefined;
    if (group && m.participantJid && !m.fromMe) {
      const participant = await resolveContact(db, companyId, ref.id, {
        phone: phoneOfAddress(m.participantJid),
        lid: lidOfAddress(m.participantJid),
        pushName: m.pushName,
      }, stamp);
      if (participant) this.#contactChanged(participant);
      sender = participant?.contact;
    }

    const media = await storeInboundMedia(config, companyId, ref.id, m, this.deps.storage);
    const quoted = m.quotedId ? await messageByWid(db, companyId, ref.id, m.quotedId) : undefined;

    // The contact's open ticket on this connection if any, else its latest (rating answers).
    const latest = resolved.created
      ? undefined
      : lookup.candidates.find((c) => c.contact.id === contact.id)?.latest;
    const open = latest && latest.status !== "closed" ? latest : undefined;
    const awaitingRating = !open && latest?.awaitingRating === 1 && !m.fromMe && !group
      ? latest
      : undefined;

    const body = media.kind === "refused"
      ? [m.body.trim(), media.placeholder].filter(Boolean).join("\n\n")
      : m.body;
    const messageValues: Omit<InboundMessageValues, "ticketId"> = {
      companyId,
      contactId: sender?.id ?? contact.id,
      whatsappId: ref.id,
      wid: m.id,
      remoteJid: normalizeAddress(m.chatJid),
      participant: m.participantJid ?? null,
      body,
      fromMe: m.fromMe ? 1 : 0,
      mediaType: media.kind === "refused" ? null : media.mediaType,
      mediaUrl: media.kind === "stored" ? media.stored.path : null,
      mediaName: media.kind === "stored"
        ? media.stored.filename
        : media.kind === "pending"
        ? media.filename
        : null,
      mediaMimetype: media.kind === "stored"
        ? media.stored.mimetype
        : media.kind === "pending"
        ? media.mimetype
        : null,
      mediaPending: media.kind === "pending" ? 1 : 0,
      ack: m.fromMe ? 1 : 0,
      read: m.fromMe ? 1 : 0,
      quotedMsgId: quoted?.id ?? null,
      isForwarded: m.forwarded ? 1 : 0,
      dataJson: m.raw === undefined ? null : safeJson(m.raw),
      createdAt: messageTime(m.timestamp, now),
      updatedAt: stamp,
    };
    const referral = m.referral && !m.fromMe
      ? JSON.stringify({ ...m.referral, at: messageValues.createdAt })
      : undefined;
    const forgetMedia = async () => {
      if (media.kind === "stored") await deleteMedia(config, companyId, media.stored.path);
    };

    // seeds/000 section 9: ratings 1 unsatisfied, 2 satisfied, 3 very satisfied.
    const rate = awaitingRating && /^[123]$/.test(m.body.trim()) ? Number(m.body.trim()) : 0;
    if (awaitingRating && rate) {
      return await this.#rating(ref, awaitingRating, rate, messageValues, forgetMedia);
    }

    const bot = await this.#botTurn(
      ref,
      settings,
      open,
      m,
      contact,
      media.kind === "stored"
        ? { type: media.mediaType, path: media.stored.path, mimetype: media.stored.mimetype }
        : null,
      options.botAnswers !== false && !m.fromMe && !group,
    );
    const replyMedia = await prepareReplyMedia(config, companyId, bot.media);

    let created = false;
    let stored: Message[];
    let ticketId: number;
    let unread: number;
    let changed: boolean;
    let notes: { ticket?: string; messages: string[] };
    try {
      // One transaction for the message, its ticket and any bot replies (group-committed).
      ({ stored, ticketId, unread, created, changed, notes } = await this.#writes.run(
        async (trx) => {
          let target: { id: number } | undefined = open;
          let isNew = false;
          let replies = bot.replies;
          let changes = bot.changes;
          let media = replyMedia;
          if (!target) {
            // tickets_one_open stops a second pending/open ticket for this contact and connection.
            target = await openTicketOnce(trx, {
              uuid: crypto.randomUUID(),
              companyId,
              contactId: contact.id,
              whatsappId: ref.id,
              status: "pending",
              queueId: bot.newTicketQueueId ?? null,
              isGroup: group ? 1 : 0,
              lastMessage: "",
              unreadMessages: 0,
              createdAt: stamp,
              updatedAt: stamp,
            });
            if (target) {
              isNew = true;
            } else {
              // Another process opened it first: use that one; its creator already greeted.
              target = await openTicketOf(trx, companyId, contact.id, ref.id);
              replies = [];
              changes = {};
              media = [];
            }
          }
          const texts = [...replies];
          if (options.extraReply) texts.push(options.extraReply);
          // Each reply with its menu choices (a menu the channel may send as buttons).
          const menus = replies === bot.replies ? bot.menus ?? {} : {};
          const replyBodies = texts
            .map((text, i) => ({
              body: renderVariables(text, {
                contact,
                ticketId: target.id,
                now,
                timeZone: settings.timeZone,
              }),
              menu: menus[i],
            }))
            .filter((reply) => reply.body.trim());
          const hasChanges = Object.keys(changes).length > 0;
          const values = { ...messageValues, ticketId: target.id };
          const unreadIncrement = m.fromMe ? 0 : 1;
          let rows: Message[];
          let unread: number;
          if (replyBodies.length === 0 && media.length === 0 && !hasChanges) {
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
            rows = [inbound];
            // A bot may space its replies (typebotDelayMessage): each is due that much later.
            const spacing = bot.spacingMs ?? 0;
            const dueAt = (i: number) =>
              spacing > 0 ? new Date(now.getTime() + i * spacing).toISOString() : stamp;
            for (const [i, { body, menu }] of replyBodies.entries()) {
              rows.push(
                await enqueueInTransaction(trx, {
                  companyId,
                  whatsappId: ref.id,
                  ticketId: target.id,
                  contactId: contact.id,
                  toJid: normalizeAddress(m.chatJid),
                  body,
                  menu,
                  now: stamp,
                  dueAt: dueAt(i),
                }),
              );
            }
            rows.push(
              ...await enqueueReplyMedia(trx, {
                companyId,
                whatsappId: ref.id,
                ticketId: target.id,
                contactId: contact.id,
                toJid: normalizeAddress(m.chatJid),
                now: stamp,
                dueAt: (i) => dueAt(replyBodies.length + i),
              }, media),
            );
            const last = rows[rows.length - 1];
            const lastMessage = lastMessageOf(last.body, last.mediaName, last.mediaType);
            if (hasChanges) await changeTicket(trx, companyId, target.id, changes);
            unread = await touchTicket(
              trx,
              companyId,
              target.id,
              lastMessage,
              stamp,
              unreadIncrement,
            );
          }
          // Came from an ad: the ticket keeps which (the latest ad wins).
          if (referral) await changeTicket(trx, companyId, target.id, { referral });
          if (latest && latest.awaitingRating === 1 && latest.status === "closed" && !m.fromMe) {
            // Any other answer than a rating ends the wait for one (and goes the normal way).
            await changeTicket(trx, companyId, latest.id, { awaitingRating: 0 });
          }
          // The webhooks and pushes of what is told below, noted with it (events/outgoing.ts).
          const ticketEvent = isNew
            ? "ticket.created"
            : hasChanges && open
            ? ((changes.status ?? open.status) === "closed" ? "ticket.closed" : "ticket.updated")
            : undefined;
          const before = open
            ? { status: open.status, queueId: open.queueId, userId: open.userId }
            : undefined;
          const keys = await noteOutgoingMany(trx, companyId, [
            ...(ticketEvent
              ? [{ event: ticketEvent, subject: { ticketId: target.id, before } }]
              : []),
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
        },
      ));
    } catch (error) {
      await forgetReplyMedia(config, companyId, replyMedia).catch(() => {});
      if (!(error instanceof Duplicate)) {
        await forgetMedia().catch(() => {});
        throw error;
      }
      await forgetMedia();
      const existing = await messageByWid(db, companyId, ref.id, m.id);
      return { duplicate: true, messageId: existing?.id, ticketId: existing?.ticketId };
    }

    await forgetReplyMedia(config, companyId, replyMedia, stored);

    // An ordinary message changes nothing of the ticket but its last message, time and unread
    // count: its view is built from what was read and written instead of being read again.
    const last = stored[stored.length - 1];
    const view = open && !changed
      ? ticketViewOf({
        ...open,
        referralJson: referral ?? open.referralJson,
        lastMessage: lastMessageOf(last.body, last.mediaName, last.mediaType),
        unreadMessages: unread,
        updatedAt: stamp,
        contactName: contact.name,
        contactNumber: contact.number,
        contactEmail: contact.email,
        contactPic: contact.profilePicUrl,
        contactIsGroup: contact.isGroup,
      })
      : await loadTicketView(db, companyId, ticketId);
    if (view) {
      const before = open
        ? { status: open.status, queueId: open.queueId, userId: open.userId }
        : undefined;
      const outgoing = notes.ticket;
      if (created) this.deps.events.emit("ticket.created", { ticket: view, outgoing });
      else if (changed) {
        this.deps.events.emit(ticketChange(view, before), { ticket: view, before, outgoing });
      }
      for (const [i, message] of (await messageViews(db, companyId, stored)).entries()) {
        this.deps.events.emit("message.created", {
          message,
          ticket: view,
          outgoing: notes.messages[i],
        });
      }
    }
    if (stored.length > 1) this.deps.sessions.kickOutbox(ref.id);
    if (resolved.created) this.#fetchPicture(ref, contact, m.chatJid);
    return { messageId: stored[0].id, ticketId };
  }

  /** Asks the bot that owns the ticket (if any) what to answer and change (server/bots/). */
  #botTurn(
    ref: InboundRef,
    settings: PipelineSettings,
    open: TicketState | undefined,
    m: InboundMessage,
    contact: Contact,
    media: BotInboundMedia | null,
    answer: boolean,
  ): Promise<BotDecision> {
    const ticket: BotTicket = open
      ? {
        isNew: false,
        id: open.id,
        status: open.status,
        userId: open.userId,
        queueId: open.queueId,
        chatbot: open.chatbot,
        queueOptionId: open.queueOptionId,
        amountUsedBotQueues: open.amountUsedBotQueues,
        useIntegration: open.useIntegration,
        integrationId: open.integrationId,
        promptId: open.promptId,
        botSession: open.botSession ?? null,
        botSessionAt: open.botSessionAt ?? null,
      }
      : { ...NEW_TICKET };
    return this.deps.bots.decide({
      db: this.deps.db,
      companyId: ref.companyId,
      whatsappId: ref.id,
      ticket,
      contact: {
        id: contact.id,
        name: contact.name,
        number: contact.number,
        email: contact.email,
      },
      // A tapped menu button answers with its choice, as if the contact typed it.
      body: m.choice ?? m.body,
      media,
      scheduleType: settings.scheduleType,
      timeZone: settings.timeZone,
      now: this.deps.clock.now(),
      answer,
    });
  }

  /** A 1-3 answer to a rating request: recorded on the closed ticket; no new ticket opens. */
  async #rating(
    ref: InboundRef,
    closed: TicketState,
    rate: number,
    values: Omit<
      Message,
      | "id"
      | "ticketId"
      | "isDeleted"
      | "isEdited"
      | "sendError"
      | "previousBodies"
      | "transcript"
      | "transcriptError"
      | "reaction"
      | "ownReaction"
    >,
    forgetMedia: () => Promise<void>,
  ): Promise<DeliveryOutcome> {
    const { db } = this.deps;
    const companyId = ref.companyId;
    let inserted: (Message & { outgoing: string }) | undefined;
    try {
      inserted = await db.transaction().execute(async (trx) => {
        const row = await insertMessageUnlessStored(trx, { ...values, ticketId: closed.id });
        if (!row) throw new Duplicate();
        await insertRating(trx, companyId, {
          ticketId: closed.id,
          userId: closed.userId,
          rate,
          createdAt: values.updatedAt,
        });
        await changeTicket(trx, companyId, closed.id, { awaitingRating: 0 });
        const outgoing = await noteMessage(
          trx,
          companyId,
          "message.created",
          row,
          values.updatedAt,
        );
        return { ...row, outgoing: outgoing.message };
      });
    } catch (error) {
      await forgetMedia().catch(() => {});
      if (!(error instanceof Duplicate)) throw error;
      return { duplicate: true };
    }
    const view = await loadTicketView(db, companyId, closed.id);
    if (view) {
      const outgoing = inserted.outgoing;
      for (const message of await messageViews(db, companyId, [inserted])) {
        this.deps.events.emit("message.created", { message, ticket: view, outgoing });
      }
    }
    log.info("ticket rated", { companyId, ticketId: closed.id, rate });
    return { messageId: inserted.id, ticketId: closed.id };
  }

  /** A new contact's profile picture, fetched after the message is stored (never blocks it). */
  #fetchPicture(ref: InboundRef, contact: Contact, address: string) {
    const provider = this.deps.sessions.provider(ref.id);
    if (!provider) return;
    const task = (async () => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const url = await Promise.race([
        provider.profilePictureUrl(address),
        new Promise<undefined>((resolve) => {
          timer = setTimeout(() => resolve(undefined), PICTURE_TIMEOUT_MS);
        }),
      ]).finally(() => clearTimeout(timer));
      if (!url) return;
      const now = this.deps.clock.now().toISOString();
      const updated = await this.deps.db.transaction().execute(async (trx) => {
        const row = await setContactPicture(trx, contact.companyId, contact.id, url, now);
        return row && {
          row,
          outgoing: await noteOutgoing(trx, row.companyId, "contact.updated", {
            contactId: row.id,
          }, now),
        };
      });
      if (updated) {
        this.deps.events.emit("contact.updated", {
          companyId: updated.row.companyId,
          contact: contactView(updated.row),
          outgoing: updated.outgoing,
        });
      }
    })().catch((error) =>
      log.warn("profile picture lookup failed", {
        whatsappId: ref.id,
        contactId: contact.id,
        error,
      })
    ).finally(() => this.#background.delete(task));
    this.#background.add(task);
  }

  /**
   * A WhatsApp identity made or changed a contact (committed by resolveContact): told at once,
   * before the message's ticket events, so a listener knows the contact a ticket refers to.
   */
  #contactChanged({ contact, created, changed }: ResolvedContact) {
    if (!created && !changed) return;
    this.deps.events.emit(created ? "contact.created" : "contact.updated", {
      companyId: contact.companyId,
      contact: contactView(contact),
    });
  }
}

function chatKey(ref: InboundRef, address: string): string {
  return `${ref.id}:${normalizeAddress(address)}`;
}

function validId(id: unknown): id is string {
  return typeof id === "string" && id.length > 0 && id.length <= 200;
}

/** A provider's message, checked field by field; undefined when it cannot be stored safely. */
function validMessage(value: unknown, now: Date): InboundMessage | undefined {
  if (!value || typeof value !== "object") return undefined;
  const m = value as Partial<InboundMessage>;
  if (!validId(m.id) || typeof m.chatJid !== "string" || !isAddress(m.chatJid)) return undefined;
  if (m.body !== undefined && typeof m.body !== "string") return undefined;
  if (
    m.media !== undefined &&
    (typeof m.media !== "object" || typeof m.media?.download !== "function")
  ) {
    return undefined;
  }
  const timestamp = m.timestamp instanceof Date && !isNaN(m.timestamp.getTime())
    ? m.timestamp
    : now;
  return {
    ...m,
    id: m.id,
    chatJid: m.chatJid,
    isGroup: m.isGroup === true,
    fromMe: m.fromMe === true,
    timestamp,
    body: m.body ?? "",
    origin: m.origin === "append" ? "append" : "notify",
  } as InboundMessage;
}

/** The provider's time (backlog keeps its order), unless it is in the future. */
function messageTime(timestamp: Date, now: Date): string {
  return timestamp.getTime() <= now.getTime() ? timestamp.toISOString() : now.toISOString();
}

function safeJson(value: unknown): string | null {
  try {
    return JSON.stringify(value);
  } catch {
    return null;
  }
}
