import assert from "node:assert/strict";
import Database from "libsql";
import { callMain, startMain } from "../helpers/main_process.ts";
import { eventually } from "../helpers/eventually.ts";
import { startRedis } from "../helpers/redis_server.ts";
import { TestSocket } from "../helpers/server.ts";
import { WebhookReceiver } from "../fakes/webhook_receiver.ts";

/**
 * Issue 43 item 2: two real server processes (main.ts) on one database and a real redis-server
 * agree on what used to be each process's own answer:
 * (a) presence: an attendant whose socket on A closed but who has one open on B is online, and a
 *     ticket given out on A goes to them;
 * (b) a webhook made through A is used at once by B's traffic;
 * (c) webhook deliveries: both processes run the delivery job and the `outgoing` job, each event
 *     reaches the receiver once (one queue row per webhook and event, keyed by the event's note,
 *     claimed by one process);
 * (d) the pairing code and the simulator's phones answer through B for a session A runs.
 */
const LEASE_SECONDS = 4;
const BOUND_MS = 30_000;
const ADMIN = { email: "root@agree.test", password: "root-password" };

type Server = { name: string; url: string; child: Deno.ChildProcess; output: string[] };

async function startServer(name: string, dir: string, redisUrl: string): Promise<Server> {
  const started = await startMain({
    DATA_DIR: dir,
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    BCRYPT_COST: "4",
    SESSION_LEASE_SECONDS: String(LEASE_SECONDS),
    INSTANCE_ID: name,
    REDIS_URL: redisUrl,
    INTEGRATIONS_ALLOW_PRIVATE_URLS: "true",
  }, name);
  return { name, ...started };
}

const call = callMain;
const until = (check: () => Promise<boolean> | boolean, what: string) =>
  eventually(check, { timeoutMs: BOUND_MS, what });

function query<T>(dir: string, text: string, ...params: (string | number)[]): T[] {
  const db = new Database(`${dir}/balcao.db`);
  try {
    db.exec("PRAGMA busy_timeout = 5000");
    return db.prepare(text).raw(true).all(...params) as T[];
  } finally {
    db.close();
  }
}

async function login(server: Server, email: string, password: string): Promise<string> {
  const res = await call(server, "POST", "/api/auth/login", undefined, { email, password });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.token;
}

