import assert from "node:assert/strict";
import { createCompany, restartTestApp, type TestApp, withApp } from "../helpers/app.ts";
import { sockets, withServedApp } from "../helpers/admin_fixtures.ts";
import { fakeOpenAi } from "../fakes/openai.ts";
import { connectSimulator, phoneSends } from "../whatsapp/helpers.ts";
import { assistTick } from "../../server/assist/jobs.ts";
import { assistOn, suggestionsRefused, voiceNote } from "../helpers/assist.ts";
import { addTicket, scene } from "../helpers/tickets.ts";

/**
 * Issue 48 item 5: the service misbehaves (429, 5xx, too slow, the circuit opens, a wrong key,
 * the month's cap). The voice note stays as it was, the job tries again later (its state in the
 * database: a restart resumes), admins are told once, and the meter counts what the fake server
 * received.
 */
const KEY = "sk-assist-platform-888999000111";

async function job(t: TestApp, messageId: number) {
  return await t.deps.db.selectFrom("assist_jobs").selectAll()
    .where("kind", "=", "transcription").where("targetId", "=", messageId)
    .executeTakeFirstOrThrow();
}

Deno.test("assist - 429, 5xx and a slow answer: tried again later; the circuit opens; a restart resumes", async () => {
  const openai = fakeOpenAi({ apiKey: KEY });
  openai.state.transcript = "Pode mandar o boleto de novo, por favor?";
  try {
    let t = await (async () => {
      const { createTestApp } = await import("../helpers/app.ts");
      return await createTestApp({
        AI_BASE_URL: openai.baseUrl,
        AI_API_KEY: KEY,
        AI_TIMEOUT_MS: "1000",
      });
    })();
    try {
      const a = await createCompany(t, "Alpha");
      await assistOn(t, a);
      const wid = await connectSimulator(t, a);
      const first = await phoneSends(t, a.user.token, wid, {
        from: "5511977770010",
        media: voiceNote,
      });

      openai.state.failWith = [429];
      await assistTick(t.deps);
      let row = await job(t, first.id!);
      assert.deepEqual([row.status, row.attempts, row.error], [
        "pending",
        1,
        "limite de uso do serviço (429)",
      ]);
      // Not due yet: nothing called.
      assert.equal(await assistTick(t.deps), 0);
      t.clock.advance(31_000);
      openai.state.failWith = [503];
      await assistTick(t.deps);
      row = await job(t, first.id!);
      assert.deepEqual([row.attempts, row.error], [2, "serviço com erro (503)"]);

      t.clock.advance(61_000);
      openai.state.delayMs = 2500;
      await assistTick(t.deps);
      row = await job(t, first.id!);
      assert.deepEqual([row.status, row.attempts, row.error], [
        "pending",
        3,
        "o serviço demorou demais",
      ]);
      const message = await t.deps.db.selectFrom("messages").select(["transcript", "mediaUrl"])
        .where("id", "=", first.id!).executeTakeFirstOrThrow();
      assert.equal(message.transcript, null);
      assert.ok(message.mediaUrl);

      // Three failures in a row: the circuit is open; a new voice note's job makes no call.
      openai.state.delayMs = 0;
      const second = await phoneSends(t, a.user.token, wid, {
        from: "5511977770010",
        media: voiceNote,
      });
      const before = openai.calls.transcription;
      await assistTick(t.deps);
      assert.equal(openai.calls.transcription, before);
      row = await job(t, second.id!);
      assert.deepEqual([row.status, row.attempts, row.error], [
        "pending",
        0,
        "serviço indisponível (muitas falhas seguidas)",
      ]);

      // A restart: the jobs are rows; later, both are transcribed.
      t = await restartTestApp(t);
      t.clock.advance(121_000);
      assert.equal(await assistTick(t.deps), 2);
      const said = await t.deps.db.selectFrom("messages").select(["id", "transcript"])
        .where("id", "in", [first.id!, second.id!]).orderBy("id").execute();
      assert.deepEqual(said.map((m) => m.transcript), [
        "Pode mandar o boleto de novo, por favor?",
        "Pode mandar o boleto de novo, por favor?",
      ]);
      const usage = await t.deps.db.selectFrom("assist_usage").selectAll()
        .where("companyId", "=", a.id).executeTakeFirstOrThrow();
      assert.deepEqual([usage.calls, usage.failures], [openai.calls.transcription, 3]);
    } finally {
      await t.close();
    }
  } finally {
    await openai.close();
  }
});

