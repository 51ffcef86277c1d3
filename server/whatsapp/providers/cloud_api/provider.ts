import type { Clock } from "../../../clock.ts";
import type { Config } from "../../../config.ts";
import type { Database } from "../../../../db/client.ts";
import { unseal } from "../../../crypto/sealed.ts";
import { log } from "../../../log.ts";
import { addressOfPhone, isBsuid, lidOfAddress, phoneOfAddress } from "../address.ts";
import { acceptsAudio, type MenuChoice } from "../../../../contract/channels.ts";
import {
  type OutboundMedia,
  type Provider,
  type ProviderContext,
  ProviderSendError,
  type SendOptions,
  type SentMessage,
} from "../provider.ts";
import type { ProviderFactory } from "../registry.ts";
import { GraphError } from "./errors.ts";
import { GraphClient } from "./graph.ts";
import { type ChangeValue, eventsOfValue, mediaIdOf } from "./inbound.ts";
import * as repo from "./repository.ts";

/** A template send (issue 45 item 6): body parameters in order. */
export type TemplateSend = { name: string; language: string; parameters: string[] };

/** The first pause of a throttled number, doubled at each refusal in a row, up to the cap. */
export const BACKOFF_BASE_MS = 4_000;
export const BACKOFF_MAX_MS = 5 * 60_000;

/**
 * Whether Meta's refusal throttles the whole number (not one recipient: 131056 holds only its
 * chat, as the outbox does for any failed row).
 */
function throttlesNumber(error: GraphError): boolean {
  if (error.metaCode === 131056) return false;
  return error.metaCode === 130429 || error.httpStatus === 429 || error.httpStatus >= 500;
}

type PhoneNumber = {
  display_phone_number?: string;
  verified_name?: string;
  quality_rating?: string;
};

/**
 * Meta's WhatsApp Cloud API as a Provider: the Graph API out (messages, media uploads), signed
 * webhooks in (handed over by ./service.ts as `receive`). There is no session to open: start
 * reads the phone number once (the token works: CONNECTED; error 190: the admins must paste a new
 * token). Addresses are translated here: a phone address becomes Meta's `to` digits.
 */
export class CloudProvider implements Provider {
  readonly kind = "cloud_api" as const;
  #graph?: GraphClient;
  /** Set at a throttle (and at start when the row holds one): the next success clears the row. */
  #throttled = true;
  #phoneNumberId = "";

  constructor(
    private readonly ctx: ProviderContext,
    private readonly deps: { config: Config; db: Database; clock: Clock },
    private readonly dataKey: CryptoKey,
  ) {}

