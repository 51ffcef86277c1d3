import type { Contact } from "../../../db/schema.ts";
import { log } from "../../log.ts";
import { deleteMedia } from "../../media/store.ts";
import { settingValues } from "../../settings/values.ts";
import { TIME_ZONE_SETTING, zoneOf } from "../../../contract/time_zone.ts";
import { isAddress, isGroupAddress, lidOfAddress, phoneOfAddress } from "../providers/address.ts";
import type {
  DeliveryOutcome,
  InboundMessage,
  InboundRef,
  ProviderEvent,
} from "../providers/provider.ts";
import { forgetReplyMedia, prepareReplyMedia } from "../outbox/reply_media.ts";
import { KeyedQueue } from "../keyed_queue.ts";
import { callLogBody, CALLS_DISABLED_TEXT } from "./bodies.ts";
import { askBot } from "./bot_turn.ts";
import { contactView, resolveContact, type ResolvedContact } from "./contacts.ts";
import type { InboundDeps } from "./deps.ts";
import { chatKey, validId, validMessage } from "./event_checks.ts";
import { lookupInbound, type PipelineSettings } from "./lookup_repository.ts";
import { storeInboundMedia } from "./media.ts";
import { identityOf, messageValuesOf } from "./message_values.ts";
import { fetchPicture } from "./picture.ts";
import { ratingOf, recordRating } from "./rating.ts";
import { messageByWid } from "./repository.ts";
import { Duplicate, storeMessage, type StoreResult } from "./store_message.ts";
import { tellStored } from "./tell_stored.ts";
import { applyUpdate, contactUpdate } from "./updates.ts";
import { WriteBatcher } from "./write_batcher.ts";

const SETTING_KEYS = ["CheckMsgIsGroup", "call", "scheduleType", TIME_ZONE_SETTING] as const;

export type { InboundDeps } from "./deps.ts";

/**
 * The inbound pipeline (DESIGN 'WhatsApp'): dedupe by (connection, WhatsApp id) -> contact
 * upsert (contacts.ts) -> media (media.ts) -> a rating answer (rating.ts), or the ticket's bot,
 * if any (bot_turn.ts; server/bots/: queue menu, option tree, hours; integrations and prompts) ->
 * the message, its ticket and the replies in one transaction (store_message.ts) -> events after
 * commit (tell_stored.ts) -> a new contact's picture (picture.ts).
 *
 * Every event of one chat runs through a keyed queue, one at a time and in order, so that 50
 * concurrent messages of a new contact open exactly one ticket; the partial unique index
 * tickets_one_open is the backstop across processes.
 */
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
    const { identity, number } = identityOf(m);
    const group = identity.group !== undefined;
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

    const values = messageValuesOf({ ref, m, media, from: sender ?? contact, quoted, now });
    const referral = m.referral && !m.fromMe
      ? JSON.stringify({ ...m.referral, at: values.createdAt })
      : undefined;
    const forgetMedia = async () => {
      if (media.kind === "stored") await deleteMedia(config, companyId, media.stored.path);
    };

    const rate = awaitingRating ? ratingOf(m.body) : 0;
    if (awaitingRating && rate) {
      return await recordRating(this.deps, ref, awaitingRating, rate, values, forgetMedia);
    }

    const bot = await askBot(this.deps, {
      ref,
      settings,
      open,
      m,
      contact,
      media: media.kind === "stored"
        ? { type: media.mediaType, path: media.stored.path, mimetype: media.stored.mimetype }
        : null,
      answer: options.botAnswers !== false && !m.fromMe && !group,
    });
    const replyMedia = await prepareReplyMedia(config, companyId, bot.media);

    let result: StoreResult;
    try {
      // One transaction for the message, its ticket and any bot replies (group-committed).
      result = await this.#writes.run((trx) =>
        storeMessage(trx, {
          ref,
          m,
          contact,
          group,
          open,
          latest,
          values,
          referral,
          bot,
          replyMedia,
          extraReply: options.extraReply,
          timeZone: settings.timeZone,
          now,
        })
      );
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

    await forgetReplyMedia(config, companyId, replyMedia, result.stored);
    await tellStored(this.deps, { ref, contact, open, referral, result, stamp });
    if (resolved.created) this.#track(fetchPicture(this.deps, ref, contact, m.chatJid));
    return { messageId: result.stored[0].id, ticketId: result.ticketId };
  }

  /** Follow-up work that drain() waits for. */
  #track(task: Promise<void> | undefined) {
    if (!task) return;
    const tracked = task.finally(() => this.#background.delete(tracked));
    this.#background.add(tracked);
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
