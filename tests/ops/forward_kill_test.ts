import assert from "node:assert/strict";
import Database from "libsql";
import { type MainProcess, startMain } from "../helpers/main_process.ts";
import { eventually } from "../helpers/eventually.ts";

/**
 * Issue 28: a real server process (main.ts) killed (SIGKILL, no goodbye) while it sends a
 * 50-message forward; started again on the same data, every message reaches the phone exactly
 * once. The forward is queued in one transaction (server/messages/forward.ts); the outbox sends
 * each row under the WhatsApp id chosen when it was queued, so a row interrupted mid-send is
 * sent again under the same id, which the simulator (like WhatsApp) recognises
 * (simulator_sent_wid): nothing lost, nothing doubled.
 */
const ADMIN = { email: "root@forward.test", password: "root-password" };
const COUNT = 50;
const ANA = "5511966665555";
const BOUND_MS = 60_000;

function start(dir: string): Promise<MainProcess> {
  return startMain({
    DATA_DIR: dir,
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    BCRYPT_COST: "4",
  }, "forward-kill");
}

async function call(
  server: MainProcess,
  method: string,
  path: string,
  token?: string,
  body?: unknown,
) {
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

/** Reads the database file beside the running process (its own connection, read only). */
function query<T>(dir: string, sql: string, ...params: unknown[]): T[] {
  const db = new Database(`${dir}/balcao.db`);
  try {
    db.exec("PRAGMA busy_timeout = 5000");
    return db.prepare(sql).all(...params) as T[];
  } finally {
    db.close();
  }
}

const sentToAna = (dir: string) =>
  query<{ wid: string; body: string; forwarded: number }>(
    dir,
    "SELECT wid, body, forwarded FROM simulator_sent WHERE toJid = ? ORDER BY id",
    `${ANA}@s.whatsapp.net`,
  );

Deno.test("forward - SIGKILL during a 50-message forward: after the restart each message reached the phone exactly once", async () => {
  const dir = await Deno.makeTempDir({ prefix: "balcao-forward-kill-" });
  let server: MainProcess | undefined;
  try {
    server = await start(dir);
    const token = (await call(server, "POST", "/api/auth/login", undefined, ADMIN)).body.token;
    const created = await call(server, "POST", "/api/whatsapp", token, {
      name: "Simulador",
      provider: "simulator",
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const whatsappId = created.body.id;
    // The session starts in the background: scan once it is up.
    await eventually(async () => {
      const scan = await call(server!, "POST", `/api/simulator/${whatsappId}/scan`, token);
      return scan.status === 200;
    }, { timeoutMs: BOUND_MS, what: "the simulator session started and scanned" });

    let ticketId = 0;
    for (let i = 1; i <= COUNT; i++) {
      const said = await call(server, "POST", `/api/simulator/${whatsappId}/messages`, token, {
        from: "5511988887777",
        name: "Maria",
        body: `mensagem ${i}`,
      });
      assert.equal(said.status, 201, JSON.stringify(said.body));
      ticketId = said.body.ticketId;
    }
    assert.equal(
      (await call(server, "PUT", `/api/tickets/${ticketId}`, token, { action: "accept" })).status,
      200,
    );
    const ana = await call(server, "POST", "/api/contacts", token, { name: "Ana", number: ANA });
    assert.equal(ana.status, 201, JSON.stringify(ana.body));
    const messageIds = query<{ id: number }>(
      dir,
      "SELECT id FROM messages WHERE ticketId = ? AND fromMe = 0 ORDER BY id",
      ticketId,
    ).map((m) => m.id);
    assert.equal(messageIds.length, COUNT);

    const forwarded = await call(server, "POST", "/api/messages/forward", token, {
      messageIds,
      contactIds: [ana.body.id],
    });
    assert.equal(forwarded.status, 200, JSON.stringify(forwarded.body));
    assert.equal(forwarded.body.results[0].messages.length, COUNT);
    // Killed as soon as the phone has the first one, while the rest are being sent.
    await eventually(() => sentToAna(dir).length > 0, {
      timeoutMs: BOUND_MS,
      what: "the first forwarded message reached the phone",
    });
    server.child.kill("SIGKILL");
    await server.child.status;
    const atKill = sentToAna(dir).length;
    const unsent = query<{ n: number }>(
      dir,
      "SELECT count(*) AS n FROM outbox WHERE forwarded = 1 AND status <> 'sent'",
    )[0].n;
    // A figure for the report: where the kill fell.
    // deno-lint-ignore no-console
    console.log(`killed with ${atKill} of ${COUNT} on the phone, ${unsent} outbox rows unsent`);
    assert.ok(unsent > 0, "killed while the forward was still being sent");

    server = await start(dir);
    const phone = await eventually(() => {
      const rows = sentToAna(dir);
      return rows.length >= COUNT ? rows : undefined;
    }, { timeoutMs: BOUND_MS, what: "every forwarded message on the phone after the restart" });
    await eventually(
      () =>
        query<{ n: number }>(
          dir,
          "SELECT count(*) AS n FROM outbox WHERE forwarded = 1 AND status <> 'sent'",
        )[0].n === 0,
      { timeoutMs: BOUND_MS, what: "every outbox row marked sent" },
    );
    // Exactly once each, in the conversation's order, marked forwarded.
    const final = sentToAna(dir);
    assert.equal(final.length, COUNT, "nothing doubled");
    assert.equal(new Set(final.map((m) => m.wid)).size, COUNT);
    assert.deepEqual(
      phone.map((m) => m.body),
      Array.from({ length: COUNT }, (_, i) => `mensagem ${i + 1}`),
    );
    assert.ok(final.every((m) => m.forwarded === 1));
    const stored = query<{ n: number }>(
      dir,
      "SELECT count(*) AS n FROM messages WHERE isForwarded = 1 AND fromMe = 1 AND ack >= 1",
    )[0].n;
    assert.equal(stored, COUNT, "every forwarded message stored once and sent");
  } finally {
    if (server) {
      try {
        server.child.kill("SIGKILL");
      } catch {
        // already gone
      }
      await server.child.status;
    }
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
});
