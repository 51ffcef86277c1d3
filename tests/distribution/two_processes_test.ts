import assert from "node:assert/strict";
import Database from "libsql";
import { startMain } from "../helpers/main_process.ts";
import { eventually } from "../helpers/eventually.ts";
import { TestSocket } from "../helpers/server.ts";

/**
 * Issue 26's concurrency check with two real server processes (main.ts) on one database, in the
 * session-lease mode: 55 tickets arrive at once, half through each process, for 5 attendants of
 * capacity 10 whose sockets are open on one process or the other. Each process hears its own
 * tickets and gives them out; only the guarded UPDATE (server/distribution/repository.ts
 * giveTicket) keeps them apart. Nobody may hold 11, and nobody free may be left without work.
 */
const ADMIN = { email: "root@dist.test", password: "root-password" };
const ATTENDANTS = 5;
const CAPACITY = 10;
const TICKETS = 55;

type Server = { url: string; child: Deno.ChildProcess; output: string[] };

async function call(server: Server, method: string, path: string, token?: string, body?: unknown) {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body ? { "content-type": "application/json" } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

function heldPerUser(dir: string, ids: number[]): { held: Map<number, number>; waiting: number } {
  const db = new Database(`${dir}/balcao.db`);
  try {
    db.exec("PRAGMA busy_timeout = 5000");
    const rows = db.prepare(
      `SELECT userId, status FROM tickets WHERE id IN (${ids.join(",")})`,
    ).raw(true).all() as [number | null, string][];
    const held = new Map<number, number>();
    let waiting = 0;
    for (const [userId, status] of rows) {
      if (userId === null) {
        if (status === "pending") waiting++;
      } else held.set(userId, (held.get(userId) ?? 0) + 1);
    }
    return { held, waiting };
  } finally {
    db.close();
  }
}

Deno.test("distribution - two processes, 55 tickets at once, 5 attendants of capacity 10: exactly 10 each, never 11", async () => {
  const dir = await Deno.makeTempDir({ prefix: "balcao-dist-" });
  const servers: Server[] = [];
  const sockets: TestSocket[] = [];
  try {
    const env = (name: string) => ({
      DATA_DIR: dir,
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      BCRYPT_COST: "4",
      SESSION_LEASE_SECONDS: "5",
      INSTANCE_ID: name,
    });
    const a = await startMain(env("A"), "A");
    servers.push(a);
    const b = await startMain(env("B"), "B");
    servers.push(b);
    const token = (await call(a, "POST", "/api/auth/login", undefined, ADMIN)).body.token;
    const queue = await call(a, "POST", "/api/queue", token, {
      name: "Suporte",
      color: "#0EA5E9",
      schedules: [],
      distribution: "least_busy",
    });
    assert.equal(queue.status, 201, JSON.stringify(queue.body));
    const conn = await call(a, "POST", "/api/whatsapp", token, {
      name: "Principal",
      provider: "simulator",
      isDefault: true,
    });
    assert.equal(conn.status, 201, JSON.stringify(conn.body));
    const attendants: number[] = [];
    for (let i = 0; i < ATTENDANTS; i++) {
      const email = `att${i}@dist.test`;
      const made = await call(a, "POST", "/api/users", token, {
        name: `Atendente ${i}`,
        email,
        password: "password1",
        queueIds: [queue.body.id],
        maxOpenTickets: CAPACITY,
      });
      assert.equal(made.status, 201, JSON.stringify(made.body));
      attendants.push(made.body.id);
      const server = i % 2 === 0 ? a : b;
      const login = await call(server, "POST", "/api/auth/login", undefined, {
        email,
        password: "password1",
      });
      sockets.push(await TestSocket.connect(server.url.replace("http", "ws"), login.body.token));
    }
    const contacts: number[] = [];
    for (let i = 0; i < TICKETS; i++) {
      const made = await call(a, "POST", "/api/contacts", token, {
        name: `Cliente ${i}`,
        number: `55119${String(i).padStart(8, "0")}`,
      });
      assert.equal(made.status, 201, JSON.stringify(made.body));
      contacts.push(made.body.id);
    }
    // Every attendant is online (users.online written by the process holding their socket).
    const db = () => new Database(`${dir}/balcao.db`);
    await eventually(() => {
      const conn = db();
      try {
        const row = conn.prepare(
          `SELECT COUNT(*) FROM users WHERE online = 1 AND id IN (${attendants.join(",")})`,
        ).raw(true).get() as [number];
        return row[0] === ATTENDANTS;
      } finally {
        conn.close();
      }
    }, { what: "attendants online" });

    const created = await Promise.all(
      contacts.map((contactId, i) =>
        call(i % 2 === 0 ? a : b, "POST", "/api/tickets", token, {
          contactId,
          queueId: queue.body.id,
          status: "pending",
        })
      ),
    );
    for (const res of created) assert.equal(res.status, 201, JSON.stringify(res.body));
    const ids = created.map((res) => res.body.id as number);
    const done = await eventually(() => {
      const now = heldPerUser(dir, ids);
      const given = [...now.held.values()].reduce((sum, n) => sum + n, 0);
      return given === ATTENDANTS * CAPACITY && now;
    }, { what: `${ATTENDANTS * CAPACITY} tickets given` });
    assert.deepEqual([...done.held.keys()].sort(), [...attendants].sort());
    assert.deepEqual([...done.held.values()], Array(ATTENDANTS).fill(CAPACITY));
    assert.equal(done.waiting, TICKETS - ATTENDANTS * CAPACITY);
  } finally {
    for (const socket of sockets) await socket.close();
    for (const server of servers) {
      server.child.kill("SIGTERM");
      await server.child.status;
    }
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
});
