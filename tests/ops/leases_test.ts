import assert from "node:assert/strict";
import Database from "libsql";
import { callMain, sessionsRunning, startMain } from "../helpers/main_process.ts";
import { eventually } from "../helpers/eventually.ts";

/**
 * Two real server processes (main.ts) on one database with SESSION_LEASE_SECONDS: each
 * connection's WhatsApp session runs in exactly one of them, and when one is killed (SIGKILL, no
 * goodbye) the other takes its connections over within a bound.
 */
const LEASE_SECONDS = 2;
/** Lease expiry plus a claim tick, with a wide margin for a loaded 2-core machine. */
const TAKEOVER_BOUND_MS = 30_000;
const ADMIN = { email: "root@lease.test", password: "root-password" };
const METRICS_TOKEN = "lease-metrics-token-0123";

type Server = { name: string; url: string; child: Deno.ChildProcess; output: string[] };

async function startServer(name: string, dir: string): Promise<Server> {
  const started = await startMain({
    DATA_DIR: dir,
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    BCRYPT_COST: "4",
    SESSION_LEASE_SECONDS: String(LEASE_SECONDS),
    INSTANCE_ID: name,
    METRICS_TOKEN,
  }, name);
  return { name, ...started };
}

const call = callMain;
const running = (server: Server) => sessionsRunning(server, METRICS_TOKEN);

type Lease = { holder: string; expiresAt: string; acquiredAt: string };

function leaseRows(dir: string): Map<number, Lease> {
  const db = new Database(`${dir}/balcao.db`);
  try {
    db.exec("PRAGMA busy_timeout = 5000");
    const rows = db.prepare("SELECT whatsappId, holder, expiresAt, acquiredAt FROM whatsapp_leases")
      .raw(true).all() as [number, string, string, string][];
    return new Map(rows.map(([id, holder, expiresAt, acquiredAt]) => [id, {
      holder,
      expiresAt,
      acquiredAt,
    }]));
  } finally {
    db.close();
  }
}

function holders(dir: string): Map<number, string> {
  return new Map([...leaseRows(dir)].map(([id, lease]) => [id, lease.holder]));
}

/** A fact that takes at most `ms` to come true (a lease's takeover: a bound, not a measurement). */
function until(check: () => Promise<boolean> | boolean, ms: number, what: string) {
  return eventually(check, { timeoutMs: ms, what });
}

/** A connection on `server` (it takes the lease, since it starts the session), scanned. */
async function connection(server: Server, token: string, name: string): Promise<number> {
  const created = await call(server, "POST", "/api/whatsapp", token, {
    name,
    provider: "simulator",
  });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  // The session starts in the background once the lease is taken: scan when it is up.
  let scan = await call(server, "POST", `/api/simulator/${created.body.id}/scan`, token);
  await until(
    async () => {
      if (scan.status !== 409 || scan.body.error !== "ERR_WAPP_NOT_INITIALIZED") return true;
      scan = await call(server, "POST", `/api/simulator/${created.body.id}/scan`, token);
      return false;
    },
    20_000,
    `session of ${name} started`,
  );
  assert.equal(scan.status, 200, JSON.stringify(scan.body));
  return created.body.id;
}

const say = (server: Server, token: string, id: number, body: string) =>
  call(server, "POST", `/api/simulator/${id}/messages`, token, { from: "5511955554444", body });

