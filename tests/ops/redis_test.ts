import assert from "node:assert/strict";
import Database from "libsql";
import { callMain, sessionsRunning, startMain } from "../helpers/main_process.ts";
import { eventually } from "../helpers/eventually.ts";
import { startRedis } from "../helpers/redis_server.ts";
import { type SocketEvent, TestSocket } from "../helpers/server.ts";

/**
 * N processes behind a plain load balancer (issue 31, docs/scaling.md): two real server
 * processes (main.ts) on one database and a real redis-server. Events published by one reach the
 * sockets of the other with each socket's visibility; a session command through one reaches the
 * lease holder; a killed process's connection moves and the survivor's sockets keep hearing; a
 * Redis restart costs no 5xx and tells the sockets to reload.
 */
/** Long enough that a loaded machine's late renewal does not move the connection by itself. */
const LEASE_SECONDS = 4;
const BOUND_MS = 30_000;
const ADMIN = { email: "root@redis.test", password: "root-password" };
const METRICS_TOKEN = "redis-metrics-token-0123";

type Server = { name: string; url: string; child: Deno.ChildProcess; output: string[] };

async function startServer(name: string, dir: string, redisUrl: string): Promise<Server> {
  const started = await startMain({
    DATA_DIR: dir,
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    BCRYPT_COST: "4",
    SESSION_LEASE_SECONDS: String(LEASE_SECONDS),
    INSTANCE_ID: name,
    METRICS_TOKEN,
    REDIS_URL: redisUrl,
    LOGIN_MAX_ATTEMPTS: "3",
  }, name);
  return { name, ...started };
}

const call = callMain;
const running = (server: Server) => sessionsRunning(server, METRICS_TOKEN);

function holderOf(dir: string, whatsappId: number): string | undefined {
  const db = new Database(`${dir}/balcao.db`);
  try {
    db.exec("PRAGMA busy_timeout = 5000");
    const row = db.prepare("SELECT holder FROM whatsapp_leases WHERE whatsappId = ?").raw(true)
      .get(whatsappId) as [string] | undefined;
    return row?.[0];
  } finally {
    db.close();
  }
}

const until = (check: () => Promise<boolean> | boolean, what: string) =>
  eventually(check, { timeoutMs: BOUND_MS, what });

const wsOf = (server: Server) => server.url.replace("http", "ws");

async function login(server: Server, email: string, password: string): Promise<string> {
  const res = await call(server, "POST", "/api/auth/login", undefined, { email, password });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.token;
}

/** A socket that follows the bell (notification room), as the shell does. */
async function listener(server: Server, token: string): Promise<TestSocket> {
  const socket = await TestSocket.connect(wsOf(server), token);
  socket.send("joinNotification");
  await socket.settle();
  return socket;
}

const saysBody = (body: string) => (e: SocketEvent) =>
  e.event.endsWith("-appMessage") &&
  (e.data as { message?: { body?: string } }).message?.body === body;

