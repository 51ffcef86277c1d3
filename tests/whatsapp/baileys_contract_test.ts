import { proto, type UserFacingSocketConfig } from "@whiskeysockets/baileys";
import type { ProviderEvent } from "../../server/whatsapp/providers/provider.ts";
import {
  type BaileysProvider,
  createBaileysProvider,
} from "../../server/whatsapp/providers/baileys/provider.ts";
import { createTestApp } from "../helpers/app.ts";
import { closeError, FakeBaileysSocket, insertConnection } from "./baileys_fake.ts";
import { COMPANY, waMessage } from "./baileys_harness.ts";
import { type ProviderHarness, runProviderContract } from "./provider_contract.ts";

const ME_DEVICE = "5511900000001:12@s.whatsapp.net";

/**
 * WhatsApp's side of the link, as Baileys reports it through socket events: a socket with no
 * credentials is offered a QR; one with credentials is let in; a scan stores the credentials and
 * asks for a restart (515), exactly the sequence Baileys emits after a real scan.
 */
class FakeWhatsApp {
  readonly sockets: FakeBaileysSocket[] = [];
  readonly #greetings: Promise<void>[] = [];

  makeSocket = (config: UserFacingSocketConfig) => {
    const socket = new FakeBaileysSocket(config);
    this.sockets.push(socket);
    // Baileys, too, reports "connecting" on the next tick after makeWASocket returns.
    this.#greetings.push(
      new Promise((greeted) =>
        setTimeout(() => {
          this.#greet(socket);
          greeted();
        }, 0)
      ),
    );
    return socket;
  };

  /** Resolves once every greeting scheduled so far has run. */
  async greeted() {
    await Promise.all(this.#greetings);
  }

  get current(): FakeBaileysSocket {
    const socket = this.sockets.at(-1);
    if (!socket) throw new Error("no socket");
    return socket;
  }

  #greet(socket: FakeBaileysSocket) {
    if (socket.ended) return;
    socket.emit("connection.update", { connection: "connecting", qr: undefined });
    const creds = socket.config.auth!.creds;
    if (creds.me?.id && creds.account) {
      socket.user = { id: creds.me.id, name: creds.me.name };
      socket.emit("connection.update", { connection: "open" });
    } else {
      socket.emit("connection.update", { qr: "2@contract-ref,noise-key,identity-key,adv-secret" });
    }
  }

  scan() {
    const socket = this.current;
    socket.emit("creds.update", {
      me: { id: ME_DEVICE, name: "Loja" },
      account: proto.ADVSignedDeviceIdentity.fromObject({
        details: new Uint8Array([1, 2, 3]),
        accountSignatureKey: new Uint8Array(32).fill(4),
        accountSignature: new Uint8Array(64).fill(5),
        deviceSignature: new Uint8Array(64).fill(6),
      }),
      platform: "android",
    });
    socket.emit("connection.update", { isNewLogin: true, qr: undefined });
    return socket.end(closeError(515, "Stream Errored (restart required)"));
  }
}

async function baileysContractHarness(): Promise<ProviderHarness> {
  const t = await createTestApp();
  const whatsappId = await insertConnection(
    t.deps.db,
    COMPANY,
    "Contract beta",
    t.clock.now().toISOString(),
  );
  const server = new FakeWhatsApp();
  const events: ProviderEvent[] = [];
  const build = () =>
    createBaileysProvider({
      whatsappId,
      companyId: COMPANY,
      emit: (event) => events.push(event),
      deliver: (event) => {
        events.push(event);
        return Promise.resolve({});
      },
      getStoredMessage: () => Promise.resolve(undefined),
    }, { db: t.deps.db, clock: t.clock, makeSocket: server.makeSocket });
  let provider: BaileysProvider = build();
  return {
    get provider() {
      return provider;
    },
    events,
    start: () => provider.start(),
    scan: async () => {
      await server.scan();
      await provider.settled();
    },
    inbound: async (m) => {
      server.current.emit("messages.upsert", {
        type: "notify",
        messages: [waMessage(
          { remoteJid: `${m.from}@s.whatsapp.net`, fromMe: false, id: m.id },
          { conversation: m.body },
          { pushName: m.pushName },
        )],
      });
      await provider.settled();
    },
    ack: async (id, to, ack) => {
      const S = proto.WebMessageInfo.Status;
      server.current.emit("messages.update", [{
        key: { remoteJid: `${to}@s.whatsapp.net`, fromMe: true, id },
        update: { status: ack === 2 ? S.DELIVERY_ACK : S.READ },
      }]);
      await provider.settled();
    },
    restart: async () => {
      await provider.stop();
      provider = build();
    },
    close: async () => {
      await provider.stop();
      // A greeting scheduled for the last socket runs first (it sees the socket ended).
      await server.greeted();
      await t.close();
    },
  };
}

runProviderContract("baileys", baileysContractHarness);
