/**
 * A stand-in for a Baileys socket with no network: its `ev` is Baileys' own event buffer
 * (makeEventBuffer), so the adapter consumes exactly the event shapes and delivery path of a
 * real socket; tests push events into it as WhatsApp would. Messages are real protobuf objects.
 */
import {
  type AnyMessageContent,
  type BaileysEventMap,
  type Contact,
  generateWAMessage,
  generateWAMessageFromContent,
  makeEventBuffer,
  type MiscMessageGenerationOptions,
  proto,
  type UserFacingSocketConfig,
  type WAMessage,
  type WAMessageKey,
} from "@whiskeysockets/baileys";
import type { BaileysSocket, Timers } from "../../server/whatsapp/providers/baileys/provider.ts";
import { baileysLogger } from "../../server/whatsapp/providers/baileys/logger.ts";
import type { Database } from "../../db/client.ts";

export const ME = "5511900000001@s.whatsapp.net";

/** A close error as Baileys makes them (a Boom carries the code in output.statusCode). */
export function closeError(statusCode: number | undefined, message = "Connection Failure") {
  return Object.assign(new Error(message), { output: { statusCode } });
}

export class FakeBaileysSocket implements BaileysSocket {
  readonly ev = makeEventBuffer(baileysLogger({ fake: true }));
  readonly config: UserFacingSocketConfig;
  user?: Contact;
  ended = false;
  loggedOut = false;
  pairingPhone?: string;
  readonly sent: {
    jid: string;
    content: AnyMessageContent;
    options?: MiscMessageGenerationOptions;
  }[] = [];
  /** lid -> pn, what Baileys' LID store would know. */
  readonly lidMap = new Map<string, string>();
  readonly signalRepository = {
    lidMapping: {
      // Like Baileys' LIDMappingStore: the phone-number JID with the LID's device suffix.
      getPNForLID: (lid: string) => {
        const pn = this.lidMap.get(lid.split("@")[0].split(":")[0]);
        return Promise.resolve(pn ? `${pn}:0@s.whatsapp.net` : null);
      },
    },
  };
  onWhatsAppAnswer: { jid: string; exists: boolean }[] = [];
  pictures = new Map<string, string>();
  sendFailure?: Error;
  #counter = 0;

  constructor(config: UserFacingSocketConfig) {
    this.config = config;
  }

  emit<T extends keyof BaileysEventMap>(event: T, data: BaileysEventMap[T]): void {
    this.ev.emit(event, data);
  }

  /** What a real socket does at its end: one close update with the error. */
  end(error: Error | undefined): Promise<void> {
    if (this.ended) return Promise.resolve();
    this.ended = true;
    this.ev.emit("connection.update", {
      connection: "close",
      lastDisconnect: { error, date: new Date() },
    });
    return Promise.resolve();
  }

  async logout(): Promise<void> {
    this.loggedOut = true;
    await this.end(closeError(401, "Intentional Logout"));
  }

  requestPairingCode(phoneNumber: string): Promise<string> {
    this.pairingPhone = phoneNumber;
    return Promise.resolve("ABCD1234");
  }

  async sendMessage(
    jid: string,
    content: AnyMessageContent,
    options?: MiscMessageGenerationOptions,
  ): Promise<WAMessage | undefined> {
    if (this.sendFailure) throw this.sendFailure;
    this.sent.push({ jid, content, options });
    const messageId = options?.messageId ?? `3EB0FAKE${++this.#counter}`;
    if ("text" in content) {
      return await generateWAMessage(jid, content, {
        userJid: ME,
        messageId,
        quoted: options?.quoted,
        upload: () => Promise.reject(new Error("no uploads in tests")),
      });
    }
    // Media would be encrypted and uploaded by Baileys; the stored result has the same shape.
    const message: proto.IMessage = "image" in content
      ? { imageMessage: { mimetype: content.mimetype, caption: content.caption } }
      : "audio" in content
      ? { audioMessage: { mimetype: content.mimetype, ptt: content.ptt } }
      : "video" in content
      ? { videoMessage: { mimetype: content.mimetype, caption: content.caption } }
      : "document" in content
      ? { documentMessage: { mimetype: content.mimetype, fileName: content.fileName } }
      : "delete" in content
      ? {
        protocolMessage: {
          key: content.delete as WAMessageKey,
          type: proto.Message.ProtocolMessage.Type.REVOKE,
        },
      }
      : {};
    return generateWAMessageFromContent(jid, message, { userJid: ME, messageId });
  }

  onWhatsApp(...numbers: string[]) {
    return Promise.resolve(
      this.onWhatsAppAnswer.filter((r) => numbers.some((n) => r.jid.startsWith(n))),
    );
  }

  profilePictureUrl(jid: string): Promise<string | undefined> {
    const url = this.pictures.get(jid);
    return url ? Promise.resolve(url) : Promise.reject(new Error("item-not-found"));
  }

  updateMediaMessage(message: WAMessage): Promise<WAMessage> {
    return Promise.resolve(message);
  }

  readonly rejected: { callId: string; from: string }[] = [];
  rejectCall(callId: string, from: string): Promise<void> {
    this.rejected.push({ callId, from });
    return Promise.resolve();
  }
}

/** Timers the test fires by hand: reconnects happen when the test says, never on the clock. */
export class FakeTimers implements Timers {
  #next = 1;
  readonly pending = new Map<number, { fn: () => void; ms: number }>();

  set(fn: () => void, ms: number): unknown {
    const id = this.#next++;
    this.pending.set(id, { fn, ms });
    return id;
  }

  clear(handle: unknown): void {
    this.pending.delete(handle as number);
  }

  delays(): number[] {
    return [...this.pending.values()].map((t) => t.ms);
  }

  /** Fires every pending timer (once). */
  fireAll(): void {
    const due = [...this.pending.entries()];
    this.pending.clear();
    for (const [, timer] of due) timer.fn();
  }
}

/** A company (the one seeded at first start) and a connection row for the adapter's FKs. */
export async function insertConnection(
  db: Database,
  companyId: number,
  name: string,
  now: string,
): Promise<number> {
  const row = await db.insertInto("whatsapps").values({
    companyId,
    name,
    number: null,
    promptId: null,
    createdAt: now,
    updatedAt: now,
  }).returning("id").executeTakeFirstOrThrow();
  return row.id;
}

/** A bare second company (tenancy checks need only the row). */
export async function insertCompany(db: Database, name: string, now: string): Promise<number> {
  const row = await db.insertInto("companies").values({
    name,
    email: null,
    phone: null,
    planId: null,
    dueDate: null,
    recurrence: null,
    billingName: null,
    addressZipCode: null,
    addressStreet: null,
    addressState: null,
    addressCity: null,
    addressDistrict: null,
    createdAt: now,
    updatedAt: now,
  }).returning("id").executeTakeFirstOrThrow();
  return row.id;
}
