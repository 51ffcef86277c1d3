import { AppError } from "../../../errors.ts";
import { log } from "../../../log.ts";
import { groupOf, lidOf, newMessageId, phoneOf } from "../address.ts";
import {
  type Ack,
  type DeliveryOutcome,
  type InboundMessage,
  type OutboundMedia,
  type Provider,
  type ProviderContext,
  ProviderSendError,
  type SendOptions,
  type SentMessage,
} from "../provider.ts";
import type { ProviderDeps } from "../registry.ts";
import {
  editSent,
  linkDevice,
  linkedNumber,
  markSentDeleted,
  raiseAck,
  recordSent,
  sentAwaitingAcks,
  unlinkDevice,
  unreadSent,
} from "./repository.ts";

type State = "idle" | "waiting" | "connected";

/** How many phone-sent media the simulator keeps for a download again. */
const SENT_MEDIA_KEPT = 200;

/** What a simulated phone sends to the connection. */
export type SimulatedMessage = {
  /** The chat: the contact's phone JID, their LID JID, or a group JID. */
  chatJid: string;
  phoneJid?: string;
  lidJid?: string;
  participantJid?: string;
  pushName?: string;
  body: string;
  mediaType?: InboundMessage["mediaType"];
  media?: { data: Uint8Array; mimetype: string; filename?: string };
  quotedId?: string;
  id?: string;
  fromMe?: boolean;
  /** The phone forwards it (WhatsApp marks it forwarded). */
  forwarded?: boolean;
};

/**
 * What a simulator connection needs of the phone network around it (network.ts is the one): a
 * place to register while started, the pictures contacts chose and the pace of acks.
 */
export interface PhoneNetwork {
  readonly ackDelayMs: number;
  readonly avatars: Map<string, string>;
  attach(provider: SimulatorProvider): void;
  detach(provider: SimulatorProvider): void;
}

/** The fake phone number a simulator connection gets when its QR is scanned. */
export function simulatorNumber(whatsappId: number): string {
  return `5500${String(whatsappId).padStart(9, "0")}`;
}

/**
 * The simulator's side of a connection: a Provider like Baileys, plus the phone-side actions the
 * network routes call. Sends are idempotent by WhatsApp id (simulator_sent's unique key), so an
 * outbox resend after a crash is recognised instead of delivered twice.
 */
export class SimulatorProvider implements Provider {
  readonly kind = "simulator" as const;
  #state: State = "idle";
  #qr = "";
  readonly #timers = new Set<ReturnType<typeof setTimeout>>();
  readonly #work = new Set<Promise<unknown>>();
  /**
   * What the phones sent as media, by message id (the phone keeps its copy, issue 34): a message
   * whose media could not be stored is downloaded again from here. The newest SENT_MEDIA_KEPT.
   */
  readonly #sentMedia = new Map<string, Uint8Array>();
  /** Calls this connection declined (setting `call` disabled), newest last. */
  readonly rejectedCalls: { id: string; from: string; at: string }[] = [];

  constructor(
    private readonly ctx: ProviderContext,
    private readonly deps: ProviderDeps,
    private readonly network: PhoneNetwork,
  ) {}

  get whatsappId(): number {
    return this.ctx.whatsappId;
  }

  get state(): State {
    return this.#state;
  }

  get qr(): string {
    return this.#qr;
  }

