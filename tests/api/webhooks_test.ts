import assert from "node:assert/strict";
import {
  createCompany,
  createTestApp,
  type TestApp,
  type TestCompany,
  twoCompanies,
  withApp,
} from "../helpers/app.ts";
import { sockets, withServedApp } from "../helpers/admin_fixtures.ts";
import { WebhookReceiver } from "../fakes/webhook_receiver.ts";
import { connectSimulator, phoneSends } from "../whatsapp/helpers.ts";
import { closeDeps } from "../../server/deps.ts";
import { webhookCapture } from "../../server/webhooks/capture.ts";
import { deliverDue, RETRY_DELAYS_MS } from "../../server/webhooks/delivery.ts";
import { dataKey, unseal } from "../../server/crypto/sealed.ts";

/** The fake receiver listens on 127.0.0.1: allowed only with this switch (SSRF guard). */
const ALLOW_PRIVATE = { INTEGRATIONS_ALLOW_PRIVATE_URLS: "true" };

async function withReceiver(fn: (r: WebhookReceiver) => Promise<void>) {
  const receiver = new WebhookReceiver();
  try {
    await fn(receiver);
  } finally {
    await receiver.close();
  }
}

async function addHook(
  t: TestApp,
  company: TestCompany,
  receiver: WebhookReceiver,
  events = ["contact.created", "message.created", "ticket.created", "ticket.closed"],
) {
  const res = await t.request("POST", "/api/webhooks", {
    token: company.admin.token,
    body: { name: "ERP", url: receiver.url, events },
  });
  assert.equal(res.status, 201, await res.clone().text());
  const hook = await res.json();
  receiver.secret = hook.secret;
  return hook;
}

async function addContact(t: TestApp, company: TestCompany, number: string) {
  const res = await t.request("POST", "/api/contacts", {
    token: company.admin.token,
    body: { name: `Cliente ${number}`, number },
  });
  assert.equal(res.status, 201, await res.clone().text());
  return await res.json();
}

/** Waits until the heard events are queued, then runs one delivery tick. */
async function tick(t: TestApp) {
  await webhookCapture(t.deps.events)!.idle();
  return await deliverDue(t.deps);
}

async function deliveries(t: TestApp) {
  return await t.deps.db.selectFrom("webhook_deliveries").selectAll().orderBy("id").execute();
}

Deno.test("webhooks - signed deliveries of contact, ticket and message events; each company hears only its own", () =>
  withApp(async (t) => {
    await withReceiver(async (receiver) => {
      const { a, b } = await twoCompanies(t);
      const hook = await addHook(t, a, receiver);
      assert.match(hook.secret, /^whsec_[A-Za-z0-9_-]{43}$/);
      const contact = await addContact(t, a, "5513912344321");
      await addContact(t, b, "5513912344321");
      const whatsappId = await connectSimulator(t, a);
      const inbound = await phoneSends(t, a.admin.token, whatsappId, {
        from: "5511988887777",
        name: "Maria",
        body: "Oi",
      });
      assert.ok(await tick(t) >= 3);
      t.clock.advance(1000);
      const closed = await t.request("PUT", `/api/tickets/${inbound.ticketId}`, {
        token: a.admin.token,
        body: { status: "closed" },
      });
      assert.equal(closed.status, 200, await closed.clone().text());
      assert.equal(await tick(t), 1);
      const got = receiver.accepted();
      assert.ok(got.every((r) => r.signatureValid), "every signature checks out");
      assert.ok(got.every((r) => r.body.companyId === a.id), "only company A's events");
      assert.ok(got.every((r) => r.body.id === r.eventId && r.body.event === r.event));
      const byEvent = Map.groupBy(got, (r) => r.event);
      // The API's contact and the one WhatsApp made for Maria (deliveries run side by side: the
      // order they arrive in is not promised).
      assert.deepEqual(
        byEvent.get("contact.created")!.map((r) => (r.body.data.contact as { name: string }).name)
          .sort(),
        [contact.name, "Maria"].sort(),
      );
      const message = byEvent.get("message.created")![0].body.data.message as { body: string };
      assert.equal(message.body, "Oi");
      assert.ok(byEvent.has("ticket.created"));
      const closedTicket = byEvent.get("ticket.closed")![0].body.data.ticket as { id: number };
      assert.equal(closedTicket.id, inbound.ticketId);
      // The receiver does not know the secret of another webhook: a wrong secret fails the check.
      receiver.secret = "whsec_wrong";
      await addContact(t, a, "5513912344322");
      await tick(t);
      assert.equal(receiver.received.at(-1)!.signatureValid, false);
      const rows = await deliveries(t);
      assert.ok(rows.every((d) => d.status === "delivered" && d.companyId === a.id));
      const listed = await t.request("GET", `/api/webhooks/${hook.id}/deliveries`, {
        token: a.admin.token,
      });
      const { deliveries: shown } = await listed.json();
      assert.equal(shown.length, rows.length);
      assert.equal(shown[0].lastStatus, 200);
    });
  }, ALLOW_PRIVATE));

