import assert from "node:assert/strict";
import {
  createCompany,
  createTestApp,
  createUser,
  login,
  restartTestApp,
  type TestApp,
  type TestUser,
  twoCompanies,
} from "../helpers/app.ts";
import { addQueue } from "../helpers/tickets.ts";
import { connectSimulator, phoneSends } from "../whatsapp/helpers.ts";
import { FakePushService, PushDevice } from "../fakes/push_service.ts";
import { pushCapture } from "../../server/push/capture.ts";
import { sendDuePushes } from "../../server/push/send.ts";
import { recoverOutgoing } from "../../server/events/outgoing.ts";
import type { PushPayload } from "../../contract/push_types.ts";

/**
 * Issue 42 items 3 and 4: Web Push against a fake push service. Each device is a key pair held by
 * the test; what a device got is decrypted with its own keys (tests/fakes/push_service.ts).
 */
const ENV = { INTEGRATIONS_ALLOW_PRIVATE_URLS: "true" };

async function subscribeDevice(
  t: TestApp,
  service: FakePushService,
  user: { token: string },
  language = "pt",
): Promise<PushDevice & { id: number }> {
  const device = new PushDevice(service);
  const res = await t.request("POST", "/api/push/subscriptions", {
    token: user.token,
    body: { ...device.subscription(), language },
    headers: { "user-agent": "Mozilla/5.0 (X11; Linux x86_64) Chrome/153.0" },
  });
  assert.equal(res.status, 201, await res.clone().text());
  const { id } = await res.json();
  assert.equal(typeof id, "number");
  return Object.assign(device, { id });
}

/** Every heard event queued, then the job's tick run: what the push service has now is all. */
async function flush(t: TestApp) {
  await pushCapture(t.deps.events)!.idle();
  await sendDuePushes(t.deps);
}

async function deviceCount(t: TestApp, id: number) {
  const row = await t.deps.db.selectFrom("push_subscriptions").select((eb) =>
    eb.fn.countAll().as("n")
  )
    .where("companyId", "in", [1, 2, 3, 4]).where("id", "=", id).executeTakeFirstOrThrow();
  return Number(row.n);
}

Deno.test("push - the VAPID key is made once and kept: the same after a restart", async () => {
  let t = await createTestApp(ENV);
  try {
    const { a } = await twoCompanies(t);
    const res = await t.request("GET", "/api/push/key", { token: a.user.token });
    assert.equal(res.status, 200);
    const { publicKey } = await res.json();
    assert.match(publicKey, /^[A-Za-z0-9_-]{87}$/);
    // An uncompressed P-256 point: 65 bytes starting with 0x04.
    const bytes = Uint8Array.from(
      atob(publicKey.replace(/-/g, "+").replace(/_/g, "/") + "="),
      (c) => c.charCodeAt(0),
    );
    assert.equal(bytes.length, 65);
    assert.equal(bytes[0], 4);
    t = await restartTestApp(t);
    const again = await login(t, a.user.email, a.user.password);
    const after = await t.request("GET", "/api/push/key", { token: again.token });
    assert.deepEqual(await after.json(), { publicKey });
    const anonymous = await t.request("GET", "/api/push/key");
    assert.equal(anonymous.status, 401);
  } finally {
    await t.close();
  }
});

Deno.test("push - VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY from the environment are the ones used", async () => {
  const service = new FakePushService();
  const publicKey =
    "BDd3_hVL9fZi9Ybo2UUzA284WG5FZR30_95YeZJsiApwXKpNcF1rRPF3foIiBHXRdJI2Qhumhf6_LFTeZaNndIo";
  const privateKey = "xKZKYRNdFFn8iQIF2MH54KTfUHwH105zBdzMR7SI3xI";
  const t = await createTestApp({
    ...ENV,
    VAPID_PUBLIC_KEY: publicKey,
    VAPID_PRIVATE_KEY: privateKey,
    VAPID_SUBJECT: "mailto:ops@balcao.test",
  });
  try {
    const { a } = await twoCompanies(t);
    const res = await t.request("GET", "/api/push/key", { token: a.user.token });
    assert.deepEqual(await res.json(), { publicKey });
    const device = await subscribeDevice(t, service, a.user);
    const chat = await t.request("POST", "/api/chats", {
      token: a.admin.token,
      body: { title: "Equipe", users: [a.user.id] },
    });
    assert.equal(chat.status, 201);
    const { id } = await chat.json();
    await t.request("POST", `/api/chats/${id}/messages`, {
      token: a.admin.token,
      body: { message: "reunião às 15h" },
    });
    await flush(t);
    const [sent] = service.to(device);
    // RFC 8292: "vapid t=<JWT>, k=<public key>", the JWT's audience the push service's origin.
    const match = sent.headers.authorization.match(/^vapid t=([^,]+), k=(.+)$/);
    assert.ok(match, sent.headers.authorization);
    assert.equal(match[2], publicKey);
    const claims = JSON.parse(atob(match[1].split(".")[1].replace(/-/g, "+").replace(/_/g, "/")));
    assert.equal(claims.aud, service.url);
    assert.equal(claims.sub, "mailto:ops@balcao.test");
    assert.equal(sent.headers["content-encoding"], "aes128gcm");
  } finally {
    await t.close();
    await service.close();
  }
});