Deno.test("assist - a wrong key: admins told once, the voice note says why; the key sealed, never answered", async () => {
  const openai = fakeOpenAi({ apiKey: KEY });
  try {
    await withApp(async (t) => {
      const a = await createCompany(t, "Alpha");
      await assistOn(t, a);
      const wrong = "sk-company-wrong-key-1234567890";
      for (const [key, value] of [["assistBaseUrl", openai.baseUrl], ["assistApiKey", wrong]]) {
        const res = await t.request("PUT", `/api/settings/${key}`, {
          token: a.admin.token,
          body: { value },
        });
        assert.equal(res.status, 200);
        assert.equal((await res.text()).includes(wrong), false);
      }
      const stored = await t.deps.db.selectFrom("settings").select("value")
        .where("companyId", "=", a.id).where("key", "=", "assistApiKey").executeTakeFirstOrThrow();
      assert.match(stored.value, /^v1:/);
      const listed = await (await t.request("GET", "/api/settings", { token: a.admin.token }))
        .json();
      assert.deepEqual(
        listed.find((s: { key: string }) => s.key === "assistApiKey").value,
        "••••••••7890",
      );
      const byUser = await (await t.request("GET", "/api/settings", { token: a.user.token }))
        .text();
      assert.equal(byUser.includes("assistApiKey"), false);

      const wid = await connectSimulator(t, a);
      await withServedApp(t, async (wsUrl) => {
        const [admin, user] = await sockets(wsUrl, a.admin.token, a.user.token);
        const notes = [];
        for (let i = 0; i < 2; i++) {
          notes.push(
            await phoneSends(t, a.user.token, wid, { from: "5511977770020", media: voiceNote }),
          );
        }
        await assistTick(t.deps);
        const told = await admin.next((e) => e.event === `company-${a.id}-settings`);
        assert.deepEqual(told.data, {
          action: "update",
          setting: { key: "assistNotice", value: "wrongKey" },
        });
        await admin.settle();
        assert.equal(admin.events.filter((e) => e.event === `company-${a.id}-settings`).length, 1);
        await user.settle();
        assert.equal(user.events.some((e) => e.event === `company-${a.id}-settings`), false);
        const rows = await t.deps.db.selectFrom("messages").select([
          "transcript",
          "transcriptError",
        ])
          .where("id", "in", notes.map((n) => n.id!)).execute();
        assert.deepEqual(rows, [
          { transcript: null, transcriptError: "chave de API recusada" },
          { transcript: null, transcriptError: "chave de API recusada" },
        ]);
        const usage = await (await t.request("GET", "/api/assist/usage", { token: a.admin.token }))
          .json();
        assert.equal(usage.notice, "wrongKey");
      });
    }, { AI_BASE_URL: "http://127.0.0.1:9/v1", INTEGRATIONS_ALLOW_PRIVATE_URLS: "true" });
  } finally {
    await openai.close();
  }
});

Deno.test("assist - the month's cap pauses the features and tells admins", async () => {
  const openai = fakeOpenAi({ apiKey: KEY });
  try {
    await withApp(async (t) => {
      const a = await createCompany(t, "Alpha");
      await assistOn(t, a, ["assistSuggestions", "assistTranscription"]);
      const cap = await t.request("PUT", "/api/settings/assistMonthlyCap", {
        token: a.admin.token,
        body: { value: "5" },
      });
      assert.equal(cap.status, 200);
      const bad = await t.request("PUT", "/api/settings/assistMonthlyCap", {
        token: a.admin.token,
        body: { value: "cinco" },
      });
      assert.equal(bad.status, 400);
      // Spent this month: US$ 5 of suggestions (the meter's own row).
      await t.deps.db.insertInto("assist_usage").values({
        companyId: a.id,
        month: t.clock.now().toISOString().slice(0, 7),
        feature: "suggestions",
        calls: 1000,
        costMicros: 5_000_000,
      }).execute();
      const s = await scene(t, a);
      const ticket = await addTicket(t, a.id, {
        contactId: s.contactId,
        status: "open",
        userId: a.user.id,
      });
      await suggestionsRefused(t, a.user.token, ticket.id, "ERR_ASSIST_PAUSED");
      const wid = await connectSimulator(t, a);
      const note = await phoneSends(t, a.user.token, wid, {
        from: "5511977770030",
        media: voiceNote,
      });
      await assistTick(t.deps);
      assert.deepEqual([(await job(t, note.id!)).status, (await job(t, note.id!)).error], [
        "skipped",
        "cap",
      ]);
      assert.equal(openai.calls.chat + openai.calls.transcription, 0);
      const usage = await (await t.request("GET", "/api/assist/usage", { token: a.admin.token }))
        .json();
      assert.deepEqual([usage.cap, usage.cost, usage.notice], [5, 5, "cap"]);
    }, { AI_BASE_URL: openai.baseUrl, AI_API_KEY: KEY });
  } finally {
    await openai.close();
  }
});
