import assert from "node:assert/strict";
import { createCompany, type TestApp, type TestCompany, withApp } from "../helpers/app.ts";
import { fakeOpenAi } from "../fakes/openai.ts";
import { eventually } from "../helpers/eventually.ts";
import { connectSimulator, phoneSends, sentBy } from "./helpers.ts";

/**
 * A simulator contact talks to an AI prompt through a fake of OpenAI's API (and Azure Speech's
 * text-to-speech) until the assistant hands it to a person.
 */
const KEY = "sk-prompt-secret-000111222333";
const VOICE_KEY = "azure-voice-secret-999";

async function promptQueue(t: TestApp, c: TestCompany, fields: Record<string, unknown> = {}) {
  const queueId = (await (await t.request("POST", "/api/queue", {
    token: c.admin.token,
    body: { name: "Assistente", color: "#0a0a0a" },
  })).json()).id as number;
  const res = await t.request("POST", "/api/prompt", {
    token: c.admin.token,
    body: {
      name: "Loja",
      apiKey: KEY,
      prompt: "Você é o assistente da Loja Balcão. Responda curto.",
      maxMessages: 3,
      temperature: 0.5,
      queueId,
      ...fields,
    },
  });
  assert.equal(res.status, 201, await res.clone().text());
  const promptId = (await res.json()).id as number;
  const wid = await connectSimulator(t, c, { queueIds: [queueId] });
  return { queueId, promptId, wid };
}

Deno.test("prompt bot - the assistant answers with the prompt and the last messages, then hands over by tool call", async () => {
  const openai = fakeOpenAi({ apiKey: KEY });
  try {
    await withApp(async (t) => {
      const a = await createCompany(t, "Alpha");
      const { queueId, promptId, wid } = await promptQueue(t, a);
      const from = "5511966660001";
      const first = await phoneSends(t, a.user.token, wid, { from, body: "oi" });
      let ticket = await t.deps.db.selectFrom("tickets").selectAll()
        .where("id", "=", first.ticketId!).executeTakeFirstOrThrow();
      assert.deepEqual([ticket.promptId, ticket.queueId], [promptId, queueId]);
      await eventually(async () =>
        (await sentBy(t, a.admin.token, wid)).some((s) => s.body === "Assistente: oi")
      );
      await phoneSends(t, a.user.token, wid, { from, body: "tem pão?" });
      await eventually(async () =>
        (await sentBy(t, a.admin.token, wid)).some((s) => s.body === "Assistente: tem pão?")
      );
      const chat = openai.chats[1];
      assert.equal(chat.temperature, 0.5);
      assert.equal(chat.max_tokens, 100);
      assert.equal(chat.messages[0].role, "system");
      assert.match(chat.messages[0].content, /Loja Balcão/);
      // maxMessages 3: the two latest stored messages and the new one.
      assert.deepEqual(chat.messages.slice(1), [
        { role: "user", content: "oi" },
        { role: "assistant", content: "Assistente: oi" },
        { role: "user", content: "tem pão?" },
      ]);

      await phoneSends(t, a.user.token, wid, { from, body: "quero falar com um humano" });
      ticket = await t.deps.db.selectFrom("tickets").selectAll().where("id", "=", ticket.id)
        .executeTakeFirstOrThrow();
      assert.deepEqual([ticket.promptId, ticket.status, ticket.queueId, ticket.userId], [
        null,
        "pending",
        queueId,
        null,
      ]);
      await eventually(async () =>
        (await sentBy(t, a.admin.token, wid)).some((s) => s.body === "Vou transferir você.")
      );
      const calls = openai.chats.length;
      await phoneSends(t, a.user.token, wid, { from, body: "alô?" });
      assert.equal(openai.chats.length, calls);
      // The key is in no ticket or message answer.
      const view = await t.request("GET", `/api/tickets/${ticket.id}`, { token: a.admin.token });
      assert.equal((await view.text()).includes(KEY), false);
    }, { OPENAI_BASE_URL: openai.baseUrl });
  } finally {
    await openai.close();
  }
});

Deno.test("prompt bot - audio is transcribed first; a voice sends the answer as audio too; OpenAI down hands over", async () => {
  const openai = fakeOpenAi({ apiKey: KEY, voiceKey: VOICE_KEY });
  try {
    await withApp(async (t) => {
      const a = await createCompany(t, "Alpha");
      const { queueId, wid } = await promptQueue(t, a, {
        voice: "pt-BR-FranciscaNeural",
        voiceKey: VOICE_KEY,
        voiceRegion: "brazilsouth",
      });
      const from = "5511966660002";
      const audio = await phoneSends(t, a.user.token, wid, {
        from,
        media: { base64: btoa("OggS fake audio"), mimetype: "audio/ogg; codecs=opus" },
      });
      assert.equal(audio.status, 201);
      assert.equal(openai.transcriptions.length, 1);
      assert.equal(openai.transcriptions[0].model, "whisper-1");
      assert.equal(openai.chats[0].messages.at(-1)!.content, "qual o horário de funcionamento?");
      const sent = await eventually(async () => {
        const items = await sentBy(t, a.admin.token, wid);
        return items.length >= 2 ? items : undefined;
      });
      assert.equal(sent[0].body, "Assistente: qual o horário de funcionamento?");
      assert.equal(sent[1].media?.mimetype, "audio/ogg");
      assert.match(openai.speeches[0], /pt-BR-FranciscaNeural/);

      openai.state.down = true;
      const down = await phoneSends(t, a.user.token, wid, { from, body: "e agora?" });
      const ticket = await t.deps.db.selectFrom("tickets").selectAll()
        .where("id", "=", down.ticketId!).executeTakeFirstOrThrow();
      assert.deepEqual([ticket.promptId, ticket.status, ticket.queueId], [
        null,
        "pending",
        queueId,
      ]);
      const kept = await t.deps.db.selectFrom("messages").select("body")
        .where("ticketId", "=", ticket.id).where("fromMe", "=", 0).orderBy("id").execute();
      assert.equal(kept.at(-1)!.body, "e agora?");
    }, {
      OPENAI_BASE_URL: openai.baseUrl,
      TTS_URL: openai.ttsUrl,
      INTEGRATION_TIMEOUT_MS: "2000",
    });
  } finally {
    await openai.close();
  }
});