  async #client(): Promise<GraphClient> {
    if (this.#graph) return this.#graph;
    const row = await repo.findCloud(this.deps.db, this.ctx.companyId, this.ctx.whatsappId);
    if (!row) throw new ProviderSendError("cloud settings missing", { permanent: true });
    this.#phoneNumberId = row.phoneNumberId;
    this.#graph = new GraphClient(
      this.deps.config.whatsappCloudApiUrl,
      await unseal(this.dataKey, row.accessToken),
    );
    return this.#graph;
  }

  async start(): Promise<void> {
    try {
      const graph = await this.#client();
      const phone = await graph.get<PhoneNumber>(this.#phoneNumberId, {
        fields: "display_phone_number,verified_name,quality_rating",
      });
      await repo.updateCloud(this.deps.db, this.ctx.companyId, this.ctx.whatsappId, {
        displayNumber: phone.display_phone_number ?? null,
        verifiedName: phone.verified_name ?? null,
        qualityRating: phone.quality_rating ?? null,
        lastError: null,
      });
      this.ctx.emit({
        type: "connected",
        number: (phone.display_phone_number ?? "").replace(/\D/g, ""),
      });
    } catch (error) {
      const code = error instanceof GraphError ? error.kind.code : "ERR_WHATSAPP_CLOUD_UNREACHABLE";
      log.warn("cloud api: phone number not readable", { whatsappId: this.ctx.whatsappId, error });
      await repo.updateCloud(this.deps.db, this.ctx.companyId, this.ctx.whatsappId, {
        lastError: code,
      });
      this.ctx.emit({ type: "status", status: "DISCONNECTED", reason: code });
    }
  }

  stop(): Promise<void> {
    return Promise.resolve();
  }

  /** The number's pause (whatsapp_cloud.backoffUntil), read from the database: any process's. */
  async pausedFor(): Promise<number> {
    const row = await repo.findCloud(this.deps.db, this.ctx.companyId, this.ctx.whatsappId);
    if (!row?.backoffUntil) return 0;
    return Math.max(0, Date.parse(row.backoffUntil) - this.deps.clock.now().getTime());
  }

  /** Meta throttled the number: every send waits, longer at each refusal in a row. */
  async #backOff() {
    const { db, clock } = this.deps;
    const { companyId, whatsappId } = this.ctx;
    const row = await repo.findCloud(db, companyId, whatsappId);
    const level = row?.backoffLevel ?? 0;
    const pause = Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** level);
    await repo.updateCloud(db, companyId, whatsappId, {
      backoffUntil: new Date(clock.now().getTime() + pause).toISOString(),
      backoffLevel: level + 1,
    });
    this.#throttled = true;
    log.warn("cloud api: number throttled by Meta, sends paused", { whatsappId, pauseMs: pause });
  }

  logout(): Promise<void> {
    return Promise.resolve();
  }

  requestPairingCode(): Promise<string> {
    return Promise.reject(new Error("a Cloud API number is not linked by code"));
  }

  async sendText(to: string, text: string, options?: SendOptions): Promise<SentMessage> {
    return await this.#send(to, options, { type: "text", text: { body: text } });
  }

  async sendMedia(to: string, media: OutboundMedia, options?: SendOptions): Promise<SentMessage> {
    const mimetype = media.mimetype.split(";")[0].trim().toLowerCase();
    const type = mimetype.startsWith("image/")
      ? "image"
      : mimetype.startsWith("video/")
      ? "video"
      : mimetype.startsWith("audio/")
      ? "audio"
      : "document";
    if (type === "audio" && !acceptsAudio(this.kind, mimetype)) {
      // Refused before the queue (server/messages/send.ts); a row queued before that check.
      throw new ProviderSendError(`audio type ${mimetype} is not accepted by the Cloud API`, {
        permanent: true,
        failureCode: "ERR_WHATSAPP_VOICE_FORMAT",
      });
    }
    return await this.#send(to, options, async (graph) => {
      const form = new FormData();
      form.set("messaging_product", "whatsapp");
      form.set("type", mimetype);
      form.set("file", new Blob([media.data as BlobPart], { type: mimetype }), media.filename);
      const uploaded = await graph.upload<{ id: string }>(`${this.#phoneNumberId}/media`, form);
      const part: Record<string, string> = { id: uploaded.id };
      if (media.caption && type !== "audio") part.caption = media.caption;
      if (type === "document") part.filename = media.filename;
      return { type, [type]: part };
    });
  }

  async sendTemplate(to: string, t: TemplateSend, options?: SendOptions): Promise<SentMessage> {
    const components = t.parameters.length === 0 ? [] : [{
      type: "body",
      parameters: t.parameters.map((text) => ({ type: "text", text })),
    }];
    return await this.#send(to, options, {
      type: "template",
      template: {
        name: t.name,
        language: { code: t.language, policy: "deterministic" },
        components,
      },
    });
  }

  /**
   * A chatbot menu as Meta's interactive messages (…/interactive-reply-buttons-messages,
   * …/interactive-list-messages): up to 3 choices of ≤ 20 characters as reply buttons, up to 10
   * of ≤ 24 as a list; anything larger goes as the text it is. A reply's id is the choice's id,
   * so the tap routes like the typed answer.
   */
  async sendMenu(
    to: string,
    text: string,
    choices: MenuChoice[],
    options?: SendOptions,
  ): Promise<SentMessage> {
    const interactive = interactiveOf(text, choices);
    if (!interactive) return await this.sendText(to, text, options);
    return await this.#send(to, options, { type: "interactive", interactive });
  }

  /** An emoji on a message of the chat (an empty emoji removes ours). */
  async sendReaction(to: string, messageId: string, emoji: string): Promise<void> {
    await this.#send(to, undefined, {
      type: "reaction",
      reaction: { message_id: messageId, emoji },
    });
  }

  /** Blue ticks on the contact's phone for a message they sent. */
  async markRead(messageId: string): Promise<void> {
    const graph = await this.#client();
    await graph.post(`${this.#phoneNumberId}/messages`, {
      messaging_product: "whatsapp",
      status: "read",
      message_id: messageId,
    });
  }

  deleteForEveryone(): Promise<void> {
    return Promise.reject(
      new ProviderSendError("the Cloud API cannot delete a sent message", { permanent: true }),
    );
  }

  editText(): Promise<void> {
    return Promise.reject(
      new ProviderSendError("the Cloud API cannot edit a sent message", { permanent: true }),
    );
  }

  /** The Cloud API has no lookup: a number is tried when written to (131026 if not on WhatsApp). */
  checkNumber(number: string): Promise<{ exists: boolean; jid?: string }> {
    const digits = number.replace(/\D/g, "");
    return Promise.resolve({ exists: digits.length >= 8, jid: addressOfPhone(digits) });
  }

  profilePictureUrl(): Promise<string | undefined> {
    return Promise.resolve(undefined);
  }

  /** Media of a message received earlier (the pending-media retry): by its media id again. */
  async downloadMedia(message: { id: string; raw: unknown }): Promise<Uint8Array | undefined> {
    const mediaId = mediaIdOf(message.raw);
    return mediaId ? await this.#download(mediaId) : undefined;
  }

  async #download(mediaId: string): Promise<Uint8Array> {
    const graph = await this.#client();
    const info = await graph.get<{ url: string }>(mediaId, {
      phone_number_id: this.#phoneNumberId,
    });
    return await graph.download(info.url);
  }

  /**
   * One change of a webhook post (already verified, routed to this connection): its messages and
   * statuses through the same pipeline as every provider's, in order, each awaited, so that a
   * failure leaves the post to be processed again (duplicates are known by message id).
   */
  async receive(value: ChangeValue): Promise<{ stored: number; skipped: number }> {
    const { events, skipped } = eventsOfValue(value, (id) => this.#download(id));
    for (const status of value.statuses ?? []) {
      const wid = typeof status.biz_opaque_callback_data === "string"
        ? status.biz_opaque_callback_data
        : undefined;
      if (!wid || typeof status.id !== "string") continue;
      const { companyId, whatsappId } = this.ctx;
      const now = this.deps.clock.now().toISOString();
      if (await repo.adoptWamid(this.deps.db, companyId, whatsappId, wid, status.id, now)) {
        log.info("cloud api: a send whose answer was lost is known by its status", {
          whatsappId,
          wid,
        });
      }
    }
    let stored = 0;
    for (const event of events) {
      const outcome = await this.ctx.deliver(event);
      if (outcome.messageId !== undefined && !outcome.duplicate) stored++;
    }
    if (skipped > 0) {
      log.warn("cloud api: messages without a phone number skipped", {
        whatsappId: this.ctx.whatsappId,
        skipped,
      });
    }
    return { stored, skipped };
  }

  /**
   * Sends one message exactly once per outbox id: the id is claimed in whatsapp_cloud_sends
   * before the call and Meta's id recorded after. A claim found with Meta's id was sent (answered
   * again without sending); one found without it was interrupted after it may have reached Meta
   * (a crash, a timeout), so it is not sent a second time.
   */
  async #send(
    to: string,
    options: SendOptions | undefined,
    content: Record<string, unknown> | ((graph: GraphClient) => Promise<Record<string, unknown>>),
  ): Promise<SentMessage> {
    const digits = phoneOfAddress(to) ?? (/^\d{8,20}$/.test(to) ? to : undefined);
    // A contact known only by its business-scoped id is written to in `recipient` (in `to`
    // Meta answers 200 and drops the message).
    const bsuid = digits ? undefined : lidOfAddress(to);
    const recipient = digits
      ? { to: digits }
      : bsuid && isBsuid(bsuid)
      ? { recipient: bsuid }
      : undefined;
    if (!recipient) {
      throw new ProviderSendError("the Cloud API writes to phone numbers only", {
        permanent: true,
        failureCode: "ERR_WHATSAPP_UNDELIVERABLE",
      });
    }
    const graph = await this.#client();
    const { db, clock } = this.deps;
    const { companyId, whatsappId } = this.ctx;
    const wid = options?.messageId;
    if (wid) {
      const claimed = await repo.claimSend(db, {
        companyId,
        whatsappId,
        wid,
        createdAt: clock.now().toISOString(),
      });
      if (!claimed) {
        const wamid = await repo.sentWamid(db, companyId, whatsappId, wid);
        if (wamid) return { id: wamid, timestamp: clock.now() };
        throw new ProviderSendError("an earlier attempt may have reached Meta: not sent twice", {
          permanent: true,
          failureCode: "ERR_WHATSAPP_SEND_UNCERTAIN",
        });
      }
    }
    let answer: { messages?: { id?: string }[] };
    try {
      const body = typeof content === "function" ? await content(graph) : content;
      answer = await graph.post(`${this.#phoneNumberId}/messages`, {
        messaging_product: "whatsapp",
        recipient_type: "individual",
        ...recipient,
        ...(options?.quotedId ? { context: { message_id: options.quotedId } } : {}),
        // Comes back on this send's statuses: a send whose answer was lost is recognised there.
        ...(wid ? { biz_opaque_callback_data: wid } : {}),
        ...body,
      });
    } catch (error) {
      // Meta answered with an error, or the connection was refused: nothing was sent, the claim
      // goes. A timeout keeps it (the request may have arrived).
      const refused = error instanceof GraphError || error instanceof TypeError;
      if (wid && refused) await repo.releaseSend(db, companyId, whatsappId, wid);
      if (error instanceof GraphError && throttlesNumber(error)) await this.#backOff();
      if (error instanceof GraphError) {
        throw new ProviderSendError(error.message, {
          permanent: error.kind.permanent,
          failureCode: error.kind.code,
          cause: error,
        });
      }
      throw error;
    }
    const wamid = answer.messages?.[0]?.id;
    if (!wamid) throw new ProviderSendError("Meta answered no message id", { permanent: true });
    if (wid) await repo.recordWamid(db, companyId, whatsappId, wid, wamid);
    if (this.#throttled) {
      // Meta takes our sends again: the next refusal starts from the shortest pause.
      this.#throttled = false;
      await repo.updateCloud(db, companyId, whatsappId, { backoffUntil: null, backoffLevel: 0 });
    }
    return { id: wamid, timestamp: clock.now() };
  }
}

