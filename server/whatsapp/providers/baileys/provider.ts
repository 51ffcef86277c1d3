import { Buffer } from "node:buffer";
import makeWASocket, {
  type AnyMessageContent,
  type BaileysEventMap,
  Browsers,
  type ConnectionState,
  type Contact,
  downloadMediaMessage,
  isJidGroup,
  isJidNewsletter,
  isJidStatusBroadcast,
  isLidUser,
  isPnUser,
  jidDecode,
  jidNormalizedUser,
  makeCacheableSignalKeyStore,
  type MiscMessageGenerationOptions,
  type proto,
  type UserFacingSocketConfig,
  type WACallEvent,
  type WAMessage,
  type WAMessageKey,
} from "@whiskeysockets/baileys";
import type { Database } from "../../../../db/client.ts";
import { type Clock, systemClock } from "../../../clock.ts";
import { storageProblem } from "../../../storage/problem.ts";
import { AppError } from "../../../errors.ts";
import { log } from "../../../log.ts";
import {
  type OutboundMedia,
  type Provider,
  type ProviderContext,
  type ProviderEvent,
  ProviderSendError,
  type SendOptions,
  type SentMessage,
  type SessionStatus,
} from "../provider.ts";
import type { ErrorCode } from "../../../errors.ts";
import { clearAuthValues } from "./auth_repository.ts";
import { type DatabaseAuthState, useDatabaseAuthState } from "./auth_state.ts";
import { baileysLogger } from "./logger.ts";
import {
  ackFromReceipt,
  ackFromStatus,
  contactIdentities,
  fromRaw,
  mapUpsert,
  type PnLookup,
  resolveIdentities,
  toDate,
  toRaw,
} from "./messages.ts";
import {
  backoffDelay,
  type BackoffPolicy,
  classifyClose,
  closeStatusCode,
  defaultBackoff,
} from "./reconnect.ts";

/** The part of a Baileys socket the adapter uses; makeWASocket's result fits it. */
export interface BaileysSocket {
  ev: {
    process(
      handler: (events: Partial<BaileysEventMap>) => void | Promise<void>,
    ): () => void;
  };
  readonly user?: Contact;
  signalRepository?: { lidMapping?: { getPNForLID(lid: string): Promise<string | null> } };
  end(error: Error | undefined): Promise<void> | void;
  logout(msg?: string): Promise<void>;
  requestPairingCode(phoneNumber: string): Promise<string>;
  sendMessage(
    jid: string,
    content: AnyMessageContent,
    options?: MiscMessageGenerationOptions,
  ): Promise<WAMessage | undefined>;
  onWhatsApp(...numbers: string[]): Promise<{ jid: string; exists: boolean }[] | undefined>;
  profilePictureUrl(jid: string, type?: "preview" | "image"): Promise<string | undefined>;
  updateMediaMessage(message: WAMessage): Promise<WAMessage>;
  rejectCall(callId: string, callFrom: string): Promise<void>;
}

/**
 * A failed send: `permanent` tells the outbox not to retry (an invalid number never becomes
 * valid); `code` is the catalogue code an API answer would use.
 */
export class BaileysSendError extends ProviderSendError {
  readonly code: ErrorCode;
  constructor(code: ErrorCode, message: string, options: { permanent: boolean; cause?: unknown }) {
    super(message, options);
    this.name = "BaileysSendError";
    this.code = code;
  }
}

export type SocketFactory = (config: UserFacingSocketConfig) => BaileysSocket;

/** Timers, injected so that tests drive reconnects without waiting. */
export type Timers = {
  set(fn: () => void, ms: number): unknown;
  clear(handle: unknown): void;
};

const realTimers: Timers = {
  set: (fn, ms) => setTimeout(fn, ms),
  clear: (handle) => clearTimeout(handle as number),
};

export type BaileysDeps = {
  db: Database;
  clock?: Clock;
  /** Builds the socket; makeWASocket unless a test hands a fake one fed with Baileys' events. */
  makeSocket?: SocketFactory;
  /** Fetches a media message's bytes; Baileys' downloadMediaMessage (with re-upload) by default. */
  downloadMedia?: (message: WAMessage, socket: BaileysSocket) => Promise<Uint8Array>;
  timers?: Timers;
  random?: () => number;
  backoff?: Partial<BackoffPolicy>;
  /** Linked-device identity shown on the phone. */
  browser?: [string, string, string];
  /** How long requestPairingCode waits for the socket to be ready for pairing. */
  pairingWaitMs?: number;
  /** How long logout waits for WhatsApp to confirm the unlink before closing anyway. */
  logoutWaitMs?: number;
  /** Pauses before handing an event to the pipeline again after it failed (then it is logged). */
  deliveryRetryMs?: number[];
};