Deno.test("redis - two processes agree: presence, webhooks made on the other process, each event delivered once, pairing codes and simulator phones from either process", async () => {
  const dir = await Deno.makeTempDir({ prefix: "balcao-agree-" });
  const redis = await startRedis();
  const receiver = new WebhookReceiver();
  const servers: Server[] = [];
  const sockets: TestSocket[] = [];
  try {
    const a = await startServer("A", dir, redis.url);
    servers.push(a);
    const b = await startServer("B", dir, redis.url);
    servers.push(b);
    const admin = await login(a, ADMIN.email, ADMIN.password);

    // (d) A connection made through A: A takes its lease. Its pairing code and its phones are
    // asked through B, which does not run it.
    const created = await call(a, "POST", "/api/whatsapp", admin, {
      name: "W1",
      provider: "simulator",
      isDefault: true,
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const id = created.body.id as number;
    await until(
      () =>
        query<[string]>(dir, "SELECT holder FROM whatsapp_leases WHERE whatsappId = ?", id)[0]
          ?.[0] === "A",
      "A holds W1",
    );
    let state = await call(b, "GET", `/api/simulator/${id}`, admin);
    await until(async () => {
      if (state.body?.state === "waiting") return true;
      state = await call(b, "GET", `/api/simulator/${id}`, admin);
      return false;
    }, "W1 shows its QR, seen through B");
    const pairing = await call(b, "POST", `/api/whatsappsession/${id}/pairing-code`, admin, {
      phoneNumber: "+55 11 98888-7777",
    });
    assert.equal(pairing.status, 200, JSON.stringify(pairing.body));
    assert.match(pairing.body.code, /^[A-Z2-9]{8}$/);
    const scan = await call(b, "POST", `/api/simulator/${id}/scan`, admin);
    assert.equal(scan.status, 200, JSON.stringify(scan.body));
    assert.equal(scan.body.status, "CONNECTED");
    const said = await call(b, "POST", `/api/simulator/${id}/messages`, admin, {
      from: "5511955554444",
      body: "oi pelo B",
    });
    assert.equal(said.status, 201, JSON.stringify(said.body));
    assert.ok(said.body.ticketId > 0);
    // Unknown and foreign connections still answer as before, from B.
    const missing = await call(b, "POST", `/api/simulator/999/scan`, admin);
    assert.deepEqual([missing.status, missing.body.error], [404, "ERR_NO_WAPP_FOUND"]);

    // (a) An attendant with a socket on A and one on B; the one on A closes.
    const queue = await call(a, "POST", "/api/queue", admin, {
      name: "Suporte",
      color: "#0EA5E9",
      schedules: [],
      distribution: "least_busy",
    });
    assert.equal(queue.status, 201, JSON.stringify(queue.body));
    const made = await call(a, "POST", "/api/users", admin, {
      name: "Ana",
      email: "ana@agree.test",
      password: "password1",
      queueIds: [queue.body.id],
    });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    const ana = made.body.id as number;
    const settings = await call(a, "PUT", "/api/settings/multipleSessions", admin, {
      value: "enabled",
    });
    assert.equal(settings.status, 200, JSON.stringify(settings.body));
    const onA = await TestSocket.connect(
      a.url.replace("http", "ws"),
      await login(a, "ana@agree.test", "password1"),
    );
    const onB = await TestSocket.connect(
      b.url.replace("http", "ws"),
      await login(b, "ana@agree.test", "password1"),
    );
    sockets.push(onA, onB);
    const rows = () =>
      query<[string]>(dir, "SELECT instanceId FROM user_presence WHERE userId = ?", ana)
        .map((r) => r[0]).sort();
    await until(() => rows().join() === "A,B", "Ana's sockets on A and B");
    await onA.close();
    await until(() => rows().join() === "B", "A let go of Ana's socket");
    const online = query<[number]>(dir, "SELECT online FROM users WHERE id = ?", ana)[0][0];
    assert.equal(online, 1, "Ana is online: her socket on B is open");
    const contact = await call(a, "POST", "/api/contacts", admin, {
      name: "Cliente",
      number: "5511900001111",
    });
    const ticket = await call(a, "POST", "/api/tickets", admin, {
      contactId: contact.body.id,
      queueId: queue.body.id,
      status: "pending",
    });
    assert.equal(ticket.status, 201, JSON.stringify(ticket.body));
    await until(
      () =>
        query<[number | null]>(dir, "SELECT userId FROM tickets WHERE id = ?", ticket.body.id)[0]
          ?.[0] === ana,
      "A gave the ticket to Ana, online through B",
    );

    // (b) B hears a contact event first (it reads the company's webhooks: none), then a webhook
    // is made through A: B's next event is delivered.
    const before = await call(b, "POST", "/api/contacts", admin, {
      name: "Antes",
      number: "5511900002222",
    });
    assert.equal(before.status, 201, JSON.stringify(before.body));
    const hook = await call(a, "POST", "/api/webhooks", admin, {
      name: "ERP",
      url: receiver.url,
      events: ["contact.created"],
    });
    assert.equal(hook.status, 201, JSON.stringify(hook.body));
    receiver.secret = hook.body.secret;
    // (c) Events through both processes; both run the delivery job.
    const names = ["Depois B1", "Depois A1", "Depois B2", "Depois A2"];
    for (const [i, name] of names.entries()) {
      const server = name.includes(" B") ? b : a;
      const res = await call(server, "POST", "/api/contacts", admin, {
        name,
        number: `55119000033${i}0`,
      });
      assert.equal(res.status, 201, JSON.stringify(res.body));
    }
    const heard = () =>
      receiver.accepted().map((r) => (r.body.data.contact as { name: string }).name).sort();
    await until(() => heard().length >= names.length, "the four contacts delivered");
    assert.deepEqual(heard(), [...names].sort(), "B's contacts too, none before the webhook");
    assert.ok(receiver.accepted().every((r) => r.signatureValid));
    // Every delivery row is settled: nothing left for either process to send again.
    await until(
      () =>
        query<[number]>(dir, "SELECT COUNT(*) FROM webhook_deliveries WHERE status = 'delivered'")[
          0
        ][0] === names.length,
      "deliveries settled",
    );
    const perEvent = query<[string, number]>(
      dir,
      "SELECT eventId, COUNT(*) FROM webhook_deliveries GROUP BY eventId",
    );
    assert.equal(perEvent.length, names.length);
    assert.ok(perEvent.every(([, n]) => n === 1), "one queue row per webhook and event");
    assert.equal(
      new Set(receiver.received.map((r) => r.eventId)).size,
      receiver.received.length,
      "each event reached the receiver once",
    );
    // Each delivery went out under the note written with its contact (server/events/outgoing.ts),
    // and every note is closed: neither process's `outgoing` job has anything to recover.
    const noted = new Set(
      query<[string]>(dir, "SELECT eventKey FROM outgoing_events WHERE event = 'contact.created'")
        .map((r) => r[0]),
    );
    assert.ok(perEvent.every(([eventId]) => noted.has(eventId)), "deliveries keyed by the notes");
    await until(
      () =>
        query<[number]>(dir, "SELECT COUNT(*) FROM outgoing_events WHERE capturedAt IS NULL")[0][
          0
        ] === 0,
      "every note closed",
    );
  } finally {
    for (const socket of sockets) await socket.close().catch(() => {});
    for (const server of servers) {
      try {
        server.child.kill("SIGKILL");
      } catch {
        // already gone
      }
      await server.child.status;
    }
    await receiver.close();
    await redis.stop();
    await Deno.remove(dir, { recursive: true });
  }
});
