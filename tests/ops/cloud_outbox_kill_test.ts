import assert from "node:assert/strict";
import {
  callMain as call,
  killMain,
  type MainProcess,
  queryDataDir as query,
  startMain,
} from "../helpers/main_process.ts";
import { eventually } from "../helpers/eventually.ts";
import { messagesPost, startFakeGraph } from "../fakes/graph.ts";
import { APP_SECRET, cloudBody } from "../whatsapp/cloud_helpers.ts";

/**
 * Issue 45 item 5: the outbox's exactly-once on the Cloud API, with real processes (main.ts)
 * killed (SIGKILL) against the fake Graph API:
 * - killed while Meta holds a send's answer (the request arrived, its id never read): the restart
 *   does not send it again (ERR_WHATSAPP_SEND_UNCERTAIN), and the status Meta posts for it
 *   (biz_opaque_callback_data = our id) gives the message Meta's id and its ack;
 * - killed right after a send's commit (CRASH_AFTER_COMMIT), a reaction in flight before it: the
 *   restart sends the message once and the reaction again (the same emoji: the same state).
 */
const ADMIN = { email: "root@cloud-kill.test", password: "root-password" };
const ANA = "5511988887777";
const BOUND_MS = 60_000;

Deno.test("cloud outbox - SIGKILL mid-send and after commit: each message reaches Meta once, a reaction is not lost", async () => {
  const dir = await Deno.makeTempDir({ prefix: "balcao-cloud-kill-" });
  const graph = startFakeGraph();
  let server: MainProcess | undefined;
  const start = (env: Record<string, string> = {}) =>
    startMain({
      DATA_DIR: dir,
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      BCRYPT_COST: "4",
      WHATSAPP_CLOUD_API_URL: graph.apiUrl,
      PUBLIC_URL: "https://balcao.example",
      ...env,
    }, "cloud-kill");
  const webhook = async (path: string, value: Parameters<typeof messagesPost>[1]) => {
    const signed = await graph.webhook(messagesPost(graph.phoneNumberId, value), APP_SECRET);
    const res = await fetch(`${server!.url}${path}`, {
      method: "POST",
      headers: signed.headers,
      body: signed.body,
    });
    assert.equal(res.status, 200, await res.text());
  };
  const sentTexts = (text: string) =>
    graph.sends().filter((b) => (b.text as { body?: string } | undefined)?.body === text);
  const message = (body: string) =>
    query<{ id: number; wid: string; ack: number; sendError: string | null }>(
      dir,
      "SELECT id, wid, ack, sendError FROM messages WHERE body = ? AND fromMe = 1",
      body,
    )[0];
  const releases: (() => void)[] = [];
  try {
    // 1. A connection, Ana's message (the window open), and a send whose answer Meta holds.
    server = await start();
    const token = (await call(server, "POST", "/api/auth/login", undefined, ADMIN)).body.token;
    const created = await call(server, "POST", "/api/whatsapp", token, cloudBody(graph));
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const whatsappId: number = created.body.id;
    const hookPath = new URL(created.body.cloud.webhookUrl).pathname;
    await eventually(async () => {
      const got = await call(server!, "GET", `/api/whatsapp/${whatsappId}`, token);
      return got.body.status === "CONNECTED";
    }, { timeoutMs: BOUND_MS, what: "the Cloud API connection CONNECTED" });
    const now = String(Math.floor(Date.now() / 1000));
    await webhook(hookPath, {
      contacts: [{ profile: { name: "Ana" }, wa_id: ANA }],
      messages: [{
        from: ANA,
        id: "wamid.IN1",
        timestamp: now,
        type: "text",
        text: { body: "Oi" },
      }],
    });
    const [ticket] = await eventually(() => {
      const rows = query<{ id: number }>(dir, "SELECT id FROM tickets");
      return rows.length ? rows : undefined;
    }, { timeoutMs: BOUND_MS, what: "Ana's ticket" });
    const ana = query<{ id: number }>(dir, "SELECT id FROM messages WHERE wid = 'wamid.IN1'")[0];
    assert.equal(
      (await call(server, "PUT", `/api/tickets/${ticket.id}`, token, { action: "accept" })).status,
      200,
    );
    releases.push(graph.holdSends());
    const first = await call(server, "POST", `/api/messages/${ticket.id}`, token, {
      body: "primeira",
    });
    assert.equal(first.status, 201, JSON.stringify(first.body));
    await eventually(() => sentTexts("primeira").length === 1, {
      timeoutMs: BOUND_MS,
      what: "the first send at Meta (its answer held)",
    });
    await killMain(server);
    const ourWid = message("primeira").wid;
    assert.equal(message("primeira").ack, 0, "killed before Meta's answer was read");
    assert.equal(sentTexts("primeira")[0].biz_opaque_callback_data, ourWid);

    // 2. The restart does not send it again; Meta's status for it names our id: it is adopted.
    server = await start({ CRASH_AFTER_COMMIT: "message.created" });
    await eventually(() => message("primeira").sendError === "ERR_WHATSAPP_SEND_UNCERTAIN", {
      timeoutMs: BOUND_MS,
      what: "the interrupted send known as uncertain, not sent twice",
    });
    await webhook(hookPath, {
      statuses: [{
        id: "wamid.LOST1",
        status: "delivered",
        timestamp: now,
        recipient_id: ANA,
        biz_opaque_callback_data: ourWid,
      }],
    });
    await eventually(() => {
      const m = message("primeira");
      return m.wid === "wamid.LOST1" && m.ack === 2 && m.sendError === null;
    }, { timeoutMs: BOUND_MS, what: "the message takes Meta's id and the delivered ack" });
    assert.equal(sentTexts("primeira").length, 1, "sent once");

    // 3. A reaction held at Meta, then a message killed right after its commit.
    const reacted = await call(server, "POST", `/api/messages/${ana.id}/reaction`, token, {
      emoji: "👍",
    });
    assert.equal(reacted.status, 200, JSON.stringify(reacted.body));
    assert.equal(reacted.body.ownReaction, "👍", "shown at once");
    await eventually(() => graph.sends().some((b) => b.type === "reaction"), {
      timeoutMs: BOUND_MS,
      what: "the reaction at Meta (its answer held)",
    });
    await assert.rejects(
      call(server, "POST", `/api/messages/${ticket.id}`, token, { body: "segunda" }),
      "the process died before answering",
    );
    assert.equal((await server.child.status).signal, "SIGKILL");
    assert.equal(message("segunda").ack, 0, "committed, not sent");
    assert.equal(sentTexts("segunda").length, 0);
    releases.pop()!();

    // 4. The restart sends what was left: the reaction again, the message once.
    server = await start();
    await eventually(() => message("segunda").ack >= 1, {
      timeoutMs: BOUND_MS,
      what: "the committed message sent after the restart",
    });
    await eventually(
      () =>
        query<{ n: number }>(
          dir,
          "SELECT count(*) AS n FROM outbox WHERE status NOT IN ('sent', 'failed')",
        )[0].n === 0,
      { timeoutMs: BOUND_MS, what: "the outbox empty" },
    );
    assert.equal(sentTexts("primeira").length, 1);
    assert.equal(sentTexts("segunda").length, 1, "nothing doubled");
    assert.match(message("segunda").wid, /^wamid\.FAKE/);
    const reactions = graph.sends().filter((b) => b.type === "reaction");
    assert.ok(reactions.length >= 1);
    for (const r of reactions) {
      assert.deepEqual(r.reaction, { message_id: "wamid.IN1", emoji: "👍" });
    }
    const [shown] = query<{ ownReaction: string | null }>(
      dir,
      "SELECT ownReaction FROM messages WHERE id = ?",
      ana.id,
    );
    assert.equal(shown.ownReaction, "👍");
    assert.deepEqual(
      query<{ status: string }>(dir, "SELECT status FROM outbox WHERE reaction IS NOT NULL"),
      [{ status: "sent" }],
    );
  } finally {
    for (const release of releases) release();
    await killMain(server);
    await graph.close();
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
});