Deno.test("webhooks - a receiver that fails then recovers gets each event once, with backoff; the same event id on every retry", () =>
  withApp(async (t) => {
    await withReceiver(async (receiver) => {
      const { a } = await twoCompanies(t);
      await addHook(t, a, receiver, ["contact.created"]);
      receiver.failWith = 500;
      await addContact(t, a, "5513912344321");
      await addContact(t, a, "5513912344322");
      assert.equal(await tick(t), 2);
      // Not due yet: nothing is sent before the first backoff delay.
      assert.equal(await tick(t), 0);
      t.clock.advance(RETRY_DELAYS_MS[0] * 1.1 + 1000);
      assert.equal(await tick(t), 2);
      let rows = await deliveries(t);
      assert.deepEqual(rows.map((d) => [d.status, d.attempts, d.lastStatus]), [
        ["pending", 2, 500],
        ["pending", 2, 500],
      ]);
      receiver.failWith = null;
      t.clock.advance(RETRY_DELAYS_MS[1] * 1.1 + 1000);
      assert.equal(await tick(t), 2);
      rows = await deliveries(t);
      assert.deepEqual(rows.map((d) => [d.status, d.attempts]), [["delivered", 3], [
        "delivered",
        3,
      ]]);
      const ids = receiver.accepted().map((r) => r.eventId);
      assert.equal(ids.length, 2);
      assert.equal(new Set(ids).size, 2, "no event delivered twice");
      for (const id of ids) {
        assert.equal(receiver.received.filter((r) => r.eventId === id).length, 3);
      }
      assert.equal(await tick(t), 0);
    });
  }, ALLOW_PRIVATE));

Deno.test("webhooks - a restart in the middle of retries loses nothing and sends once", async () => {
  await withReceiver(async (receiver) => {
    let t = await createTestApp(ALLOW_PRIVATE);
    try {
      const a = await createCompany(t, "Alpha");
      await addHook(t, a, receiver, ["contact.created"]);
      receiver.failWith = 503;
      await addContact(t, a, "5513912344321");
      assert.equal(await tick(t), 1);
      // A crash while a row was being sent leaves its claim behind.
      await t.deps.db.updateTable("webhook_deliveries").set({
        status: "sending",
        claimId: "dead-process",
        claimedUntil: t.clock.now().toISOString(),
      }).execute();
      await closeDeps(t.deps);
      // The same database on either engine: its folder and its URL (t.env).
      t = await createTestApp({ ...t.env, DATA_DIR: t.dir, ...ALLOW_PRIVATE }, t.clock);
      receiver.failWith = null;
      t.clock.advance(RETRY_DELAYS_MS[0] * 1.1 + 1000);
      assert.equal(await tick(t), 1);
      const [row] = await deliveries(t);
      assert.deepEqual([row.status, row.attempts], ["delivered", 2]);
      assert.equal(receiver.accepted().length, 1);
      assert.equal(receiver.received[0].eventId, receiver.received[1].eventId);
      assert.equal(await tick(t), 0);
    } finally {
      await t.close();
    }
  });
});