const CALL_STATUSES = new Set(["offer", "ringing", "timeout", "reject", "accept"]);

type CallStatus = Extract<ProviderEvent, { type: "call" }>["status"];

function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** A destination as a JID: digits become a phone-number JID; JIDs are checked and normalised. */
export function toJid(target: string): string {
  const value = target.trim();
  if (value.includes("@")) {
    if (isJidGroup(value)) return value;
    const normalizedJid = jidNormalizedUser(value);
    if (isPnUser(normalizedJid) || isLidUser(normalizedJid)) return normalizedJid;
    throw new AppError(400, "ERR_WAPP_INVALID_CONTACT", "Invalid WhatsApp address");
  }
  const digits = value.replace(/\D/g, "");
  if (digits.length < 8 || digits.length > 15) {
    throw new AppError(400, "ERR_WAPP_INVALID_CONTACT", "Invalid WhatsApp number");
  }
  return `${digits}@s.whatsapp.net`;
}

/** The message content Baileys sends for a file, chosen by its mimetype. */
export function mediaContent(media: OutboundMedia): AnyMessageContent {
  const data = Buffer.from(media.data);
  const mimetype = media.mimetype.toLowerCase();
  const caption = media.caption || undefined;
  if (mimetype.startsWith("image/")) return { image: data, caption, mimetype: media.mimetype };
  if (mimetype.startsWith("video/")) return { video: data, caption, mimetype: media.mimetype };
  if (mimetype.startsWith("audio/")) {
    return { audio: data, mimetype: media.mimetype, ptt: !!media.ptt };
  }
  return { document: data, mimetype: media.mimetype, fileName: media.filename, caption };
}

/**
 * The `beta` provider: one WhatsApp number through Baileys 7 (a linked device, like WhatsApp Web).
 * One instance per connection; the session manager owns it and receives everything through
 * ctx.emit. Socket events are handled one batch at a time, in order.
 */
export class BaileysProvider implements Provider {
  readonly kind = "beta" as const;
  readonly #ctx: ProviderContext;
  readonly #db: Database;
  readonly #clock: Clock;
  readonly #makeSocket: SocketFactory;
  readonly #download: (message: WAMessage, socket: BaileysSocket) => Promise<Uint8Array>;
  readonly #timers: Timers;
  readonly #random: () => number;
  readonly #backoff: BackoffPolicy;
  readonly #browser: [string, string, string];
  readonly #pairingWaitMs: number;
  readonly #logoutWaitMs: number;
  readonly #deliveryRetryMs: number[];
  /** Pipeline deliveries under way (settled() waits for them). */
  readonly #deliveries = new Set<Promise<void>>();
  readonly #logger;

  #running = false;
  #generation = 0;
  #sock?: BaileysSocket;
  #auth?: DatabaseAuthState;
  #unsubscribe?: () => void;
  #connected = false;
  #retryTimer?: unknown;
  #attempts = 0;
  /** The current socket has shown a QR (or a pairing code) nobody has used yet. */
  #awaitingScan = false;
  /** A pairing code was requested on the current socket: its QR codes are no longer shown. */
  #pairing = false;
  #qrWaiters: { resolve(): void; reject(error: Error): void }[] = [];
  #chain: Promise<void> = Promise.resolve();
  /** The socket being built (auth state loads from the database first). */
  #connecting: Promise<void> = Promise.resolve();
  #lastStatus = "";

