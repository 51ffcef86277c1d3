import assert from "node:assert/strict";
import { withApp } from "../helpers/app.ts";
import { StorageHealth } from "../../server/storage/health.ts";
import { HeldInbound } from "../../server/whatsapp/sessions/held_inbound.ts";
import type { DeliveryOutcome } from "../../server/whatsapp/providers/provider.ts";
import { toRaw } from "../../server/whatsapp/providers/baileys/messages.ts";
import { baileysHarness, MEDIA_BYTES, waMessage } from "./baileys_harness.ts";

const ANA = "5511988887777@s.whatsapp.net";
const FULL = () => new Error("database or disk is full");

Deno.test("held inbound - a Baileys event the pipeline could not store for lack of space is held, not retried on timers", () =>
  withApp(async (t) => {
    const h = await baileysHarness(t);
    await h.connect();
    h.failNextDeliveries = 1;
    h.deliveryError = FULL();
    await h.feed("messages.upsert", {
      type: "notify",
      messages: [waMessage({ remoteJid: ANA, fromMe: false, id: "HELD1" }, { conversation: "oi" })],
    });
    assert.deepEqual(h.held.map((e) => e.type === "message" ? e.message.id : e.type), ["HELD1"]);
    assert.equal(h.timers.pending.size, 0);
    await h.provider.stop();
  }));

Deno.test("held inbound - the Baileys provider downloads a stored message's media again (re-upload path)", () =>
  withApp(async (t) => {
    const h = await baileysHarness(t);
    await h.connect();
    const message = waMessage({ remoteJid: ANA, fromMe: false, id: "IMG1" }, {
      imageMessage: { mimetype: "image/jpeg", url: "https://mmg.whatsapp.net/x" },
    });
    const data = await h.provider.downloadMedia({ id: "IMG1", raw: toRaw(message) });
    assert.deepEqual(data, MEDIA_BYTES);
    assert.equal(h.downloads.at(-1)?.key.id, "IMG1");
    await h.provider.stop();
  }));

Deno.test("held inbound - events wait in order, bounded, and are stored when storage returns", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const storage = new StorageHealth(dir);
    const held = new HeldInbound(storage, 3);
    let full = true;
    const stored: string[] = [];
    const event = (id: string) => () => {
      if (full) return Promise.reject(FULL());
      stored.push(id);
      return Promise.resolve<DeliveryOutcome>({ messageId: stored.length });
    };
    storage.report(FULL());
    const outcomes = ["a", "b", "c"].map((id) => held.hold(1, event(id)));
    assert.equal(held.size, 3);
    assert.equal(held.holds(1), true);
    assert.equal(held.holds(2), false);
    // Over the bound: refused (logged and counted), never queued.
    assert.deepEqual(await held.hold(1, event("d")), { ignored: "held events over the limit" });
    assert.equal(held.refused, 1);

    // A retry while storage still fails keeps everything, in order.
    await held.retry();
    assert.equal(held.size, 3);
    assert.equal(storage.state, "full");

    // Storage returns (a probe write works): everything is stored, in the order it came.
    full = false;
    assert.equal(await storage.probe(), "ok");
    assert.deepEqual(await Promise.all(outcomes), [{ messageId: 1 }, { messageId: 2 }, {
      messageId: 3,
    }]);
    assert.deepEqual(stored, ["a", "b", "c"]);
    assert.equal(held.size, 0);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
