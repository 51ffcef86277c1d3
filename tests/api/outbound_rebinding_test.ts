import assert from "node:assert/strict";
import { createCompany, createTestApp, type TestApp } from "../helpers/app.ts";
import { TestNetwork } from "../helpers/network.ts";
import { FakeDns } from "../fakes/dns.ts";
import { fakeTypebot } from "../fakes/typebot.ts";
import { WebhookReceiver } from "../fakes/webhook_receiver.ts";
import { eventually } from "../helpers/eventually.ts";
import { phoneSends, sentBy } from "../whatsapp/helpers.ts";
import { bodiesSent, integration, routedTo, ticketOf } from "../whatsapp/integration_helpers.ts";
import { webhookCapture } from "../../server/webhooks/capture.ts";
import { deliverDue, RETRY_DELAYS_MS } from "../../server/webhooks/delivery.ts";

/**
 * Issue 35, finding 1: DNS rebinding. The app resolves users' names with a DNS server of the
 * test's own (OUTBOUND_DNS_SERVER) that answers a public address first and 127.0.0.1 after
 * (TTL 0), and connects through the test's network, which records every address it is asked to
 * reach and carries only routed "public" addresses to servers of the test on loopback: no packet
 * leaves the machine. Loopback-only services must never hear from the app, INTEGRATIONS_ALLOW_
 * PRIVATE_URLS being off (its default).
 */
const PUBLIC = "1.2.3.4";

async function withRebindingApp(fn: (t: TestApp, dns: FakeDns, net: TestNetwork) => Promise<void>) {
  const dns = await FakeDns.start();
  const net = new TestNetwork();
  const t = await createTestApp({ OUTBOUND_DNS_SERVER: dns.server }, undefined, {
    connect: net.connect,
  });
  try {
    await fn(t, dns, net);
  } finally {
    await t.close();
    dns.close();
  }
}

Deno.test("rebinding - a typebot name that turns into 127.0.0.1 after the check never reaches loopback", async () => {
  // The loopback-only service the attacker wants to read; it speaks typebot's API, with a picture.
  const internal = fakeTypebot();
  try {
    await withRebindingApp(async (t, dns, net) => {
      const port = new URL(internal.url).port;
      const name = "bot.rebind.test";
      dns.set(name, PUBLIC);
      const a = await createCompany(t, "Alpha");
      const created = await integration(t, a, {
        type: "typebot",
        name: "Bot",
        urlN8N: `http://${name}:${port}/`,
        typebotSlug: "support",
      });
      const { wid } = await routedTo(t, a, created.id);
      // From now on: the public address to the next question, 127.0.0.1 to every later one.
      dns.rebind(name, PUBLIC, "127.0.0.1");
      const first = await phoneSends(t, a.user.token, wid, {
        from: "5511955550031",
        name: "Eve",
        body: "oi",
      });
      const ticket = await eventually(async () => {
        const row = await ticketOf(t, first.ticketId!);
        return row.useIntegration === 0 ? row : undefined;
      });
      assert.equal(ticket.integrationId, null, "the integration failed: people took the ticket");
      assert.deepEqual(internal.requests, [], "the loopback service heard nothing");
      // The one connection made went to the address the check saw; the retry asked the name
      // again, got 127.0.0.1 and was refused before connecting.
      assert.deepEqual(net.asked, [`${PUBLIC}:${port}`]);
      assert.deepEqual(dns.asked(name).map((q) => q.answered).slice(-2), [[PUBLIC], [
        "127.0.0.1",
      ]]);
      const sent = await sentBy(t, a.user.token, wid);
      assert.equal(sent.some((s) => s.media !== null || s.body.includes("Sou o bot")), false);
    });
  } finally {
    await internal.close();
  }
});