  constructor(ctx: ProviderContext, deps: BaileysDeps) {
    this.#ctx = ctx;
    this.#db = deps.db;
    this.#clock = deps.clock ?? systemClock;
    this.#makeSocket = deps.makeSocket ?? ((config) => makeWASocket(config));
    this.#timers = deps.timers ?? realTimers;
    this.#random = deps.random ?? Math.random;
    this.#backoff = { ...defaultBackoff, ...deps.backoff };
    this.#browser = deps.browser ?? Browsers.ubuntu("Chrome");
    this.#pairingWaitMs = deps.pairingWaitMs ?? 30_000;
    this.#logoutWaitMs = deps.logoutWaitMs ?? 10_000;
    this.#deliveryRetryMs = deps.deliveryRetryMs ?? [1_000, 5_000, 30_000];
    this.#logger = baileysLogger({ companyId: ctx.companyId, whatsappId: ctx.whatsappId });
    this.#download = deps.downloadMedia ?? (async (message, socket) => {
      const data = await downloadMediaMessage(message, "buffer", {}, {
        logger: this.#logger,
        reuploadRequest: (m) => socket.updateMediaMessage(m),
      });
      return new Uint8Array(data);
    });
  }

  async start(): Promise<void> {
    if (this.#running) return;
    this.#running = true;
    this.#attempts = 0;
    this.#lastStatus = "";
    await this.#spawnConnect();
  }

  async stop(): Promise<void> {
    this.#running = false;
    const sock = this.#takeSocket();
    if (sock) await this.#end(sock);
    await this.settled();
  }

  async logout(): Promise<void> {
    this.#running = false;
    const sock = this.#takeSocket();
    if (sock) {
      // Tell WhatsApp to unlink the device; if it cannot hear us (offline), forget it anyway.
      await this.#withTimeout(sock.logout(), this.#logoutWaitMs).catch((error) =>
        log.warn("baileys: logout not confirmed by WhatsApp", {
          whatsappId: this.#ctx.whatsappId,
          error: describeError(error),
        })
      );
      await this.#end(sock);
    }
    await this.settled();
    const auth = this.#auth;
    this.#auth = undefined;
    if (auth) await auth.clear();
    else await clearAuthValues(this.#db, this.#ctx.companyId, this.#ctx.whatsappId);
  }

  /** Resolves once every socket event received so far has been handled (and creds saved). */
  async settled(): Promise<void> {
    let chain: Promise<void>;
    let connecting: Promise<void>;
    do {
      chain = this.#chain;
      connecting = this.#connecting;
      await Promise.all([chain, connecting, ...this.#deliveries]);
    } while (
      chain !== this.#chain || connecting !== this.#connecting || this.#deliveries.size > 0
    );
    await this.#auth?.flushed();
  }

  async requestPairingCode(phoneNumber: string): Promise<string> {
    const digits = phoneNumber.replace(/\D/g, "");
    if (digits.length < 8 || digits.length > 15) {
      throw new AppError(400, "ERR_VALIDATION", "Invalid phone number", {
        fields: { number: ["Use the full number with country code, digits only"] },
      });
    }
    if (!this.#running) await this.start();
    if (this.#auth?.state.creds.account) {
      throw new AppError(409, "ERR_CONFLICT", "This connection is already linked to a phone");
    }
    await this.#waitForPairingReady();
    const sock = this.#sock;
    if (!sock) throw new AppError(503, "ERR_WAPP_NOT_INITIALIZED", "WhatsApp is not connected");
    this.#pairing = true;
    const code = await sock.requestPairingCode(digits);
    this.#emit({ type: "pairingCode", code });
    this.#status("PAIRING");
    return code;
  }

  async sendText(toJid: string, text: string, options?: SendOptions): Promise<SentMessage> {
    return await this.#send(toJid, { text }, options);
  }

  async sendMedia(
    toJid: string,
    media: OutboundMedia,
    options?: SendOptions,
  ): Promise<SentMessage> {
    return await this.#send(toJid, mediaContent(media), options);
  }

  /** Declines a ringing call (the company's `call` setting disabled). */
  async rejectCall(callId: string, fromJid: string): Promise<void> {
    const sock = this.#requireSocket();
    await sock.rejectCall(callId, fromJid);
  }

  async deleteForEveryone(chatJid: string, messageId: string, fromMe: boolean): Promise<void> {
    const jid = toJid(chatJid);
    const sock = this.#requireSocket();
    const key: WAMessageKey = { remoteJid: jid, fromMe, id: messageId };
    try {
      await sock.sendMessage(jid, { delete: key });
    } catch (error) {
      throw new AppError(502, "ERR_DELETE_WAPP_MSG", "Could not delete the message", {
        cause: error,
      });
    }
  }

  /** WhatsApp's edit: the new text sent with `edit` naming our message's key. */
  async editText(chatJid: string, messageId: string, text: string): Promise<void> {
    const jid = toJid(chatJid);
    const sock = this.#requireSocket();
    const key: WAMessageKey = { remoteJid: jid, fromMe: true, id: messageId };
    try {
      await sock.sendMessage(jid, { text, edit: key });
    } catch (error) {
      throw new AppError(502, "ERR_EDIT_WAPP_MSG", "Could not edit the message", { cause: error });
    }
  }

  async checkNumber(number: string): Promise<{ exists: boolean; jid?: string }> {
    const jid = toJid(number);
    if (isJidGroup(jid)) return { exists: true, jid };
    const sock = this.#requireSocket();
    const digits = jidDecode(jid)?.user ?? "";
    let found: { jid: string; exists: boolean }[] | undefined;
    try {
      found = await sock.onWhatsApp(isLidUser(jid) ? jid : digits);
    } catch (error) {
      throw new AppError(502, "ERR_WAPP_CHECK_CONTACT", "Could not check the number", {
        cause: error,
      });
    }
    const hit = found?.find((r) => r.exists);
    return hit ? { exists: true, jid: jidNormalizedUser(hit.jid) } : { exists: false };
  }

  async profilePictureUrl(jid: string): Promise<string | undefined> {
    const sock = this.#connected ? this.#sock : undefined;
    if (!sock) return undefined;
    try {
      return await sock.profilePictureUrl(toJid(jid), "image");
    } catch {
      // No picture, privacy settings, or not a contact: all mean "no picture" to us.
      return undefined;
    }
  }

  // --- connection lifecycle -------------------------------------------------------------

  #spawnConnect(): Promise<void> {
    this.#connecting = this.#connect();
    return this.#connecting;
  }

  async #connect(): Promise<void> {
    this.#retryTimer = undefined;
    if (!this.#running) return;
    const generation = ++this.#generation;
    this.#awaitingScan = false;
    this.#pairing = false;
    this.#connected = false;
    try {
      // Keys the previous socket was still writing must be in the database before we read them.
      await this.#auth?.flushed();
      const auth = await useDatabaseAuthState(
        this.#db,
        this.#ctx.companyId,
        this.#ctx.whatsappId,
        this.#clock,
      );
      if (!this.#running || generation !== this.#generation) return;
      const sock = this.#makeSocket({
        auth: {
          creds: auth.state.creds,
          // Write-through cache: Baileys reads keys on every message; the database stays the copy.
          keys: makeCacheableSignalKeyStore(auth.state.keys, this.#logger),
        },
        logger: this.#logger,
        browser: this.#browser,
        markOnlineOnConnect: false,
        syncFullHistory: false,
        // Messages this socket sends are stored by the outbox; echoing them back as upserts would
        // race the outbox for the same id.
        emitOwnEvents: false,
        shouldIgnoreJid: (jid) => isJidStatusBroadcast(jid) || !!isJidNewsletter(jid),
        getMessage: (key) => this.#storedMessage(key),
      });
      this.#auth = auth;
      this.#sock = sock;
      this.#unsubscribe = sock.ev.process((events) =>
        this.#enqueue(() => this.#handle(generation, sock, auth, events))
      );
    } catch (error) {
      log.error("baileys: could not start the socket", {
        whatsappId: this.#ctx.whatsappId,
        error,
      });
      this.#retryOrGiveUp(`start failed: ${describeError(error)}`);
    }
  }

  #enqueue(work: () => Promise<void>): Promise<void> {
    const next = this.#chain.then(work).catch((error) => {
      log.error("baileys: event handling failed", { whatsappId: this.#ctx.whatsappId, error });
    });
    this.#chain = next;
    return next;
  }

  /** Detaches the current socket: its later events (including its close) are ignored. */
  #takeSocket(): BaileysSocket | undefined {
    if (this.#retryTimer !== undefined) this.#timers.clear(this.#retryTimer);
    this.#retryTimer = undefined;
    const sock = this.#sock;
    this.#unsubscribe?.();
    this.#unsubscribe = undefined;
    this.#sock = undefined;
    this.#connected = false;
    this.#generation++;
    for (const waiter of this.#qrWaiters.splice(0)) {
      waiter.reject(new AppError(503, "ERR_WAPP_NOT_INITIALIZED", "The session closed"));
    }
    return sock;
  }

  async #end(sock: BaileysSocket): Promise<void> {
    try {
      await sock.end(undefined);
    } catch (error) {
      log.warn("baileys: error while closing the socket", {
        whatsappId: this.#ctx.whatsappId,
        error: describeError(error),
      });
    }
  }

  async #handle(
    generation: number,
    sock: BaileysSocket,
    auth: DatabaseAuthState,
    events: Partial<BaileysEventMap>,
  ): Promise<void> {
    const creds = events["creds.update"];
    if (creds) {
      // Baileys merges the update into its creds too; merging here first makes the saved copy
      // complete whichever listener runs first.
      Object.assign(auth.state.creds, creds);
      await auth.saveCreds().catch((error) =>
        log.error("baileys: could not save credentials", {
          whatsappId: this.#ctx.whatsappId,
          error,
        })
      );
    }
    const lookupPn: PnLookup = (lid) =>
      sock.signalRepository?.lidMapping?.getPNForLID(lid) ?? Promise.resolve(null);

    await this.#guard("messages.upsert", async () => {
      const upsert = events["messages.upsert"];
      if (upsert) await this.#onUpsert(sock, upsert.messages ?? [], upsert.type, lookupPn);
    });
    await this.#guard("messages.update", async () => {
      for (const { key, update } of events["messages.update"] ?? []) {
        if (update?.status === undefined || update.status === null) continue;
        await this.#onAck(key, ackFromStatus(update.status), lookupPn);
      }
    });
    await this.#guard("message-receipt.update", async () => {
      for (const { key, receipt } of events["message-receipt.update"] ?? []) {
        await this.#onAck(key, ackFromReceipt(receipt), lookupPn);
      }
    });
    await this.#guard("call", async () => {
      for (const call of events.call ?? []) await this.#onCall(call, lookupPn);
    });
    await this.#guard("contacts", async () => {
      const contacts = [...(events["contacts.upsert"] ?? []), ...(events["contacts.update"] ?? [])];
      for (const contact of contacts) await this.#onContact(contact, lookupPn);
    });
    await this.#guard("lid-mapping.update", () => {
      const mapping = events["lid-mapping.update"];
      if (mapping?.pn && mapping.lid) {
        const phoneJid = jidNormalizedUser(mapping.pn);
        this.#deliver({
          type: "contact",
          jid: phoneJid,
          phoneJid,
          lidJid: jidNormalizedUser(mapping.lid),
        });
      }
      return Promise.resolve();
    });
    // The connection last: a batch that carries messages and then a close handles the
    // messages first, and a close detaches nothing that the messages still need.
    const update = events["connection.update"];
    if (update && generation === this.#generation) {
      await this.#guard("connection.update", () => this.#onConnection(sock, auth, update));
    }
  }

  /** One malformed event is logged and skipped; the session keeps running. */
  async #guard(what: string, work: () => Promise<void>): Promise<void> {
    try {
      await work();
    } catch (error) {
      log.warn(`baileys: skipped a malformed ${what} event`, {
        whatsappId: this.#ctx.whatsappId,
        error: describeError(error),
      });
    }
  }

  async #onConnection(
    sock: BaileysSocket,
    auth: DatabaseAuthState,
    update: Partial<ConnectionState>,
  ): Promise<void> {
    if (update.connection === "connecting") this.#status("OPENING");
    if (update.qr) {
      this.#awaitingScan = true;
      for (const waiter of this.#qrWaiters.splice(0)) waiter.resolve();
      if (!this.#pairing) {
        this.#emit({ type: "qr", qr: update.qr });
        this.#status("qrcode");
      }
    }
    if (update.isNewLogin) {
      // Scanned: WhatsApp now asks for a restart (515) and the next socket opens logged in.
      this.#awaitingScan = false;
      this.#status("OPENING", "paired");
    }
    if (update.connection === "open") {
      this.#attempts = 0;
      this.#awaitingScan = false;
      this.#connected = true;
      const number = jidDecode(sock.user?.id)?.user ?? "";
      this.#emit({ type: "connected", number });
      this.#status("CONNECTED");
    }
    if (update.connection === "close") {
      await this.#onClose(auth, update.lastDisconnect?.error);
    }
  }

  async #onClose(auth: DatabaseAuthState, error: unknown): Promise<void> {
    const awaitingScan = this.#awaitingScan && !auth.state.creds.account;
    this.#takeSocket();
    if (!this.#running) return;
    const action = classifyClose(error, { awaitingScan });
    const fields = {
      whatsappId: this.#ctx.whatsappId,
      statusCode: closeStatusCode(error),
      error: describeError(error),
    };
    switch (action.kind) {
      case "loggedOut":
        log.warn("baileys: logged out from the phone; a new QR is needed", fields);
        this.#running = false;
        await auth.clear();
        if (this.#auth === auth) this.#auth = undefined;
        this.#emit({ type: "loggedOut" });
        this.#status("DISCONNECTED", "loggedOut");
        return;
      case "stop":
        log.warn(`baileys: session stopped (${action.reason})`, fields);
        this.#running = false;
        this.#status("DISCONNECTED", action.reason);
        return;
      case "restart":
        this.#status("OPENING", "restartRequired");
        this.#retryTimer = this.#timers.set(() => void this.#spawnConnect(), 0);
        return;
      case "retry":
        log.warn("baileys: connection closed; reconnecting", fields);
        this.#retryOrGiveUp(action.reason);
        return;
    }
  }

  #retryOrGiveUp(reason: string): void {
    if (!this.#running) return;
    this.#attempts++;
    if (this.#attempts > this.#backoff.maxAttempts) {
      log.error("baileys: giving up after repeated connection failures", {
        whatsappId: this.#ctx.whatsappId,
        attempts: this.#attempts - 1,
        reason,
      });
      this.#running = false;
      this.#status("TIMEOUT", reason);
      return;
    }
    const delay = backoffDelay(this.#attempts, this.#backoff, this.#random);
    // OPENING, not DISCONNECTED: the session is on its way back by itself, and a restart during
    // the pause must restore it (the session manager restores OPENING and CONNECTED rows).
    this.#status(
      "OPENING",
      `${reason}; retry ${this.#attempts}/${this.#backoff.maxAttempts} in ${
        Math.ceil(delay / 1000)
      }s`,
    );
    this.#retryTimer = this.#timers.set(() => void this.#spawnConnect(), delay);
  }

  #waitForPairingReady(): Promise<void> {
    if (this.#sock && this.#awaitingScan) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      const timer = this.#timers.set(() => {
        this.#qrWaiters = this.#qrWaiters.filter((w) => w !== waiter);
        reject(new AppError(503, "ERR_WAPP_NOT_INITIALIZED", "WhatsApp did not answer in time"));
      }, this.#pairingWaitMs);
      const waiter = {
        resolve: () => {
          this.#timers.clear(timer);
          resolve();
        },
        reject: (error: Error) => {
          this.#timers.clear(timer);
          reject(error);
        },
      };
      this.#qrWaiters.push(waiter);
    });
  }

  #withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const timer = this.#timers.set(() => reject(new Error(`timed out after ${ms} ms`)), ms);
      promise.then(
        (value) => {
          this.#timers.clear(timer);
          resolve(value);
        },
        (error) => {
          this.#timers.clear(timer);
          reject(error);
        },
      );
    });
  }

  // --- inbound ------------------------------------------------------------------------------

  async #onUpsert(
    sock: BaileysSocket,
    messages: WAMessage[],
    type: "notify" | "append",
    lookupPn: PnLookup,
  ): Promise<void> {
    const origin = type === "append" ? "append" : "notify";
    for (const message of messages) {
      try {
        const mapped = await mapUpsert(message, {
          origin,
          now: this.#clock.now(),
          download: (m) => this.#downloadMedia(m, sock),
          lookupPn,
        });
        if (mapped.kind === "message") this.#deliver({ type: "message", message: mapped.message });
        else if (mapped.kind === "event") this.#deliver(mapped.event);
        else if (mapped.kind === "unsupported") {
          log.warn("baileys: message type not supported, skipped", {
            whatsappId: this.#ctx.whatsappId,
            id: message?.key?.id,
            reason: mapped.reason,
          });
        }
      } catch (error) {
        log.warn("baileys: malformed message skipped", {
          whatsappId: this.#ctx.whatsappId,
          id: message?.key?.id,
          error: describeError(error),
        });
      }
    }
  }

  /**
   * A received message's media again, from its stored payload (issue 34): downloadMediaMessage asks
   * the phone to re-upload media whose link expired (updateMediaMessage).
   */
  async downloadMedia(stored: { id: string; raw: unknown }): Promise<Uint8Array | undefined> {
    const message = fromRaw(stored.raw);
    const socket = this.#sock;
    if (!message || !socket) return undefined;
    return await this.#downloadMedia(message, socket);
  }

  async #downloadMedia(message: WAMessage, socket: BaileysSocket): Promise<Uint8Array> {
    try {
      // A media download may come long after the message: use the live socket if it changed.
      return await this.#download(message, this.#sock ?? socket);
    } catch (error) {
      throw new AppError(502, "ERR_WAPP_DOWNLOAD_MEDIA", "Could not download the media", {
        cause: error,
      });
    }
  }

  async #onAck(
    key: WAMessageKey | undefined,
    ack: ReturnType<typeof ackFromStatus>,
    lookupPn: PnLookup,
  ): Promise<void> {
    // Acks are ticks on what we sent; receipts of messages we received (read on the phone) are
    // not ours to show.
    if (ack === undefined || !key?.id || !key.remoteJid || key.fromMe !== true) return;
    const { chatJid } = await resolveIdentities(key, lookupPn);
    this.#deliver({ type: "ack", id: key.id, chatJid, ack });
  }

  async #onCall(call: WACallEvent, lookupPn: PnLookup): Promise<void> {
    if (!call?.id || !call.from || !CALL_STATUSES.has(call.status)) return;
    const { phoneJid, lidJid } = await contactIdentities(
      { id: call.from, phoneNumber: call.callerPn },
      lookupPn,
    );
    this.#deliver({
      type: "call",
      id: call.id,
      from: phoneJid ?? lidJid ?? jidNormalizedUser(call.from),
      isVideo: !!call.isVideo,
      status: call.status as CallStatus,
    });
  }

  async #onContact(contact: Partial<Contact>, lookupPn: PnLookup): Promise<void> {
    if (!contact?.id) return;
    if (isJidStatusBroadcast(contact.id) || isJidNewsletter(contact.id)) return;
    const { phoneJid, lidJid } = isJidGroup(contact.id)
      ? { phoneJid: undefined, lidJid: undefined }
      : await contactIdentities(contact, lookupPn);
    const name = contact.name || contact.notify || contact.verifiedName || undefined;
    const profilePicUrl = typeof contact.imgUrl === "string" && contact.imgUrl.startsWith("http")
      ? contact.imgUrl
      : undefined;
    // An update that says nothing we keep (e.g. only a status text) is not worth an event.
    if (!name && !profilePicUrl && !(phoneJid && lidJid)) return;
    this.#deliver({
      type: "contact",
      jid: phoneJid ?? lidJid ?? jidNormalizedUser(contact.id),
      name,
      phoneJid,
      lidJid,
      profilePicUrl,
    });
  }

  /** getMessage for Baileys' retry receipts: the stored original of a message we sent. */
  async #storedMessage(key: WAMessageKey): Promise<proto.IMessage | undefined> {
    if (!key.id) return undefined;
    try {
      return fromRaw(await this.#ctx.getStoredMessage(key.id))?.message ?? undefined;
    } catch (error) {
      log.warn("baileys: getMessage failed", { id: key.id, error: describeError(error) });
      return undefined;
    }
  }

  // --- outbound -----------------------------------------------------------------------------

  #requireSocket(): BaileysSocket {
    if (!this.#sock || !this.#connected) {
      throw new AppError(503, "ERR_WAPP_NOT_INITIALIZED", "WhatsApp is not connected");
    }
    return this.#sock;
  }

  async #send(target: string, content: AnyMessageContent, options: SendOptions = {}) {
    let jid: string;
    try {
      jid = toJid(target);
    } catch (error) {
      throw new BaileysSendError("ERR_WAPP_INVALID_CONTACT", describeError(error), {
        permanent: true,
        cause: error,
      });
    }
    const sock = this.#sock;
    if (!sock || !this.#connected) {
      throw new BaileysSendError("ERR_WAPP_NOT_INITIALIZED", "WhatsApp is not connected", {
        permanent: false,
      });
    }
    const quoted = options.quotedId ? await this.#quoted(options.quotedId) : undefined;
    const misc: MiscMessageGenerationOptions = {};
    if (quoted) misc.quoted = quoted;
    if (options.messageId) misc.messageId = options.messageId;
    // A forward as WhatsApp marks one (what generateForwardMessageContent sets): Baileys copies
    // the content's contextInfo into the message it builds.
    if (options.forwarded) {
      const contextInfo = { isForwarded: true, forwardingScore: 1 };
      content = { ...content, contextInfo } as AnyMessageContent;
    }
    let sent: WAMessage | undefined;
    try {
      sent = await sock.sendMessage(jid, content, Object.keys(misc).length ? misc : undefined);
    } catch (error) {
      // Network and session troubles pass; the outbox retries a bounded number of times.
      throw new BaileysSendError("ERR_SENDING_WAPP_MSG", describeError(error), {
        permanent: false,
        cause: error,
      });
    }
    if (!sent?.key?.id) {
      throw new BaileysSendError("ERR_SENDING_WAPP_MSG", "WhatsApp returned no message id", {
        permanent: false,
      });
    }
    return {
      id: sent.key.id,
      timestamp: toDate(sent.messageTimestamp, this.#clock.now()),
      raw: toRaw(sent),
    };
  }

  async #quoted(quotedId: string): Promise<WAMessage | undefined> {
    const stored = await this.#ctx.getStoredMessage(quotedId).catch(() => undefined);
    const message = fromRaw(stored);
    if (!message?.message) {
      // Replying still works without the quote bubble; losing the reply would be worse.
      log.warn("baileys: quoted message not available, sending without quote", {
        whatsappId: this.#ctx.whatsappId,
        quotedId,
      });
      return undefined;
    }
    return message;
  }

  // --- events out ---------------------------------------------------------------------------

  /**
   * Hands a message, ack, edit, revoke, call or contact to the pipeline. WhatsApp has already had
   * its receipt (Baileys acknowledges on decryption), so a failure here cannot be left to a
   * redelivery: the event is offered again a few times before it is logged as lost. Calls are not
   * awaited one by one: the pipeline keeps each chat's order and works chats in parallel.
   */
  #deliver(event: ProviderEvent, attempt = 0): void {
    let handed: Promise<unknown>;
    try {
      handed = this.#ctx.deliver(event);
    } catch (error) {
      handed = Promise.reject(error);
    }
    const delivery = handed.then(
      () => {},
      (error) => {
        // Storage failed (issue 34): the session manager keeps the event until it returns.
        if (storageProblem(error) && this.#ctx.hold) {
          return this.#ctx.hold(event, error).then(
            () => {},
            (failure) =>
              log.error("baileys: a held event failed for good", {
                whatsappId: this.#ctx.whatsappId,
                type: event.type,
                error: failure,
              }),
          );
        }
        const pause = this.#deliveryRetryMs[attempt];
        const fields = {
          whatsappId: this.#ctx.whatsappId,
          type: event.type,
          id: "id" in event ? event.id : event.type === "message" ? event.message.id : undefined,
          attempt: attempt + 1,
          error,
        };
        if (pause === undefined) {
          log.error("baileys: the pipeline failed this event for good", fields);
          return;
        }
        log.warn("baileys: the pipeline failed an event; offering it again", fields);
        this.#timers.set(() => this.#deliver(event, attempt + 1), pause);
      },
    );
    this.#deliveries.add(delivery);
    delivery.finally(() => this.#deliveries.delete(delivery));
  }

  #emit(event: ProviderEvent): void {
    try {
      this.#ctx.emit(event);
    } catch (error) {
      log.error("baileys: session manager rejected an event", {
        whatsappId: this.#ctx.whatsappId,
        type: event.type,
        error,
      });
    }
  }

  /** Status changes only (a new QR every 20 s is not a new status). */
  #status(status: SessionStatus, reason?: string): void {
    const key = `${status}|${reason ?? ""}`;
    if (key === this.#lastStatus) return;
    this.#lastStatus = key;
    this.#emit(
      reason === undefined ? { type: "status", status } : { type: "status", status, reason },
    );
  }
}

/** The registry's factory for provider "beta". */
export function createBaileysProvider(ctx: ProviderContext, deps: BaileysDeps): BaileysProvider {
  return new BaileysProvider(ctx, deps);
}
