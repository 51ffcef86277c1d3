import assert from "node:assert/strict";
import { sql } from "kysely";
import { createCompany, createTestApp, restartTestApp, withApp } from "../helpers/app.ts";
import { eventually } from "../helpers/eventually.ts";
import { canMount, fillDisk, mountSmallDisk, unmount } from "../helpers/small_disk.ts";
import { connectSimulator } from "./helpers.ts";
import { StorageHealth } from "../../server/storage/health.ts";
import { HeldInbound } from "../../server/whatsapp/sessions/held_inbound.ts";
import type {
  DeliveryOutcome,
  ProviderContext,
  ProviderEvent,
} from "../../server/whatsapp/providers/provider.ts";
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

Deno.test({
  name:
    "held inbound - events held while the disk is full are journaled in reserved space and stored once after a restart (issue 43 item 5)",
  ignore: !canMount,
  fn: async () => {
    const dir = await Deno.makeTempDir({ prefix: "balcao-disk-" });
    await mountSmallDisk(dir, 24 * 1024 * 1024);
    let t = await createTestApp({ DATA_DIR: dir });
    try {
      // The connection's provider is the simulator's, seen through the context the session
      // manager gives every provider: the test plays Baileys' part (a message WhatsApp already
      // has a receipt for, which the pipeline could not store, goes to ctx.hold).
      let ctx: ProviderContext | undefined;
      const simulator = (await t.deps.sessions.providers.factory("simulator"))!;
      t.deps.sessions.providers.register("simulator", (c, d) => {
        ctx = c;
        return simulator(c, d);
      });
      const a = await createCompany(t, "Alpha");
      await connectSimulator(t, a);
      assert.ok(ctx);
      const message = (id: string, body: string): ProviderEvent => ({
        type: "message",
        message: {
          id,
          chatJid: ANA,
          isGroup: false,
          fromMe: false,
          pushName: "Ana",
          timestamp: new Date("2026-11-28T12:00:00Z"),
          body,
          origin: "notify",
        },
      });

      await sql`PRAGMA wal_checkpoint(TRUNCATE)`.execute(t.deps.db);
      await fillDisk(dir);
      const events = [
        message("JOURNAL-1", "primeira com o disco cheio"),
        message("JOURNAL-2", "segunda"),
      ];
      // The first fails in the pipeline and is handed to ctx.hold, as Baileys does; the next
      // queues behind it in the session manager (a chat keeps its order).
      const error = await ctx.deliver(events[0]).then(() => undefined, (e) => e);
      assert.ok(error, "the pipeline stored a message on a full disk");
      void ctx.hold!(events[0], error);
      void ctx.deliver(events[1]);
      await eventually(() => t.deps.sessions.held.size === 2 || undefined);
      const journal = `${dir}/held-inbound-${Deno.pid}.journal`;
      const text = new TextDecoder().decode(await Deno.readFile(journal));
      assert.match(text, /JOURNAL-1/);
      assert.match(text, /JOURNAL-2/);

      // A restart while the disk is still full: what was held lives only in the journal now.
      t = await restartTestApp(t);
      const stored = () =>
        t.deps.db.selectFrom("messages").select(["wid", "body"]).where("companyId", "=", a.id)
          .where("wid", "in", ["JOURNAL-1", "JOURNAL-2"]).orderBy("id").execute();
      await eventually(() => t.deps.sessions.held.size === 2 || undefined);
      assert.deepEqual(await stored(), []);

      // Space freed: the next probe (here /healthz) ends the state and the held events are stored.
      for await (const entry of Deno.readDir(dir)) {
        if (entry.name.startsWith("filler-")) await Deno.remove(`${dir}/${entry.name}`);
      }
      assert.equal((await t.request("GET", "/healthz")).status, 200);
      const rows = await eventually(async () => {
        const rows = await stored();
        return rows.length === 2 ? rows : undefined;
      });
      assert.deepEqual(rows.map((m) => [m.wid, m.body]), [
        ["JOURNAL-1", "primeira com o disco cheio"],
        ["JOURNAL-2", "segunda"],
      ]);
      assert.equal(t.deps.sessions.held.size, 0);

      // Another restart stores nothing twice: the journal was emptied.
      t = await restartTestApp(t);
      await t.deps.sessions.held.retry();
      assert.equal(t.deps.sessions.held.size, 0);
      assert.equal((await stored()).length, 2);
    } finally {
      await t.close();
      await unmount(dir);
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    }
  },
});