Deno.test("push - devices per user: listed, removed by their owner; another company's is 404 and stays", async () => {
  const service = new FakePushService();
  const t = await createTestApp(ENV);
  try {
    const { a, b } = await twoCompanies(t);
    const mine = await subscribeDevice(t, service, a.user);
    const list = await t.request("GET", "/api/push/subscriptions", { token: a.user.token });
    assert.equal(list.status, 200);
    const { subscriptions } = await list.json();
    assert.equal(subscriptions.length, 1);
    assert.equal(subscriptions[0].id, mine.id);
    assert.equal(subscriptions[0].current, true);
    assert.match(subscriptions[0].userAgent, /Chrome/);
    // Posting the same subscription again (every page load) keeps one row with the same id.
    const again = await t.request("POST", "/api/push/subscriptions", {
      token: a.user.token,
      body: mine.subscription(),
    });
    assert.deepEqual(await again.json(), { id: mine.id });

    // Another company's admin, and a colleague of the same company, cannot remove it.
    for (const other of [b.admin, a.admin]) {
      const res = await t.request("DELETE", `/api/push/subscriptions/${mine.id}`, {
        token: other.token,
      });
      assert.equal(res.status, 404);
      assert.equal((await res.json()).error, "ERR_NO_PUSH_SUBSCRIPTION_FOUND");
      assert.equal(await deviceCount(t, mine.id), 1);
    }
    const otherList = await t.request("GET", "/api/push/subscriptions", { token: b.admin.token });
    assert.deepEqual((await otherList.json()).subscriptions, []);

    const removed = await t.request("DELETE", `/api/push/subscriptions/${mine.id}`, {
      token: a.user.token,
    });
    assert.equal(removed.status, 204);
    assert.equal(await deviceCount(t, mine.id), 0);
  } finally {
    await t.close();
    await service.close();
  }
});

Deno.test("push - bad subscriptions are 400 and store nothing", async () => {
  const service = new FakePushService();
  const t = await createTestApp();
  try {
    const { a } = await twoCompanies(t);
    const device = new PushDevice(service);
    const good = device.subscription();
    for (
      const body of [
        { ...good, keys: { ...good.keys, p256dh: "short" } },
        { ...good, keys: { p256dh: good.keys.p256dh } },
        { ...good, endpoint: "not a url" },
      ]
    ) {
      const res = await t.request("POST", "/api/push/subscriptions", { token: a.user.token, body });
      assert.equal(res.status, 400);
      assert.equal((await res.json()).error, "ERR_VALIDATION");
    }
    // Without INTEGRATIONS_ALLOW_PRIVATE_URLS a plain-http endpoint is refused.
    const http = await t.request("POST", "/api/push/subscriptions", {
      token: a.user.token,
      body: good,
    });
    assert.equal(http.status, 400);
    assert.equal((await http.json()).error, "ERR_PUSH_ENDPOINT_INVALID");
    const rows = await t.deps.db.selectFrom("push_subscriptions").select("id")
      .where("companyId", "=", a.id).execute();
    assert.deepEqual(rows, []);
  } finally {
    await t.close();
    await service.close();
  }
});

