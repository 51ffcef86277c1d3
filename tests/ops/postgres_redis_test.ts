import assert from "node:assert/strict";
import { callMain, sessionsRunning, startMain } from "../helpers/main_process.ts";
import { eventually } from "../helpers/eventually.ts";
import { testCluster, testPostgresDatabase } from "../helpers/engine.ts";
import { startRedis } from "../helpers/redis_server.ts";
import { TestSocket } from "../helpers/server.ts";

/**
 * Issue 46 item 5, two machines simulated: two real server processes (main.ts) on one PostgreSQL
 * database and one Redis, each with a DATA_DIR of its own (nothing of the database is shared
 * through a folder); their media go to one shared folder (MEDIA_DIR, as docs/scaling.md says to
 * mount it), so a file received or sent through one is downloaded through the other.
 * Distribution's capacity guard holds while both give tickets at once; one
 * process is SIGKILLed while the other keeps serving and takes its WhatsApp connection over; then
 * PostgreSQL restarts under traffic. Every message the server acknowledged (201) is stored once,
 * none twice; 5xx answers only while PostgreSQL is down.
 */
const ADMIN = { email: "root@pgredis.test", password: "root-password" };
const METRICS_TOKEN = "pg-redis-metrics-token-01";
const LEASE_SECONDS = 4;
const CAPACITY = 5;
const TICKETS = 12;
const BOUND_MS = 30_000;

type Server = { name: string; url: string; child: Deno.ChildProcess; output: string[] };

const until = (check: () => Promise<unknown> | unknown, what: string) =>
  eventually(check, { timeoutMs: BOUND_MS, what });