/** The menu's lines ("*1* - Vendas") become the buttons; the rest of the text is the body. */
const MENU_LINE = /^\*[^*\n]+\* - .*$/;

function interactiveOf(text: string, choices: MenuChoice[]): Record<string, unknown> | undefined {
  const body = text.split("\n").filter((line) => !MENU_LINE.test(line.trim())).join("\n").trim() ||
    "Escolha uma opção:";
  const fits = (max: number) => choices.every((c) => c.id && c.title && c.title.length <= max);
  if (choices.length === 0 || body.length > 1024) return undefined;
  if (choices.length <= 3 && fits(20)) {
    return {
      type: "button",
      body: { text: body },
      action: {
        buttons: choices.map((c) => ({ type: "reply", reply: { id: c.id, title: c.title } })),
      },
    };
  }
  if (choices.length <= 10 && fits(24)) {
    return {
      type: "list",
      body: { text: body },
      action: {
        button: "Opções",
        sections: [{ title: "Opções", rows: choices.map((c) => ({ id: c.id, title: c.title })) }],
      },
    };
  }
  return undefined;
}

/** The registry's factory (providers/builtin.ts): secrets are unsealed with the data key. */
export function cloudProviderFactory(dataKey: CryptoKey): ProviderFactory {
  return (ctx, deps) => new CloudProvider(ctx, deps, dataKey);
}