Deno.test("push - logout and an ended session drop the session's devices", async () => {
  const service = new FakePushService();
  const t = await createTestApp(ENV);
  try {
    const { a } = await twoCompanies(t);
    const device = await subscribeDevice(t, service, a.user);
    const out = await t.request("DELETE", "/api/auth/logout", { token: a.user.token });
    assert.equal(out.status, 204, await out.clone().text());
    assert.equal(await deviceCount(t, device.id), 0);

    // An admin ends the user's session: its device goes with it.
    const session = await login(t, a.user.email, a.user.password);
    const second = await subscribeDevice(t, service, { token: session.token });
    const sessions = await t.request("GET", "/api/sessions?scope=company", {
      token: a.admin.token,
    });
    const target = (await sessions.json()).sessions.find((s: { userId: number }) =>
      s.userId === a.user.id
    );
    const ended = await t.request("DELETE", `/api/sessions/${target.id}`, {
      token: a.admin.token,
    });
    assert.equal(ended.status, 204);
    assert.equal(await deviceCount(t, second.id), 0);
  } finally {
    await t.close();
    await service.close();
  }
});

type Scene = {
  t: TestApp;
  service: FakePushService;
  whatsappId: number;
  queueId: number;
  inQueue: TestUser;
  alsoInQueue: TestUser;
  elsewhere: TestUser;
  admin: TestUser;
};

/** Company A: a queue with two attendants, one attendant of another queue, an admin. */
async function pushScene(t: TestApp, service: FakePushService): Promise<Scene> {
  const a = await createCompany(t, "Alpha");
  const queueId = await addQueue(t, a.id, "Vendas");
  const other = await addQueue(t, a.id, "Suporte");
  const inQueue = await createUser(t, a.id, {
    name: "Ana",
    email: "ana@alpha.test",
    queueIds: [queueId],
  });
  const alsoInQueue = await createUser(t, a.id, {
    name: "Bruno",
    email: "bruno@alpha.test",
    queueIds: [queueId],
  });
  const elsewhere = await createUser(t, a.id, {
    name: "Caio",
    email: "caio@alpha.test",
    queueIds: [other],
  });
  const whatsappId = await connectSimulator(t, a, { queueIds: [queueId] });
  return { t, service, whatsappId, queueId, inQueue, alsoInQueue, elsewhere, admin: a.admin };
}

Deno.test("push - a new ticket reaches its queue's attendants only, another company never", async () => {
  const service = new FakePushService();
  const t = await createTestApp(ENV);
  try {
    const s = await pushScene(t, service);
    const ana = await subscribeDevice(t, service, s.inQueue);
    const bruno = await subscribeDevice(t, service, s.alsoInQueue, "en");
    const caio = await subscribeDevice(t, service, s.elsewhere);
    const admin = await subscribeDevice(t, service, s.admin);
    const b = await createCompany(t, "Beta");
    const foreign = await subscribeDevice(t, service, b.admin);

    const got = await phoneSends(t, s.admin.token, s.whatsappId, {
      from: "5511955550000",
      name: "Zé Cliente",
      body: "quero um orçamento",
    });
    assert.equal(got.status, 201, JSON.stringify(got));
    await flush(t);
    const ticket = await t.deps.db.selectFrom("tickets").select(["uuid", "queueId", "status"])
      .where("companyId", "=", s.inQueue.companyId).where("id", "=", got.ticketId!)
      .executeTakeFirstOrThrow();
    assert.equal(ticket.queueId, s.queueId);

    assert.deepEqual(ana.received<PushPayload>(), [{
      kind: "newTicket",
      title: "Novo atendimento: Zé Cliente",
      body: "Aguardando na fila Vendas",
      url: `/tickets/${ticket.uuid}`,
      tag: `ticket-${got.ticketId}`,
    }]);
    // The device's language.
    assert.deepEqual(bruno.received<PushPayload>().map((p) => [p.title, p.body]), [[
      "New ticket: Zé Cliente",
      "Waiting in queue Vendas",
    ]]);
    // Another queue's attendant, an admin outside the queue, another company: nothing.
    assert.deepEqual(service.to(caio), []);
    assert.deepEqual(service.to(admin), []);
    assert.deepEqual(service.to(foreign), []);
    // The message itself is not a second push: the ticket is nobody's yet.
    assert.equal(service.to(ana).length, 1);
  } finally {
    await t.close();
    await service.close();
  }
});