  async start(): Promise<void> {
    this.network.attach(this);
    const linked = await linkedNumber(this.deps.db, this.ctx.companyId, this.whatsappId);
    if (linked !== undefined) {
      this.#state = "connected";
      await this.ctx.deliver({ type: "connected", number: linked });
      await this.#resumeAcks();
      return;
    }
    this.#state = "waiting";
    this.#qr = `balcao-simulator:${this.whatsappId}:${crypto.randomUUID()}`;
    await this.ctx.deliver({ type: "qr", qr: this.#qr });
  }

  async stop(): Promise<void> {
    this.#state = "idle";
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers.clear();
    this.network.detach(this);
    while (this.#work.size > 0) await Promise.all([...this.#work]);
  }

  async logout(): Promise<void> {
    await unlinkDevice(this.deps.db, this.ctx.companyId, this.whatsappId);
    await this.stop();
  }

  async requestPairingCode(_phoneNumber: string): Promise<string> {
    if (this.#state !== "waiting") throw new Error("pairing is only possible while waiting");
    const code = Array.from(
      crypto.getRandomValues(new Uint8Array(8)),
      (b) => "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"[b % 32],
    ).join("");
    await this.ctx.deliver({ type: "pairingCode", code });
    return code;
  }

  sendText(toJid: string, text: string, options?: SendOptions): Promise<SentMessage> {
    return this.#send(toJid, { body: text }, options);
  }

  sendMedia(toJid: string, media: OutboundMedia, options?: SendOptions): Promise<SentMessage> {
    return this.#send(toJid, { body: media.caption ?? "", media }, options);
  }

  async deleteForEveryone(chatJid: string, messageId: string, _fromMe: boolean): Promise<void> {
    this.#assertConnected();
    await markSentDeleted(
      this.deps.db,
      this.ctx.companyId,
      this.whatsappId,
      chatJid,
      messageId,
      this.deps.clock.now().toISOString(),
    );
  }

  /** The phone shows the new text, marked edited; only a text this connection sent. */
  async editText(chatJid: string, messageId: string, text: string): Promise<void> {
    this.#assertConnected();
    const edited = await editSent(
      this.deps.db,
      this.ctx.companyId,
      this.whatsappId,
      chatJid,
      messageId,
      text,
      this.deps.clock.now().toISOString(),
    );
    if (!edited) throw new ProviderSendError("no such message to edit", { permanent: true });
  }

  /**
   * Numbers of 10 to 15 digits are "on WhatsApp" in the simulator, except those ending in 404
   * (a deterministic "not on WhatsApp" for demos and tests of contact lists and campaigns).
   */
  checkNumber(number: string): Promise<{ exists: boolean; jid?: string }> {
    this.#assertConnected();
    const digits = number.replace(/\D/g, "");
    const exists = digits.length >= 10 && digits.length <= 15 && !digits.endsWith("404");
    return Promise.resolve(exists ? { exists, jid: `${digits}@s.whatsapp.net` } : { exists });
  }

  profilePictureUrl(jid: string): Promise<string | undefined> {
    return Promise.resolve(this.network.avatars.get(jid));
  }

  rejectCall(callId: string, fromJid: string): Promise<void> {
    this.rejectedCalls.push({ id: callId, from: fromJid, at: this.deps.clock.now().toISOString() });
    return Promise.resolve();
  }

  // ---- the phone side (used by the /api/simulator routes and tests) ----

  /** "Scans" the QR (or confirms the pairing code): the device is linked and connects. */
  async scan(): Promise<string> {
    if (this.#state !== "waiting") {
      throw new AppError(409, "ERR_WAPP_NOT_INITIALIZED", "Nenhum QR code aguardando leitura");
    }
    const number = simulatorNumber(this.whatsappId);
    await linkDevice(
      this.deps.db,
      this.ctx.companyId,
      this.whatsappId,
      number,
      this.deps.clock.now().toISOString(),
    );
    this.#state = "connected";
    this.#qr = "";
    await this.ctx.deliver({ type: "connected", number });
    return number;
  }

  /** The phone unlinks the device (like removing it in WhatsApp's linked devices). */
  async unlink(): Promise<void> {
    await unlinkDevice(this.deps.db, this.ctx.companyId, this.whatsappId);
    this.#state = "idle";
    await this.ctx.deliver({ type: "loggedOut" });
  }

  /** Delivers a message from a phone; resolves when the connection stored it (the receipt). */
  receive(input: SimulatedMessage): Promise<DeliveryOutcome> {
    this.#assertPhoneReachable();
    const media = input.media;
    const id = input.id ?? `SIM${newMessageId().slice(4)}`;
    if (media) {
      this.#sentMedia.set(id, media.data);
      const oldest = this.#sentMedia.keys().next().value;
      if (this.#sentMedia.size > SENT_MEDIA_KEPT && oldest !== undefined) {
        this.#sentMedia.delete(oldest);
      }
    }
    const message: InboundMessage = {
      id,
      chatJid: input.chatJid,
      isGroup: groupOf(input.chatJid) !== undefined,
      fromMe: input.fromMe === true,
      participantJid: input.participantJid,
      phoneJid: input.phoneJid,
      lidJid: input.lidJid,
      pushName: input.pushName,
      timestamp: this.deps.clock.now(),
      body: input.body,
      mediaType: input.mediaType,
      media: media && {
        mimetype: media.mimetype,
        filename: media.filename,
        size: media.data.byteLength,
        download: () => Promise.resolve(media.data),
      },
      quotedId: input.quotedId,
      forwarded: input.forwarded === true || undefined,
      origin: "notify",
    };
    return this.ctx.deliver({ type: "message", message });
  }

  downloadMedia(message: { id: string }): Promise<Uint8Array | undefined> {
    return Promise.resolve(this.#sentMedia.get(message.id));
  }

  edit(chatJid: string, id: string, body: string): Promise<DeliveryOutcome> {
    this.#assertPhoneReachable();
    return this.ctx.deliver({ type: "edit", id, chatJid, body });
  }

  revoke(chatJid: string, id: string): Promise<DeliveryOutcome> {
    this.#assertPhoneReachable();
    return this.ctx.deliver({ type: "revoke", id, chatJid });
  }

  call(fromJid: string, isVideo: boolean, id?: string): Promise<DeliveryOutcome> {
    this.#assertPhoneReachable();
    return this.ctx.deliver({
      type: "call",
      id: id ?? `CALL${newMessageId().slice(4)}`,
      from: fromJid,
      isVideo,
      status: "offer",
    });
  }

  /** The contact reads what the connection sent them (all, or the given ids): ack 3. */
  async read(chatJid: string, ids?: string[]): Promise<number> {
    this.#assertPhoneReachable();
    const rows = await unreadSent(this.deps.db, this.ctx.companyId, this.whatsappId, chatJid, ids);
    for (const row of rows) await this.#ack(row.wid, row.toJid, 3);
    return rows.length;
  }

  // ---- internals ----

  #assertConnected() {
    if (this.#state !== "connected") {
      throw new ProviderSendError("simulator connection is not connected", { permanent: false });
    }
  }

  #assertPhoneReachable() {
    if (this.#state !== "connected") {
      throw new AppError(409, "ERR_WAPP_NOT_INITIALIZED", "A conexão não está conectada");
    }
  }

  async #send(
    toJid: string,
    content: { body: string; media?: OutboundMedia },
    options?: SendOptions,
  ): Promise<SentMessage> {
    this.#assertConnected();
    if (!phoneOf(toJid) && !lidOf(toJid) && !groupOf(toJid)) {
      throw new ProviderSendError(`invalid recipient ${toJid}`, { permanent: true });
    }
    const now = this.deps.clock.now();
    const wid = options?.messageId ?? newMessageId();
    // simulator_sent_wid (whatsappId, wid): a resend under the same id is the same message.
    const inserted = await recordSent(this.deps.db, {
      companyId: this.ctx.companyId,
      whatsappId: this.whatsappId,
      wid,
      toJid,
      body: content.body,
      mediaMimetype: content.media?.mimetype ?? null,
      mediaName: content.media?.filename ?? null,
      mediaSize: content.media?.data.byteLength ?? null,
      ptt: content.media?.ptt ? 1 : 0,
      quotedId: options?.quotedId ?? null,
      ack: 1,
      forwarded: options?.forwarded ? 1 : 0,
      edited: 0,
      createdAt: now.toISOString(),
      updatedAt: now.toISOString(),
    });
    if (inserted) this.#scheduleAcks(wid, toJid, 1);
    return { id: wid, timestamp: now };
  }

  #scheduleAcks(wid: string, toJid: string, from: number) {
    let delay = 0;
    for (let ack = from + 1; ack <= 3; ack++) {
      delay += this.network.ackDelayMs;
      const timer = setTimeout(() => {
        this.#timers.delete(timer);
        this.#track(this.#ack(wid, toJid, ack as Ack));
      }, delay);
      this.#timers.add(timer);
    }
  }

  async #resumeAcks() {
    const rows = await sentAwaitingAcks(this.deps.db, this.ctx.companyId, this.whatsappId);
    for (const row of rows) this.#scheduleAcks(row.wid, row.toJid, row.ack);
  }

  async #ack(wid: string, toJid: string, ack: Ack) {
    if (this.#state !== "connected") return;
    const raised = await raiseAck(
      this.deps.db,
      this.ctx.companyId,
      this.whatsappId,
      wid,
      ack,
      this.deps.clock.now().toISOString(),
    );
    if (raised) {
      this.ctx.emit({ type: "ack", id: wid, chatJid: toJid, ack });
    }
  }

  #track(work: Promise<unknown>) {
    const tracked = work.catch((error) =>
      log.warn("simulator ack failed", { whatsappId: this.whatsappId, error })
    ).finally(() => this.#work.delete(tracked));
    this.#work.add(tracked);
  }
}
