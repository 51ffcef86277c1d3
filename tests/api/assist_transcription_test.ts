import assert from "node:assert/strict";
import { createCompany, withApp } from "../helpers/app.ts";
import { sockets, withServedApp } from "../helpers/admin_fixtures.ts";
import { fakeOpenAi } from "../fakes/openai.ts";
import { connectSimulator, phoneSends } from "../whatsapp/helpers.ts";
import { assistTick } from "../../server/assist/jobs.ts";
import { assistOn, voiceNote } from "../helpers/assist.ts";

/**
 * Issue 48 item 1: a contact's voice note is transcribed by the job, after the message is
 * stored, against a fake OpenAI-compatible server: shown in message answers and socket events,
 * found by both searches, in the transcript export; metered and audited without its text; one
 * transcription per voice note (assist_jobs_once).
 */
const KEY = "sk-assist-platform-000111222333";
const SAID = "Não consigo ir amanhã; vocês abrem às nove da manhã? Obrigado, João.";

Deno.test("assist - a voice note's transcript: after the message, in answers, events, searches, export and meter", async () => {
  const openai = fakeOpenAi({ apiKey: KEY });
  openai.state.transcript = SAID;
  try {
    await withApp(async (t) => {
      const a = await createCompany(t, "Alpha");
      await assistOn(t, a);
      const wid = await connectSimulator(t, a);
      await withServedApp(t, async (wsUrl) => {
        const [sa] = await sockets(wsUrl, a.admin.token);
        const note = await phoneSends(t, a.user.token, wid, {
          from: "5511977770001",
          media: voiceNote,
        });
        assert.equal(note.status, 201);
        // Stored without waiting for the service: no call yet, the job queued by the trigger.
        assert.equal(openai.calls.transcription, 0);
        const jobs = await t.deps.db.selectFrom("assist_jobs").selectAll()
          .where("companyId", "=", a.id).execute();
        assert.deepEqual(jobs.map((j) => [j.kind, j.targetId, j.status]), [[
          "transcription",
          note.id,
          "pending",
        ]]);
        sa.send("joinChatBox", String(note.ticketId));
        await sa.settle();

        assert.equal(await assistTick(t.deps), 1);
        const heard = await sa.next((e) =>
          e.event === `company-${a.id}-appMessage` &&
          (e.data as { action: string }).action === "update"
        );
        assert.equal((heard.data as { message: { transcript: string } }).message.transcript, SAID);
        assert.equal(openai.transcriptions.length, 1);
        assert.equal(openai.transcriptions[0].model, "whisper-1");

        // A second tick (or the same message's job again) transcribes nothing more.
        assert.equal(await assistTick(t.deps), 0);
        await t.deps.db.insertInto("assist_jobs").values({
          companyId: a.id,
          kind: "transcription",
          targetId: note.id!,
          runAfter: t.clock.now().toISOString(),
          createdAt: t.clock.now().toISOString(),
          updatedAt: t.clock.now().toISOString(),
        }).onConflict((oc) => oc.doNothing()).execute();
        assert.equal(await assistTick(t.deps), 0);
        assert.equal(openai.calls.transcription, 1);

        const page = await (await t.request("GET", `/api/messages/${note.ticketId}`, {
          token: a.admin.token,
        })).json();
        const shown = page.messages.find((m: { id: number }) => m.id === note.id);
        assert.deepEqual([shown.transcript, shown.transcriptError], [SAID, null]);

        // Found by what was said, accents ignored: the conversation and the ticket list.
        const found =
          await (await t.request("GET", `/api/messages/${note.ticketId}/search?q=nao consigo`, {
            token: a.admin.token,
          })).json();
        assert.deepEqual(found.messages.map((m: { id: number }) => m.id), [note.id]);
        const list = await (await t.request("GET", "/api/tickets?searchParam=joao&showAll=true", {
          token: a.admin.token,
        })).json();
        assert.deepEqual(list.tickets.map((x: { id: number }) => x.id), [note.ticketId]);

        const exported = await t.request(
          "GET",
          `/api/reports/tickets/${note.ticketId}/transcript`,
          {
            token: a.admin.token,
          },
        );
        assert.equal(exported.status, 200);
        const html = await exported.text();
        assert.ok(html.includes("transcrição"));
        assert.ok(html.includes("Não consigo ir amanhã; vocês abrem às nove da manhã?"));

        // The meter matches what the fake server received; the audit row has no text.
        const usage = await (await t.request("GET", "/api/assist/usage", { token: a.admin.token }))
          .json();
        const transcription = usage.features.find((f: { feature: string }) =>
          f.feature === "transcription"
        );
        assert.equal(transcription.calls, openai.calls.transcription);
        assert.equal(transcription.seconds, 5);
        assert.ok(usage.cost > 0);
        const audit = await t.deps.db.selectFrom("audit_logs").selectAll()
          .where("companyId", "=", a.id).where("action", "=", "assist.called").execute();
        assert.equal(audit.length, 1);
        assert.deepEqual([audit[0].entity, audit[0].entityId], ["message", String(note.id)]);
        assert.equal(JSON.stringify(audit[0]).includes("consigo"), false);
      });
    }, { AI_BASE_URL: openai.baseUrl, AI_API_KEY: KEY });
  } finally {
    await openai.close();
  }
});

Deno.test("assist - transcription off, turned off before its turn, or a plan without useAssist: the voice note stays as it was", async () => {
  const openai = fakeOpenAi({ apiKey: KEY });
  try {
    await withApp(async (t) => {
      const off = await createCompany(t, "Off");
      const noPlan = await createCompany(t, "NoPlan", { plan: { useAssist: 0 } });
      const later = await createCompany(t, "Later");
      await assistOn(t, noPlan);
      await assistOn(t, later);
      for (const c of [off, noPlan, later]) {
        const wid = await connectSimulator(t, c);
        await phoneSends(t, c.user.token, wid, { from: "5511977770002", media: voiceNote });
      }
      const turnedOff = await t.request("PUT", "/api/settings/assistTranscription", {
        token: later.admin.token,
        body: { value: "disabled" },
      });
      assert.equal(turnedOff.status, 200);
      // Off: no job at all; the others' are skipped when their turn comes.
      assert.equal(await assistTick(t.deps), 2);
      assert.equal(openai.calls.transcription, 0);
      const jobs = await t.deps.db.selectFrom("assist_jobs").select([
        "companyId",
        "status",
        "error",
      ])
        .where("companyId", "in", [off.id, noPlan.id, later.id]).orderBy("companyId").execute();
      assert.deepEqual(jobs.map((j) => [j.companyId, j.status, j.error]), [
        [noPlan.id, "skipped", "plan"],
        [later.id, "skipped", "disabled"],
      ]);
      const usage = await t.request("GET", "/api/assist/usage", { token: noPlan.admin.token });
      assert.equal(usage.status, 403);
      assert.equal((await usage.json()).error, "ERR_PLAN_FEATURE_DISABLED");
    }, { AI_BASE_URL: openai.baseUrl, AI_API_KEY: KEY });
  } finally {
    await openai.close();
  }
});