Deno.test("push - a message on my ticket: the neutral line, its text only when I opt in", async () => {
  const service = new FakePushService();
  const t = await createTestApp(ENV);
  try {
    const s = await pushScene(t, service);
    const first = await phoneSends(t, s.admin.token, s.whatsappId, {
      from: "5511955550001",
      name: "Maria",
      body: "oi",
    });
    const accept = await t.request("PUT", `/api/tickets/${first.ticketId}`, {
      token: s.inQueue.token,
      body: { status: "open", userId: s.inQueue.id },
    });
    assert.equal(accept.status, 200, await accept.clone().text());
    const ana = await subscribeDevice(t, service, s.inQueue);
    const bruno = await subscribeDevice(t, service, s.alsoInQueue);
    await flush(t);

    await phoneSends(t, s.admin.token, s.whatsappId, {
      from: "5511955550001",
      name: "Maria",
      body: "meu pedido 123 chegou quebrado",
    });
    await flush(t);
    const [neutral] = ana.received<PushPayload>();
    assert.equal(neutral.kind, "message");
    assert.equal(neutral.title, "Nova mensagem de Maria");
    assert.equal(neutral.body, "Nova mensagem de Maria");
    assert.ok(!JSON.stringify(neutral).includes("quebrado"));
    // Someone else's ticket: Bruno (same queue) hears nothing of it.
    assert.deepEqual(service.to(bruno), []);

    const prefs = await t.request("PUT", "/api/push/preferences", {
      token: s.inQueue.token,
      body: { kinds: ["message"], showText: true, quietStart: null, quietEnd: null },
    });
    assert.equal(prefs.status, 200);
    await phoneSends(t, s.admin.token, s.whatsappId, {
      from: "5511955550001",
      name: "Maria",
      body: "segue a foto",
    });
    await flush(t);
    assert.equal(ana.received<PushPayload>()[1].body, "segue a foto");
  } finally {
    await t.close();
    await service.close();
  }
});

Deno.test("push - a transfer reaches its new attendant and names who made it; accepting one's own ticket, or taking it over, is silent", async () => {
  const service = new FakePushService();
  const t = await createTestApp(ENV);
  try {
    const s = await pushScene(t, service);
    const got = await phoneSends(t, s.admin.token, s.whatsappId, {
      from: "5511955550002",
      name: "João",
      body: "bom dia",
    });
    const ana = await subscribeDevice(t, service, s.inQueue);
    const bruno = await subscribeDevice(t, service, s.alsoInQueue);
    const accept = await t.request("PUT", `/api/tickets/${got.ticketId}`, {
      token: s.inQueue.token,
      body: { status: "open", userId: s.inQueue.id },
    });
    assert.equal(accept.status, 200);
    await flush(t);
    assert.deepEqual(service.to(ana), []);

    const transfer = await t.request("PUT", `/api/tickets/${got.ticketId}`, {
      token: s.inQueue.token,
      body: { userId: s.alsoInQueue.id, queueId: s.queueId },
    });
    assert.equal(transfer.status, 200, await transfer.clone().text());
    await flush(t);
    const pushes = bruno.received<PushPayload>();
    assert.equal(pushes.length, 1);
    assert.equal(pushes[0].kind, "transfer");
    const anaName = (await t.deps.db.selectFrom("users").select("name")
      .where("id", "=", s.inQueue.id).executeTakeFirstOrThrow()).name;
    assert.equal(pushes[0].title, `${anaName} transferiu para você: João`);
    assert.deepEqual(service.to(ana), []);

    // The admin takes it over (a transfer to themself): nobody is told, the admin least of all.
    const admin = await subscribeDevice(t, service, s.admin);
    const takeOver = await t.request("PUT", `/api/tickets/${got.ticketId}`, {
      token: s.admin.token,
      body: { userId: s.admin.id, queueId: s.queueId },
    });
    assert.equal(takeOver.status, 200, await takeOver.clone().text());
    await flush(t);
    assert.deepEqual(service.to(admin), []);
    assert.equal(bruno.received<PushPayload>().length, 1);
  } finally {
    await t.close();
    await service.close();
  }
});

Deno.test("push - 404 and 410 from the push service drop the subscription; a 503 is tried again", async () => {
  const service = new FakePushService();
  const t = await createTestApp(ENV);
  try {
    const s = await pushScene(t, service);
    const gone = await subscribeDevice(t, service, s.inQueue);
    const missing = await subscribeDevice(t, service, s.alsoInQueue);
    const busy = await subscribeDevice(t, service, s.admin);
    await t.deps.db.insertInto("user_queues")
      .values({ companyId: s.admin.companyId, userId: s.admin.id, queueId: s.queueId }).execute();
    service.answers.set(gone.name, 410);
    service.answers.set(missing.name, 404);
    service.answers.set(busy.name, 503);
    await phoneSends(t, s.admin.token, s.whatsappId, {
      from: "5511955550003",
      name: "Lia",
      body: "olá",
    });
    await flush(t);
    assert.equal(service.to(gone).length, 1);
    assert.equal(service.to(missing).length, 1);
    assert.equal(await deviceCount(t, gone.id), 0);
    assert.equal(await deviceCount(t, missing.id), 0);
    assert.equal(await deviceCount(t, busy.id), 1);
    const row = await t.deps.db.selectFrom("push_deliveries").select(["status", "attempts"])
      .where("companyId", "=", s.admin.companyId).where("subscriptionId", "=", busy.id)
      .executeTakeFirstOrThrow();
    assert.deepEqual(row, { status: "pending", attempts: 1 });
    // Once the service is back and the retry is due, it is delivered.
    service.answers.delete(busy.name);
    t.clock.advance(60_000);
    await sendDuePushes(t.deps);
    assert.equal(busy.received<PushPayload>().length, 1);
  } finally {
    await t.close();
    await service.close();
  }
});

