import assert from "node:assert/strict";
import Database from "libsql";
import { callMain as call, type MainProcess, startMain } from "../helpers/main_process.ts";
import { eventually } from "../helpers/eventually.ts";
import { WebhookReceiver } from "../fakes/webhook_receiver.ts";

/**
 * Issue 43 item 2(c): a real server process (main.ts) dies (SIGKILL, at CRASH_AFTER_COMMIT: right
 * after the commit of a new contact, before any listener ran). The contact's webhook is delivered
 * after the restart, once, under the id of the note written with the contact
 * (server/events/outgoing.ts): the event was not lost with the process's memory.
 */
const ADMIN = { email: "root@outgoing.test", password: "root-password" };
const BOUND_MS = 60_000;

function start(dir: string, env: Record<string, string> = {}): Promise<MainProcess> {
  return startMain({
    DATA_DIR: dir,
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    BCRYPT_COST: "4",
    INTEGRATIONS_ALLOW_PRIVATE_URLS: "true",
    ...env,
  }, "outgoing-kill");
}

function query<T>(dir: string, sql: string, ...params: unknown[]): T[] {
  const db = new Database(`${dir}/balcao.db`);
  try {
    db.exec("PRAGMA busy_timeout = 5000");
    return db.prepare(sql).all(...params) as T[];
  } finally {
    db.close();
  }
}

Deno.test("outgoing - SIGKILL right after a contact's commit: its webhook is delivered once after the restart", async () => {
  const dir = await Deno.makeTempDir({ prefix: "balcao-outgoing-kill-" });
  const receiver = new WebhookReceiver();
  let server: MainProcess | undefined;
  try {
    server = await start(dir, { CRASH_AFTER_COMMIT: "contact.created" });
    const token = (await call(server, "POST", "/api/auth/login", undefined, ADMIN)).body.token;
    const hook = await call(server, "POST", "/api/webhooks", token, {
      name: "ERP",
      url: receiver.url,
      events: ["contact.created"],
    });
    assert.equal(hook.status, 201, JSON.stringify(hook.body));
    receiver.secret = hook.body.secret;
    const made = call(server, "POST", "/api/contacts", token, {
      name: "Cliente Perdido",
      number: "5511955550000",
    });
    await assert.rejects(made, "the process died before answering");
    const status = await server.child.status;
    assert.equal(status.signal, "SIGKILL");
    const contacts = query<{ id: number }>(
      dir,
      "SELECT id FROM contacts WHERE name = ?",
      "Cliente Perdido",
    );
    assert.equal(contacts.length, 1, "the contact was committed");
    assert.equal(query<{ n: number }>(dir, "SELECT count(*) AS n FROM webhook_deliveries")[0].n, 0);
    const [note] = query<{ eventKey: string; capturedAt: string | null }>(
      dir,
      "SELECT eventKey, capturedAt FROM outgoing_events WHERE event = 'contact.created'",
    );
    assert.equal(note.capturedAt, null, "the note is open: nobody queued the event");

    server = await start(dir, { OUTGOING_GRACE_MS: "0" });
    const [delivered] = await eventually(() => {
      const accepted = receiver.accepted();
      return accepted.length > 0 ? accepted : undefined;
    }, { timeoutMs: BOUND_MS, what: "the contact's webhook delivered after the restart" });
    assert.equal(delivered.eventId, note.eventKey);
    assert.equal(delivered.body.event, "contact.created");
    assert.equal((delivered.body.data.contact as { id: number }).id, contacts[0].id);
    assert.ok(delivered.signatureValid);
    await eventually(
      () =>
        query<{ n: number }>(
          dir,
          "SELECT count(*) AS n FROM outgoing_events WHERE capturedAt IS NULL",
        )[0]
          .n === 0,
      { timeoutMs: BOUND_MS, what: "the note closed" },
    );
    // Once: one queue row, one request (another tick finds the note closed).
    assert.equal(query<{ n: number }>(dir, "SELECT count(*) AS n FROM webhook_deliveries")[0].n, 1);
    assert.equal(receiver.received.length, 1);
  } finally {
    if (server) {
      try {
        server.child.kill("SIGKILL");
      } catch {
        // already gone
      }
      await server.child.status;
    }
    await receiver.close();
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
});
