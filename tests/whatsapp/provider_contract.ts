import assert from "node:assert/strict";
import type { Provider, ProviderEvent } from "../../server/whatsapp/providers/provider.ts";
import { eventually } from "../helpers/eventually.ts";

/**
 * The provider contract: what the session manager, the inbound pipeline and the outbox rely on,
 * checked against any implementation (the simulator in simulator_contract_test.ts; the Baileys
 * adapter with its fake socket). Run it with:
 *
 *   runProviderContract("simulator", () => makeMyHarness());
 *
 * A harness wraps ONE connection's provider and the network around it:
 * - `provider`: the current instance, built with a ProviderContext whose emit and deliver both
 *   append to `events` (deliver resolves `{}`);
 * - `start()`: calls provider.start() and does whatever the network does next on its own
 *   (a fake server offers a QR, or opens the connection when credentials are stored);
 * - `scan()`: the phone scans the shown QR; the provider must then emit `connected`;
 * - `inbound(m)`: the network delivers a text from phone `m.from` (digits) with WhatsApp id
 *   `m.id`; resolves once the provider has handed it to the context;
 * - `ack(id, to, ack)`: the recipient's phone reports a sent message delivered (2) or read (3);
 *   a provider may emit acks on its own as well;
 * - `restart()`: stops the instance and builds a new one on the same storage (credentials),
 *   assigning it to `provider` (events keep accumulating in the same array);
 * - `close()`: releases everything (timers, sockets, temp files).
 */
export type ProviderHarness = {
  provider: Provider;
  events: ProviderEvent[];
  start(): Promise<void>;
  scan(): Promise<void>;
  inbound(message: { id: string; from: string; body: string; pushName?: string }): Promise<void>;
  ack(id: string, to: string, ack: 2 | 3): Promise<void>;
  restart(): Promise<void>;
  close(): Promise<void>;
};

/** Waits for the first event at or after `from` matching `match`. */
export function waitForEvent<T extends ProviderEvent["type"]>(
  h: ProviderHarness,
  type: T,
  match: (e: Extract<ProviderEvent, { type: T }>) => boolean = () => true,
  from = 0,
): Promise<Extract<ProviderEvent, { type: T }>> {
  return eventually(() => {
    const found = h.events.slice(from).find((e) =>
      e.type === type && match(e as Extract<ProviderEvent, { type: T }>)
    );
    if (!found) throw new Error(`no ${type} event; got ${h.events.map((e) => e.type).join(", ")}`);
    return found as Extract<ProviderEvent, { type: T }>;
  });
}

const PHONE = "5511912340000";

export function runProviderContract(name: string, makeHarness: () => Promise<ProviderHarness>) {
  const test = (title: string, fn: (h: ProviderHarness) => Promise<void>) =>
    Deno.test(`provider contract (${name}) - ${title}`, async () => {
      const h = await makeHarness();
      try {
        await fn(h);
      } finally {
        await h.close();
      }
    });

  test("start shows a QR, then connects once it is scanned", async (h) => {
    await h.start();
    const qr = await waitForEvent(h, "qr");
    assert.equal(typeof qr.qr, "string");
    assert.ok(qr.qr.length > 0);
    const before = h.events.length;
    await h.scan();
    const connected = await waitForEvent(h, "connected", () => true, before);
    assert.match(connected.number, /^\d{8,15}$/);
    const order = h.events.map((e) => e.type);
    assert.ok(order.indexOf("qr") < order.lastIndexOf("connected"));
  });

  test("inbound messages reach the context with the pipeline's fields", async (h) => {
    await h.start();
    await h.scan();
    await waitForEvent(h, "connected");
    await h.inbound({ id: "CONTRACT-IN-1", from: PHONE, body: "olá", pushName: "Ana" });
    const event = await waitForEvent(h, "message", (e) => e.message.id === "CONTRACT-IN-1");
    const m = event.message;
    assert.equal(m.chatJid, `${PHONE}@s.whatsapp.net`);
    assert.equal(m.isGroup, false);
    assert.equal(m.fromMe, false);
    assert.equal(m.body, "olá");
    assert.equal(m.pushName, "Ana");
    assert.ok(m.timestamp instanceof Date && !isNaN(m.timestamp.getTime()));
    assert.ok(m.origin === "notify" || m.origin === "append");
  });

  test("sendText returns the id it was given, and acks for it arrive", async (h) => {
    await h.start();
    await h.scan();
    await waitForEvent(h, "connected");
    const messageId = "3EB0CONTRACT0000000000000001";
    const sent = await h.provider.sendText(`${PHONE}@s.whatsapp.net`, "oi", { messageId });
    assert.equal(sent.id, messageId);
    assert.ok(sent.timestamp instanceof Date);
    await h.ack(sent.id, PHONE, 3);
    const ack = await waitForEvent(h, "ack", (e) => e.id === messageId && e.ack >= 2);
    assert.equal(ack.chatJid.split("@")[0].split(":")[0], PHONE);
  });

  test("sending while not connected fails instead of pretending", async (h) => {
    await assert.rejects(h.provider.sendText(`${PHONE}@s.whatsapp.net`, "oi"));
  });

  test("stop keeps the credentials: a new instance connects without a QR", async (h) => {
    await h.start();
    await h.scan();
    await waitForEvent(h, "connected");
    await h.restart();
    const before = h.events.length;
    await h.start();
    await waitForEvent(h, "connected", () => true, before);
    assert.equal(h.events.slice(before).filter((e) => e.type === "qr").length, 0);
  });

  test("logout forgets the credentials: a new instance asks for a QR again", async (h) => {
    await h.start();
    await h.scan();
    await waitForEvent(h, "connected");
    await h.provider.logout();
    await h.restart();
    const before = h.events.length;
    await h.start();
    await waitForEvent(h, "qr", () => true, before);
  });
}