Deno.test("push - choices: a kind turned off, and quiet hours, push nothing", async () => {
  const service = new FakePushService();
  // 12:00 UTC is 09:00 in São Paulo (the default zone).
  const t = await createTestApp(ENV);
  try {
    const s = await pushScene(t, service);
    const ana = await subscribeDevice(t, service, s.inQueue);
    const bruno = await subscribeDevice(t, service, s.alsoInQueue);
    const off = await t.request("PUT", "/api/push/preferences", {
      token: s.inQueue.token,
      body: { kinds: ["message"], showText: false, quietStart: null, quietEnd: null },
    });
    assert.equal(off.status, 200);
    const quiet = await t.request("PUT", "/api/push/preferences", {
      token: s.alsoInQueue.token,
      body: {
        kinds: ["newTicket", "message"],
        showText: false,
        quietStart: "08:30",
        quietEnd: "09:05",
      },
    });
    assert.equal(quiet.status, 200);
    const read = await t.request("GET", "/api/push/preferences", { token: s.alsoInQueue.token });
    assert.deepEqual(await read.json(), {
      kinds: ["newTicket", "message"],
      showText: false,
      quietStart: "08:30",
      quietEnd: "09:05",
    });
    const half = await t.request("PUT", "/api/push/preferences", {
      token: s.alsoInQueue.token,
      body: { kinds: [], showText: false, quietStart: "25:00", quietEnd: null },
    });
    assert.equal(half.status, 400);
    await phoneSends(t, s.admin.token, s.whatsappId, {
      from: "5511955550004",
      name: "Rui",
      body: "olá",
    });
    await flush(t);
    assert.deepEqual(service.to(ana), []);
    assert.deepEqual(service.to(bruno), []);
    // After the quiet hours (09:05) the next waiting ticket reaches Bruno.
    t.clock.advance(6 * 60_000);
    await phoneSends(t, s.admin.token, s.whatsappId, {
      from: "5511955550005",
      name: "Sara",
      body: "olá",
    });
    await flush(t);
    assert.deepEqual(bruno.received<PushPayload>().map((p) => p.title), [
      "Novo atendimento: Sara",
    ]);
  } finally {
    await t.close();
    await service.close();
  }
});

Deno.test("push - an internal chat message reaches the other participants, not the sender", async () => {
  const service = new FakePushService();
  const t = await createTestApp(ENV);
  try {
    const { a, b } = await twoCompanies(t);
    const third = await createUser(t, a.id, { name: "Fora", email: "fora@alpha.test" });
    const user = await subscribeDevice(t, service, a.user);
    const admin = await subscribeDevice(t, service, a.admin);
    const outside = await subscribeDevice(t, service, third);
    const foreign = await subscribeDevice(t, service, b.admin);
    const chat = await t.request("POST", "/api/chats", {
      token: a.admin.token,
      body: { title: "Plantão", users: [a.user.id] },
    });
    const { id, uuid } = await chat.json();
    await t.request("POST", `/api/chats/${id}/messages`, {
      token: a.admin.token,
      body: { message: "cobre a fila?" },
    });
    await flush(t);
    assert.deepEqual(user.received<PushPayload>(), [{
      kind: "chat",
      title: "Chat interno: Plantão",
      body: `Nova mensagem de ${"Alpha Admin"}`,
      url: `/chats/${uuid}`,
      tag: `chat-${id}`,
    }]);
    assert.deepEqual(service.to(admin), []);
    assert.deepEqual(service.to(outside), []);
    assert.deepEqual(service.to(foreign), []);
  } finally {
    await t.close();
    await service.close();
  }
});