Deno.test("redis - two processes: events cross with visibility, commands reach the holder, a killed process's connection moves, a Redis restart costs no 5xx and tells sockets to reload", async () => {
  const dir = await Deno.makeTempDir({ prefix: "balcao-redis-" });
  const redis = await startRedis();
  const servers: Server[] = [];
  const sockets: TestSocket[] = [];
  try {
    const a = await startServer("A", dir, redis.url);
    servers.push(a);
    const b = await startServer("B", dir, redis.url);
    servers.push(b);
    const admin = await login(a, ADMIN.email, ADMIN.password);
    const queue = async (name: string, color: string) => {
      const res = await call(a, "POST", "/api/queue", admin, { name, color });
      assert.equal(res.status, 200 <= res.status && res.status < 300 ? res.status : 201);
      return res.body.id as number;
    };
    const sales = await queue("Vendas", "#F44336");
    const support = await queue("Suporte", "#2196F3");
    const ids = new Map<string, number>();
    const user = async (name: string, queueIds: number[]) => {
      const email = `${name}@redis.test`;
      const res = await call(a, "POST", "/api/users", admin, {
        name,
        email,
        password: "secret1",
        profile: "user",
        queueIds,
      });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      ids.set(name, res.body.id);
      return await login(b, email, "secret1");
    };
    const seller = await user("seller", [sales]);
    const helper = await user("helper", [support]);
    const leaver = await user("leaver", [sales]);

    // A connection of the sales queue, made through A: A takes its lease and runs it.
    const created = await call(a, "POST", "/api/whatsapp", admin, {
      name: "W1",
      provider: "simulator",
      queueIds: [sales],
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const id = created.body.id as number;
    let scan = await call(a, "POST", `/api/simulator/${id}/scan`, admin);
    await until(async () => {
      if (scan.status !== 409) return true;
      scan = await call(a, "POST", `/api/simulator/${id}/scan`, admin);
      return false;
    }, "A runs W1");
    assert.equal(scan.status, 200, JSON.stringify(scan.body));
    assert.equal(holderOf(dir, id), "A");

    // Sockets on B: the seller (sales queue), the helper (support queue), the admin.
    const sellerOnB = await listener(b, seller);
    const helperOnB = await listener(b, helper);
    const adminOnB = await listener(b, admin);
    const adminOnA = await listener(a, admin);
    sockets.push(sellerOnB, helperOnB, adminOnB, adminOnA);

    // A phone message to A's connection reaches B's sockets that may see the ticket, only them.
    const say = (server: Server, body: string) =>
      call(server, "POST", `/api/simulator/${id}/messages`, admin, {
        from: "5511955554444",
        body,
      });
    const first = await say(a, "oi, quero comprar");
    assert.equal(first.status, 201, JSON.stringify(first.body));
    await sellerOnB.next(saysBody("oi, quero comprar"));
    await adminOnB.next(saysBody("oi, quero comprar"));
    await adminOnA.next(saysBody("oi, quero comprar"));
    // The helper's socket got the same Redis message in the same delivery: settled, it heard none.
    await helperOnB.settle();
    assert.equal(helperOnB.events.filter(saysBody("oi, quero comprar")).length, 0);
    assert.equal(helperOnB.named(`company-1-ticket`).length, 0);

    // A user deleted through A: their socket on B is closed (member changes cross too).
    const leaverOnB = await listener(b, leaver);
    sockets.push(leaverOnB);
    assert.equal((await call(a, "DELETE", `/api/users/${ids.get("leaver")}`, admin)).status, 204);
    assert.equal((await leaverOnB.closed).code, 4001, "closed by the server for the deletion");

    // 'New QR' asked of B reaches A's session: A restarts it and B answers with A's result.
    const fresh = await call(b, "PUT", `/api/whatsappsession/${id}`, admin);
    assert.equal(fresh.status, 200, JSON.stringify(fresh.body));
    assert.equal(fresh.body.whatsapp.status, "qrcode");
    assert.match(fresh.body.whatsapp.qrcode, /^data:image\/png;base64,/);
    assert.equal(holderOf(dir, id), "A", "the connection stayed with A");
    await adminOnB.next((e) =>
      e.event.endsWith("-whatsappSession") &&
      (e.data as { session: { status: string } }).session.status === "qrcode"
    );
    // The QR shows in A's session: scanning it there links the connection again.
    const rescanned = await call(a, "POST", `/api/simulator/${id}/scan`, admin);
    assert.equal(rescanned.status, 200, JSON.stringify(rescanned.body));

    // Failed logins count for the deployment: three through A and B together, the fourth (on
    // either) is refused; each process counting alone would allow six.
    const wrong = { email: "seller@redis.test", password: "wrong-password" };
    for (const server of [a, b, a]) {
      const failed = await call(server, "POST", "/api/auth/login", undefined, wrong);
      assert.equal(
        failed.status,
        401,
        `failed login on ${server.name}: ${JSON.stringify(failed.body)}`,
      );
    }
    const refused = await call(b, "POST", "/api/auth/login", undefined, wrong);
    assert.equal(refused.status, 429);
    assert.equal(refused.body.error, "ERR_RATE_LIMITED");

    // A dies without a goodbye: B takes the connection over, and B's sockets keep hearing.
    a.child.kill("SIGKILL");
    await a.child.status;
    await until(
      async () => holderOf(dir, id) === "B" && await running(b) === 1,
      "B runs W1 after A's death",
    );
    // A's browsers lost their socket; they connect again through the balancer, to B.
    await adminOnA.closed;
    const adminMoved = await listener(b, admin);
    sockets.push(adminMoved);
    assert.equal((await say(b, "depois da queda")).status, 201);
    await sellerOnB.next(saysBody("depois da queda"));
    await adminMoved.next(saysBody("depois da queda"));
    await helperOnB.settle();
    assert.equal(helperOnB.events.filter(saysBody("depois da queda")).length, 0);

    // Redis restarts while messages keep coming: HTTP answers without a 5xx throughout, and
    // B's sockets are told to read their lists again (what was published meanwhile is lost).
    const statuses: number[] = [];
    let n = 0;
    let traffic = true;
    const load = (async () => {
      while (traffic) statuses.push((await say(b, `durante ${n++}`)).status);
    })();
    await until(() => statuses.length >= 3, "traffic before the restart");
    await redis.restart();
    await sellerOnB.next((e) => e.event === "company-1-sync");
    await adminOnB.next((e) => e.event === "company-1-sync");
    const afterRestart = statuses.length;
    await until(() => statuses.length >= afterRestart + 3, "traffic after the restart");
    traffic = false;
    await load;
    assert.deepEqual(statuses.filter((s) => s >= 500), [], "no 5xx while Redis restarted");
    assert.ok(statuses.every((s) => s === 201), `every message accepted: ${statuses}`);
    // Through Redis again: a new message reaches B's seller.
    assert.equal((await say(b, "redis de volta")).status, 201);
    await sellerOnB.next(saysBody("redis de volta"));

    b.child.kill("SIGTERM");
    assert.equal((await b.child.status).code, 0);
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
    await redis.stop();
    await Deno.remove(dir, { recursive: true });
  }
});