Deno.test("webhooks - repeated failures disable the webhook with a notice; enabling it again resumes the queue", () =>
  withApp(async (t) => {
    await withReceiver(async (receiver) => {
      const { a, b } = await twoCompanies(t);
      await withServedApp(t, async (wsUrl) => {
        const [admin, other] = await sockets(wsUrl, a.admin.token, b.admin.token);
        const hook = await addHook(t, a, receiver, ["contact.created"]);
        receiver.failWith = 500;
        await addContact(t, a, "5513912344321");
        for (let i = 0; i < 3; i++) {
          await tick(t);
          t.clock.advance(RETRY_DELAYS_MS[i] * 1.1 + 1000);
        }
        const notice = await admin.next((e) =>
          e.event === `company-${a.id}-webhook` &&
          (e.data as { record?: { active: boolean } }).record?.active === false
        );
        const disabled = (notice.data as { record: Record<string, unknown> }).record;
        assert.equal(disabled.failureCount, 3);
        assert.match(String(disabled.disabledReason), /^3 falhas seguidas; última: HTTP 500$/);
        // Disabled: nothing is sent, the delivery waits.
        assert.equal(await tick(t), 0);
        assert.equal(receiver.received.length, 3);
        receiver.failWith = null;
        const res = await t.request("PUT", `/api/webhooks/${hook.id}`, {
          token: a.admin.token,
          body: { active: true },
        });
        const enabled = await res.json();
        assert.deepEqual([enabled.active, enabled.failureCount, enabled.disabledReason], [
          true,
          0,
          null,
        ]);
        t.clock.advance(RETRY_DELAYS_MS[3] * 1.1 + 1000);
        assert.equal(await tick(t), 1);
        assert.equal(receiver.accepted().length, 1);
        await other.settle();
        assert.equal(other.events.filter((e) => e.event.endsWith("-webhook")).length, 0);
      });
    });
  }, { ...ALLOW_PRIVATE, WEBHOOK_DISABLE_AFTER: "3" }));

Deno.test("webhooks - URLs to loopback and private addresses are refused unless allowed", () =>
  withApp(async (t) => {
    const { a } = await twoCompanies(t);
    const cases = [
      "http://127.0.0.1:9/hook",
      "http://localhost/hook",
      "http://10.0.0.5/hook",
      "http://192.168.1.1/hook",
      "http://169.254.169.254/latest/meta-data",
      "http://[::1]/hook",
      // IPv4 embedded or translated (issue 35): each of these reaches 127.0.0.1 somewhere.
      "http://[::7f00:1]/hook",
      "http://[::ffff:0:7f00:1]/hook",
      "http://[64:ff9b::7f00:1]/hook",
      "http://[fec0::1]/hook",
      "ftp://example.com/hook",
      "not a url",
    ];
    for (const url of cases) {
      const res = await t.request("POST", "/api/webhooks", {
        token: a.admin.token,
        body: { name: "ERP", url, events: ["contact.created"] },
      });
      const text = await res.text();
      assert.equal(res.status, 400, `${url}: ${text}`);
      assert.equal(JSON.parse(text).error, "ERR_INTEGRATION_URL", url);
    }
    const res = await t.request("POST", "/api/webhooks", {
      token: a.admin.token,
      body: { name: "ERP", url: "https://93.184.215.14/hook", events: ["nope"] },
    });
    assert.equal(res.status, 400);
    assert.equal((await res.json()).error, "ERR_VALIDATION");
    assert.equal((await t.deps.db.selectFrom("webhooks").select("id").execute()).length, 0);
  }));