Deno.test("push - a fact heard twice, and two ticks at once, push once per device", async () => {
  const service = new FakePushService();
  const t = await createTestApp(ENV);
  try {
    const s = await pushScene(t, service);
    const ana = await subscribeDevice(t, service, s.inQueue);
    const first = await phoneSends(t, s.admin.token, s.whatsappId, {
      from: "5511955550006",
      name: "Téo",
      body: "oi",
    });
    await pushCapture(t.deps.events)!.idle();
    // The same domain event told again (as a second process would) adds no row.
    const ticket = await t.request("GET", `/api/tickets/${first.ticketId}`, {
      token: s.admin.token,
    });
    t.deps.events.emit("ticket.created", { ticket: await ticket.json() });
    await pushCapture(t.deps.events)!.idle();
    const rows = await t.deps.db.selectFrom("push_deliveries").select("eventKey")
      .where("companyId", "=", s.admin.companyId).execute();
    assert.equal(rows.length, 1);
    // Two ticks racing (two processes): the claim lets one send it.
    await Promise.all([sendDuePushes(t.deps), sendDuePushes(t.deps)]);
    assert.equal(service.to(ana).length, 1);
  } finally {
    await t.close();
    await service.close();
  }
});

Deno.test("push - a chat message whose process died right after its commit is pushed by the outgoing job, once", async () => {
  const service = new FakePushService();
  const t = await createTestApp(ENV);
  try {
    const { a } = await twoCompanies(t);
    const user = await subscribeDevice(t, service, a.user);
    const chat = await t.request("POST", "/api/chats", {
      token: a.admin.token,
      body: { title: "Plantão", users: [a.user.id] },
    });
    const { id } = await chat.json();
    await t.request("POST", `/api/chats/${id}/messages`, {
      token: a.admin.token,
      body: { message: "cobre a fila?" },
    });
    await flush(t);
    assert.equal(user.received<PushPayload>().length, 1);
    // What a SIGKILL between the commit and the queueing leaves (outgoing_kill_test does it with
    // a real process): the message and its open note, no push queued.
    const reopened = await t.deps.db.updateTable("outgoing_events")
      .set({ capturedAt: null, claimId: null, claimedUntil: null })
      .where("companyId", "=", a.id).where("event", "=", "chat.message").executeTakeFirst();
    assert.equal(Number(reopened.numUpdatedRows), 1, "the chat message was noted with its commit");
    await t.deps.db.deleteFrom("push_deliveries").where("companyId", "=", a.id).execute();
    service.received.length = 0;

    t.clock.advance(t.deps.config.outgoingGraceMs + 1000);
    assert.equal(await recoverOutgoing(t.deps), 1);
    await flush(t);
    assert.deepEqual(user.received<PushPayload>().map((p) => [p.kind, p.title]), [[
      "chat",
      "Chat interno: Plantão",
    ]]);
    // The note is closed: another tick (or process) queues nothing more.
    assert.equal(await recoverOutgoing(t.deps), 0);
    await flush(t);
    assert.equal(service.received.length, 1);
  } finally {
    await t.close();
    await service.close();
  }
});

Deno.test("push - an SLA breach reaches admins and the queue's supervisors", async () => {
  const service = new FakePushService();
  const t = await createTestApp(ENV);
  try {
    const s = await pushScene(t, service);
    await t.deps.db.updateTable("user_queues").set({ supervisor: 1 })
      .where("companyId", "=", s.admin.companyId).where("userId", "=", s.alsoInQueue.id).execute();
    const admin = await subscribeDevice(t, service, s.admin);
    const supervisor = await subscribeDevice(t, service, s.alsoInQueue);
    const got = await phoneSends(t, s.admin.token, s.whatsappId, {
      from: "5511955550007",
      name: "Vera",
      body: "oi",
    });
    const ana = await subscribeDevice(t, service, s.inQueue);
    await flush(t);
    service.received.length = 0;
    const res = await t.request("GET", `/api/tickets/${got.ticketId}`, { token: s.admin.token });
    t.deps.events.emit("ticket.slaBreached", {
      companyId: s.admin.companyId,
      ticket: await res.json(),
      kind: "firstResponse",
      supervisorIds: [s.alsoInQueue.id],
    });
    await flush(t);
    for (const device of [admin, supervisor]) {
      assert.deepEqual(device.received<PushPayload>().map((p) => [p.kind, p.title, p.body]), [[
        "sla",
        "Prazo estourado: Vera",
        "A primeira resposta passou do prazo",
      ]]);
    }
    assert.deepEqual(service.to(ana), []);
  } finally {
    await t.close();
    await service.close();
  }
});