Deno.test("postgres + redis - two processes, own data folders, one media folder: media through either; the capacity guard under a race; one killed, the other serves and takes over; a PostgreSQL restart loses and doubles no acknowledged message", async () => {
  const url = await testPostgresDatabase();
  const database = new URL(url).pathname.slice(1);
  const pg = await testCluster();
  const query = async (text: string) => (await pg.psql(database, text)).trim();
  const redis = await startRedis();
  const dirs: string[] = [];
  const mediaDir = await Deno.makeTempDir({ prefix: "balcao-pg-redis-media-" });
  dirs.push(mediaDir);
  const servers: Server[] = [];
  const sockets: TestSocket[] = [];
  const start = async (name: string) => {
    const dir = await Deno.makeTempDir({ prefix: `balcao-pg-redis-${name}-` });
    dirs.push(dir);
    const server = {
      name,
      ...await startMain({
        DATA_DIR: dir,
        MEDIA_DIR: mediaDir,
        DATABASE_URL: url,
        REDIS_URL: redis.url,
        ADMIN_EMAIL: ADMIN.email,
        ADMIN_PASSWORD: ADMIN.password,
        BCRYPT_COST: "4",
        SESSION_LEASE_SECONDS: String(LEASE_SECONDS),
        INSTANCE_ID: name,
        METRICS_TOKEN,
      }, name),
    };
    servers.push(server);
    return server;
  };
  /** The processes' error lines, for a failure's message. */
  const errors = () =>
    "\n" + servers.flatMap((s) => s.output.filter((l) => l.includes('"error"'))).join("\n");
  try {
    const a = await start("A");
    const b = await start("B");
    const admin = (await callMain(a, "POST", "/api/auth/login", undefined, ADMIN)).body.token;

    // A connection run by A (the default: tickets opened by hand go to it).
    const conn = await callMain(a, "POST", "/api/whatsapp", admin, {
      name: "W1",
      provider: "simulator",
      isDefault: true,
    });
    assert.equal(conn.status, 201, JSON.stringify(conn.body));
    const wid = conn.body.id as number;
    let scan = { status: 0, body: undefined as unknown };
    await until(async () => {
      scan = await callMain(a, "POST", `/api/simulator/${wid}/scan`, admin);
      return scan.status === 200;
    }, "A runs W1").catch((error) => {
      throw new Error(`${error.message}: ${scan.status} ${JSON.stringify(scan.body)}${errors()}`);
    });

    // --- Media on the shared folder: received through A (it runs W1), downloaded through B; sent
    // through B, delivered by A's outbox (which reads the file) and downloaded through A.
    const photo = new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10, 4, 6]);
    const received = await callMain(a, "POST", `/api/simulator/${wid}/messages`, admin, {
      from: "5511977776666",
      media: { base64: btoa(String.fromCharCode(...photo)), mimetype: "image/png" },
    });
    assert.equal(received.status, 201, JSON.stringify(received.body));
    const download = async (server: Server, messageId: number) => {
      const res = await fetch(`${server.url}/api/messages/${messageId}/media`, {
        headers: { authorization: `Bearer ${admin}` },
      });
      const bytes = new Uint8Array(await res.arrayBuffer());
      return { status: res.status, bytes };
    };
    assert.deepEqual(await download(b, received.body.id), { status: 200, bytes: photo });
    const mediaTicket = received.body.ticketId as number;
    const accepted = await callMain(b, "PUT", `/api/tickets/${mediaTicket}`, admin, {
      action: "accept",
    });
    assert.equal(accepted.status, 200, JSON.stringify(accepted.body));
    const form = new FormData();
    const table = new TextEncoder().encode("a,b\n1,2\n");
    form.append("medias", new File([table], "dados.csv", { type: "text/csv" }));
    const sentRes = await fetch(`${b.url}/api/messages/${mediaTicket}`, {
      method: "POST",
      headers: { authorization: `Bearer ${admin}` },
      body: form,
    });
    const sentBody = await sentRes.json();
    assert.equal(sentRes.status, 201, JSON.stringify(sentBody));
    const outgoing = sentBody.messages[0].id as number;
    await until(
      async () => Number(await query(`SELECT ack FROM messages WHERE id = ${outgoing}`)) >= 1,
      "A's outbox delivered B's file",
    );
    assert.deepEqual(await download(a, outgoing), { status: 200, bytes: table });

    // --- The capacity guard: two attendants of capacity 5, 12 tickets through A and B at once.
    const queue = await callMain(a, "POST", "/api/queue", admin, {
      name: "Suporte",
      color: "#0EA5E9",
      schedules: [],
      distribution: "least_busy",
    });
    assert.equal(queue.status, 201, JSON.stringify(queue.body));
    const attendants: number[] = [];
    for (const [i, server] of [a, b].entries()) {
      const email = `att${i}@pgredis.test`;
      const made = await callMain(a, "POST", "/api/users", admin, {
        name: `Atendente ${i}`,
        email,
        password: "password1",
        queueIds: [queue.body.id],
        maxOpenTickets: CAPACITY,
      });
      assert.equal(made.status, 201, JSON.stringify(made.body));
      attendants.push(made.body.id);
      const login = await callMain(server, "POST", "/api/auth/login", undefined, {
        email,
        password: "password1",
      });
      sockets.push(await TestSocket.connect(server.url.replace("http", "ws"), login.body.token));
    }
    await until(
      async () =>
        await query(`SELECT count(*) FROM users WHERE online = 1 AND id IN (${attendants})`) ===
          "2",
      "attendants online",
    );
    const contacts: number[] = [];
    for (let i = 0; i < TICKETS; i++) {
      const made = await callMain(a, "POST", "/api/contacts", admin, {
        name: `Cliente ${i}`,
        number: `55119${String(i).padStart(8, "0")}`,
      });
      assert.equal(made.status, 201, JSON.stringify(made.body));
      contacts.push(made.body.id);
    }
    const created = await Promise.all(
      contacts.map((contactId, i) =>
        callMain(i % 2 === 0 ? a : b, "POST", "/api/tickets", admin, {
          contactId,
          queueId: queue.body.id,
          status: "pending",
        })
      ),
    );
    for (const res of created) {
      assert.equal(res.status, 201, `${JSON.stringify(res.body)}${errors()}`);
    }
    const ids = created.map((res) => res.body.id as number);
    const held = async () =>
      (await query(`SELECT "userId", count(*) FROM tickets WHERE id IN (${ids})
        AND "userId" IS NOT NULL GROUP BY 1 ORDER BY 1`)).split("\n").filter(Boolean);
    await until(async () => (await held()).length === 2, "both attendants given tickets");
    await until(
      async () =>
        await query(`SELECT count(*) FROM tickets WHERE id IN (${ids})
          AND "userId" IS NOT NULL`) === String(2 * CAPACITY),
      "every place taken",
    );
    assert.deepEqual(await held(), attendants.sort((x, y) => x - y).map((id) => `${id}|5`));
    assert.equal(
      await query(`SELECT count(*) FROM tickets WHERE id IN (${ids}) AND status = 'pending'`),
      String(TICKETS - 2 * CAPACITY),
    );

    // --- A is killed; B takes its connection over and serves its messages.
    const holder = () => query(`SELECT holder FROM whatsapp_leases WHERE "whatsappId" = ${wid}`);
    assert.equal(await holder(), "A");
    const say = (body: string) =>
      callMain(b, "POST", `/api/simulator/${wid}/messages`, admin, {
        from: "5511944443333",
        body,
      });
    assert.equal((await say("antes da queda")).status, 201);

    a.child.kill("SIGKILL");
    await a.child.status;
    await until(
      async () => await holder() === "B" && await sessionsRunning(b, METRICS_TOKEN) === 1,
      "B runs W1 after A's death",
    );

    // --- Traffic through B while PostgreSQL restarts.
    const sent: { body: string; status: number; phase: "before" | "during" | "after" }[] = [];
    let phase: "before" | "during" | "after" = "before";
    let traffic = true;
    let n = 0;
    const load = (async () => {
      while (traffic) {
        const body = `mensagem ${n++}`;
        const at = phase;
        const res = await say(body).catch(() => ({ status: 0 }));
        // A request that began before the restart may end during it: it counts as "during".
        sent.push({ body, status: res.status, phase: at === phase ? at : "during" });
      }
    })();
    await until(() => sent.length >= 3, "traffic before the restart");
    phase = "during";
    await pg.restart();
    phase = "after";
    const afterRestart = sent.length;
    await until(
      () => sent.slice(afterRestart).filter((s) => s.status === 201).length >= 3,
      "traffic accepted after the restart",
    );
    traffic = false;
    await load;

    const outside = sent.filter((s) => s.phase !== "during");
    assert.deepEqual(
      outside.filter((s) => s.status >= 500 || s.status === 0),
      [],
      "no 5xx outside the restart",
    );
    // After the first acknowledged message past the restart, every one is acknowledged.
    const back = sent.findIndex((s, i) => i >= afterRestart && s.status === 201);
    assert.deepEqual(sent.slice(back).filter((s) => s.status !== 201), []);

    const stored = new Map(
      (await query(`SELECT body, count(*) FROM messages WHERE "whatsappId" = ${wid}
        GROUP BY body`)).split("\n").filter(Boolean).map((line) => {
        const [body, count] = line.split("|");
        return [body, Number(count)];
      }),
    );
    assert.equal(stored.get("antes da queda"), 1);
    for (const s of sent) {
      if (s.status === 201) assert.equal(stored.get(s.body), 1, `acknowledged once: ${s.body}`);
      else assert.ok((stored.get(s.body) ?? 0) <= 1, `not doubled: ${s.body}`);
    }

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
    for (const dir of dirs) await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
});