Deno.test("webhooks - admins of a plan with the flag only; another company cannot read, change or delete", () =>
  withApp(async (t) => {
    await withReceiver(async (receiver) => {
      const { a, b } = await twoCompanies(t);
      const hook = await addHook(t, a, receiver);
      const asUser = await t.request("GET", "/api/webhooks", { token: a.user.token });
      assert.equal(asUser.status, 403);
      const c = await createCompany(t, "Gamma", { plan: { useExternalApi: 0 } });
      const noPlan = await t.request("GET", "/api/webhooks", { token: c.admin.token });
      assert.equal((await noPlan.json()).error, "ERR_PLAN_FEATURE_DISABLED");
      const listB = await (await t.request("GET", "/api/webhooks", { token: b.admin.token }))
        .json();
      assert.deepEqual([listB.webhooks, listB.count], [[], 0]);
      for (
        const [method, path, body] of [
          ["PUT", `/api/webhooks/${hook.id}`, { name: "Hacked" }],
          ["DELETE", `/api/webhooks/${hook.id}`, undefined],
          ["POST", `/api/webhooks/${hook.id}/secret`, undefined],
          ["GET", `/api/webhooks/${hook.id}/deliveries`, undefined],
        ] as const
      ) {
        const res = await t.request(method, path, { token: b.admin.token, body });
        assert.equal(res.status, 404, `${method} ${path}`);
        assert.equal((await res.json()).error, "ERR_NO_WEBHOOK_FOUND");
      }
      const row = await t.deps.db.selectFrom("webhooks").selectAll().executeTakeFirstOrThrow();
      assert.equal(row.name, "ERP");
      assert.equal(await unseal(t.deps.secrets.data, row.secret), hook.secret);
      const listA = await (await t.request("GET", "/api/webhooks", { token: a.admin.token }))
        .json();
      assert.equal(listA.webhooks[0].id, hook.id);
      const regen = await t.request("POST", `/api/webhooks/${hook.id}/secret`, {
        token: a.admin.token,
      });
      assert.notEqual((await regen.json()).secret, hook.secret);
      const del = await t.request("DELETE", `/api/webhooks/${hook.id}`, { token: a.admin.token });
      assert.equal(del.status, 200);
      assert.equal((await t.deps.db.selectFrom("webhooks").select("id").execute()).length, 0);
    });
  }, ALLOW_PRIVATE));

Deno.test("webhooks - only the chosen events are queued; an edit of the events applies at once", () =>
  withApp(async (t) => {
    await withReceiver(async (receiver) => {
      const { a } = await twoCompanies(t);
      const hook = await addHook(t, a, receiver, ["message.created"]);
      await addContact(t, a, "5513912344321");
      assert.equal(await tick(t), 0);
      const res = await t.request("PUT", `/api/webhooks/${hook.id}`, {
        token: a.admin.token,
        body: { events: ["contact.created"] },
      });
      assert.equal(res.status, 200);
      await addContact(t, a, "5513912344322");
      assert.equal(await tick(t), 1);
      assert.deepEqual(receiver.accepted().map((r) => r.event), ["contact.created"]);
      const paused = await t.request("PUT", `/api/webhooks/${hook.id}`, {
        token: a.admin.token,
        body: { active: false },
      });
      assert.equal((await paused.json()).active, false);
      await addContact(t, a, "5513912344323");
      assert.equal(await tick(t), 0);
      assert.equal((await deliveries(t)).length, 1);
    });
  }, ALLOW_PRIVATE));

Deno.test("webhooks - the signing secret is sealed at rest: the row alone does not give it; deliveries are still signed with it", () =>
  withApp(async (t) => {
    await withReceiver(async (receiver) => {
      const { a } = await twoCompanies(t);
      const hook = await addHook(t, a, receiver, ["contact.created"]);
      const regen = await t.request("POST", `/api/webhooks/${hook.id}/secret`, {
        token: a.admin.token,
      });
      const secret = (await regen.json()).secret as string;
      receiver.secret = secret;
      const row = await t.deps.db.selectFrom("webhooks").selectAll().executeTakeFirstOrThrow();
      assert.ok(!JSON.stringify(row).includes(secret.slice(6)), "the secret is not stored as is");
      assert.match(row.secret, /^v1:/);
      // With another key (a copy of the database without DATA_ENCRYPTION_KEY) it does not open.
      const otherKey = await dataKey("another-key-of-at-least-32-bytes!!");
      await assert.rejects(() => unseal(otherKey, row.secret));
      // The admin still reads it, and the receiver checks the signature with it.
      const list = await (await t.request("GET", "/api/webhooks", { token: a.admin.token })).json();
      assert.equal(list.webhooks[0].secret, secret);
      await addContact(t, a, "5513912344321");
      assert.equal(await tick(t), 1);
      assert.equal(receiver.accepted()[0].signatureValid, true);
    });
  }, ALLOW_PRIVATE));