Deno.test("rebinding - a redirect to loopback is refused at its hop; a redirect to a public host is followed", async () => {
  const internal = fakeTypebot();
  let typebot: ReturnType<typeof fakeTypebot> | undefined;
  try {
    await withRebindingApp(async (t, dns, net) => {
      const inside = new URL(internal.url).port;
      const moved = (origin: string, to: string) => `${origin}/moved?to=${encodeURIComponent(to)}`;
      typebot = fakeTypebot({
        images: (origin) => [
          moved(origin, `${origin}/files/logo.png`),
          moved(origin, `http://127.0.0.1:${inside}/files/logo.png`),
          moved(origin, `http://inside.rebind.test:${inside}/files/logo.png`),
          moved(origin, `http://[::ffff:7f00:1]:${inside}/files/logo.png`),
        ],
      });
      // typebot.example is a public host of the test's network.
      dns.set("typebot.example", PUBLIC);
      dns.set("inside.rebind.test", "127.0.0.1");
      net.route(PUBLIC, 80, Number(new URL(typebot.url).port));
      const a = await createCompany(t, "Alpha");
      const created = await integration(t, a, {
        type: "typebot",
        name: "Bot",
        urlN8N: "http://typebot.example/",
        typebotSlug: "support",
        typebotDelayMessage: 0,
      });
      const { wid } = await routedTo(t, a, created.id);
      await phoneSends(t, a.user.token, wid, { from: "5511955550032", name: "Ana", body: "oi" });
      const sent = await bodiesSent(t, a, wid, 4);
      assert.deepEqual(sent.slice(0, 3).map((s) => s.body), [
        "Olá Ana! Sou o bot.",
        "Digite 1 ou 2",
        "▶️ 1\n▶️ 2",
      ]);
      // Only the picture behind the public redirect came; the three to loopback were refused.
      assert.deepEqual(sent.filter((s) => s.media).map((s) => s.media!.mimetype), ["image/png"]);
      assert.deepEqual(internal.requests, []);
      assert.ok(net.asked.every((target) => target === `${PUBLIC}:80`), net.asked.join());
      assert.equal(
        typebot.requests.filter((r) => r === "GET /files/logo.png").length,
        1,
        "the followed redirect reached the picture",
      );
    });
  } finally {
    await internal.close();
    await typebot?.close();
  }
});

Deno.test("rebinding - a webhook whose name turns into 127.0.0.1 is never delivered to loopback", async () => {
  const receiver = new WebhookReceiver();
  try {
    await withRebindingApp(async (t, dns, net) => {
      const port = new URL(receiver.url).port;
      const name = "hooks.rebind.test";
      dns.set(name, PUBLIC);
      const a = await createCompany(t, "Alpha");
      const res = await t.request("POST", "/api/webhooks", {
        token: a.admin.token,
        body: { name: "ERP", url: `http://${name}:${port}/hook`, events: ["contact.created"] },
      });
      assert.equal(res.status, 201, await res.clone().text());
      const hook = await res.json();
      receiver.secret = hook.secret;
      dns.rebind(name, PUBLIC, "127.0.0.1");
      const contact = await t.request("POST", "/api/contacts", {
        token: a.admin.token,
        body: { name: "Cliente", number: "5513912340001" },
      });
      assert.equal(contact.status, 201);
      await webhookCapture(t.deps.events)!.idle();
      assert.equal(await deliverDue(t.deps), 1);
      // Second attempt: the name now answers 127.0.0.1, refused before any connection.
      t.clock.advance(RETRY_DELAYS_MS[0] * 1.2);
      assert.equal(await deliverDue(t.deps), 1);
      assert.deepEqual(receiver.received, [], "nothing reached the loopback receiver");
      assert.deepEqual(net.asked, [`${PUBLIC}:${port}`]);
      const [delivery] = await t.deps.db.selectFrom("webhook_deliveries").selectAll()
        .where("companyId", "=", a.id).execute();
      assert.deepEqual([delivery.status, delivery.attempts, delivery.lastStatus], [
        "pending",
        2,
        null,
      ]);
      assert.match(delivery.lastError ?? "", /internos/);
      const listed = await t.request("GET", "/api/webhooks", { token: a.admin.token });
      const shown = (await listed.json()).webhooks.find((w: { id: number }) => w.id === hook.id);
      assert.equal(shown.lastStatus, null, "no status of loopback to show");
    });
  } finally {
    await receiver.close();
  }
});