Deno.test("leases - two processes on one database share the connections: each session runs in exactly one; a killed process's move to the other, and come back shared when it returns", async () => {
  const dir = await Deno.makeTempDir({ prefix: "balcao-leases-" });
  const servers: Server[] = [];
  try {
    let a = await startServer("A", dir);
    servers.push(a);
    const b = await startServer("B", dir);
    servers.push(b);
    const byName = (name: string) => name === "A" ? a : b;
    // One database: a token issued by A is honoured by B.
    const token = (await call(a, "POST", "/api/auth/login", undefined, ADMIN)).body.token;
    const ids: number[] = [];
    for (const name of ["W1", "W2", "W3", "W4"]) ids.push(await connection(a, token, name));

    // A started all four; with two live processes each keeps a fair share of two.
    const split = async () => {
      const now = holders(dir);
      const onA = ids.filter((id) => now.get(id) === "A");
      const onB = ids.filter((id) => now.get(id) === "B");
      return onA.length === 2 && onB.length === 2 && await running(a) === 2 &&
        await running(b) === 2;
    };
    await until(split, TAKEOVER_BOUND_MS, "the connections are split two and two");
    const leases = holders(dir);
    // A session runs in one process only: the other has no provider for it.
    for (const id of ids) {
      const holder = byName(leases.get(id)!);
      const other = holder === a ? b : a;
      assert.equal((await say(holder, token, id, "oi")).status, 201);
      const elsewhere = await say(other, token, id, "oi");
      assert.equal(elsewhere.status, 409);
      assert.equal(elsewhere.body.error, "ERR_WAPP_NOT_INITIALIZED");
    }

    // A reply written through B (its API served the attendant) is sent by A, which runs the
    // connection: A's lease tick sends what other processes queued.
    const onA = ids.filter((id) => leases.get(id) === "A");
    const first = await say(a, token, onA[0], "preciso de ajuda");
    const ticketId = first.body.ticketId;
    assert.equal(
      (await call(b, "PUT", `/api/tickets/${ticketId}`, token, { action: "accept" })).status,
      200,
    );
    const reply = await call(b, "POST", `/api/messages/${ticketId}`, token, {
      body: "resposta via B",
    });
    assert.equal(reply.status, 201, JSON.stringify(reply.body));
    await until(
      async () => {
        const sent = await call(a, "GET", `/api/simulator/${onA[0]}/sent`, token);
        return sent.body.sent.some((m: { body: string }) => m.body.endsWith("resposta via B"));
      },
      TAKEOVER_BOUND_MS,
      "A sends the reply queued through B",
    );

    // Renewals keep them where they are: every lease outlives the expiry it had, renewed by its
    // holder (a lease taken again, by anyone, would have a new acquiredAt).
    const taken = leaseRows(dir);
    const lastExpiry = [...taken.values()].map((l) => l.expiresAt).sort().at(-1)!;
    await until(
      () => [...leaseRows(dir).values()].every((l) => l.expiresAt > lastExpiry),
      TAKEOVER_BOUND_MS,
      "every lease renewed past its expiry",
    );
    const renewed = leaseRows(dir);
    assert.deepEqual(holders(dir), leases);
    for (const [id, lease] of taken) {
      assert.equal(
        renewed.get(id)?.acquiredAt,
        lease.acquiredAt,
        `lease ${id} never changed hands`,
      );
    }

    a.child.kill("SIGKILL");
    await a.child.status;
    const killedAt = Date.now();
    await until(
      async () => {
        const now = holders(dir);
        return ids.every((id) => now.get(id) === "B") && await running(b) === 4;
      },
      TAKEOVER_BOUND_MS,
      "B runs A's connections",
    );
    const tookMs = Date.now() - killedAt;
    for (const id of ids) {
      const sent = await say(b, token, id, "depois");
      assert.equal(sent.status, 201, JSON.stringify(sent.body));
    }

    // A comes back: B hands two over, and they are shared again.
    a = await startServer("A", dir);
    servers.push(a);
    const backAt = Date.now();
    await until(split, TAKEOVER_BOUND_MS, "shared again after A returns");
    // deno-lint-ignore no-console
    console.log(
      `lease ${LEASE_SECONDS} s: takeover after SIGKILL ${tookMs} ms, ` +
        `shared again ${Date.now() - backAt} ms after A returned`,
    );

    // A graceful stop hands its leases back at once; B takes them over.
    a.child.kill("SIGTERM");
    assert.equal((await a.child.status).code, 0);
    await until(
      async () => await running(b) === 4,
      TAKEOVER_BOUND_MS,
      "B runs everything after A's stop",
    );
    b.child.kill("SIGTERM");
    assert.equal((await b.child.status).code, 0);
    assert.equal(holders(dir).size, 0);
  } finally {
    for (const server of servers) {
      try {
        server.child.kill("SIGKILL");
      } catch {
        // already gone
      }
      await server.child.status;
    }
    await Deno.remove(dir, { recursive: true });
  }
});
