/** An adapter wired to fake Baileys sockets on a real temp database. */
import {
  type BaileysEventMap,
  proto,
  type WAMessage,
  type WAMessageKey,
} from "@whiskeysockets/baileys";
import type { TestApp } from "../helpers/app.ts";
import type { ProviderEvent, SessionStatus } from "../../server/whatsapp/providers/provider.ts";
import {
  type BaileysDeps,
  BaileysProvider,
  createBaileysProvider,
} from "../../server/whatsapp/providers/baileys/provider.ts";
import { FakeBaileysSocket, FakeTimers, insertConnection, ME } from "./baileys_fake.ts";

export const COMPANY = 1; // seeded at first start
export const MEDIA_BYTES = new TextEncoder().encode("fake-jpeg-bytes");

export type Harness = {
  provider: BaileysProvider;
  whatsappId: number;
  events: ProviderEvent[];
  stored: Map<string, unknown>;
  sockets: FakeBaileysSocket[];
  timers: FakeTimers;
  downloads: WAMessage[];
  /** The latest socket the adapter built. */
  sock(): FakeBaileysSocket;
  statuses(): { status: SessionStatus; reason?: string }[];
  of<T extends ProviderEvent["type"]>(type: T): Extract<ProviderEvent, { type: T }>[];
  /** Emits a Baileys event on the current socket and waits until the adapter handled it. */
  feed<K extends keyof BaileysEventMap>(event: K, data: BaileysEventMap[K]): Promise<void>;
  /** How many of the next ctx.deliver calls fail (a pipeline error). */
  failNextDeliveries: number;
  /** What those failures throw (default: a locked database). */
  deliveryError: Error;
  /** Events handed to ctx.hold (storage failed, issue 34). */
  held: ProviderEvent[];
  /** start() and an open connection, as after a QR scan. */
  connect(): Promise<void>;
};

export async function baileysHarness(
  t: TestApp,
  deps: Partial<BaileysDeps> = {},
): Promise<Harness> {
  const db = t.deps.db;
  const whatsappId = await insertConnection(
    db,
    COMPANY,
    `Beta ${crypto.randomUUID()}`,
    t.clock.now().toISOString(),
  );
  const events: ProviderEvent[] = [];
  const stored = new Map<string, unknown>();
  const sockets: FakeBaileysSocket[] = [];
  const timers = new FakeTimers();
  const downloads: WAMessage[] = [];
  const provider = createBaileysProvider({
    whatsappId,
    companyId: COMPANY,
    emit: (event) => events.push(event),
    deliver: (event) => {
      if (h.failNextDeliveries > 0) {
        h.failNextDeliveries--;
        return Promise.reject(h.deliveryError);
      }
      events.push(event);
      return Promise.resolve({});
    },
    hold: (event) => {
      h.held.push(event);
      return Promise.resolve({});
    },
    getStoredMessage: (id) => Promise.resolve(stored.get(id)),
  }, {
    db,
    clock: t.clock,
    timers,
    random: () => 0.5,
    makeSocket: (config) => {
      const socket = new FakeBaileysSocket(config);
      sockets.push(socket);
      return socket;
    },
    downloadMedia: (message) => {
      downloads.push(message);
      return Promise.resolve(MEDIA_BYTES);
    },
    ...deps,
  });
  const sock = () => {
    const last = sockets.at(-1);
    if (!last) throw new Error("no socket built yet");
    return last;
  };
  const h: Harness = {
    failNextDeliveries: 0,
    deliveryError: new Error("database is locked"),
    held: [],
    provider,
    whatsappId,
    events,
    stored,
    sockets,
    timers,
    downloads,
    sock,
    statuses: () =>
      events.flatMap((e) => e.type === "status" ? [{ status: e.status, reason: e.reason }] : []),
    of: <T extends ProviderEvent["type"]>(type: T) =>
      events.filter((e): e is Extract<ProviderEvent, { type: T }> => e.type === type),
    feed: async (event, data) => {
      sock().emit(event, data);
      await provider.settled();
    },
    connect: async () => {
      await provider.start();
      sock().user = { id: "5511900000001:12@s.whatsapp.net", name: "Loja" };
      sock().emit("connection.update", { connection: "connecting" });
      sock().emit("connection.update", { connection: "open" });
      await provider.settled();
    },
  };
  return h;
}

/** A message as Baileys hands it over: protobuf content, plain key with v7's alt fields. */
export function waMessage(
  key: WAMessageKey,
  message: proto.IMessage | null,
  extra: Partial<proto.IWebMessageInfo> = {},
): WAMessage {
  const info = proto.WebMessageInfo.fromObject({
    key: { remoteJid: key.remoteJid, fromMe: key.fromMe, id: key.id, participant: key.participant },
    messageTimestamp: 1_763_812_800,
    ...extra,
  });
  const content = message ? proto.Message.fromObject(message) : undefined;
  return Object.assign(info, { key: { ...key }, message: content }) as unknown as WAMessage;
}

export { ME };
