import assert from "node:assert/strict";
import { oggCrc } from "../../server/media/opus_ogg.ts";
import { eventually } from "../helpers/eventually.ts";
import { messagesPost } from "../fakes/graph.ts";
import { type CloudSetup, postWebhook, withCloud } from "./cloud_helpers.ts";

const ANA = "5511988887777";

async function ticketWithMessage(s: CloudSetup): Promise<{ ticketId: number; inboundId: number }> {
  const at = String(Math.floor(s.t.clock.now().getTime() / 1000));
  await postWebhook(
    s,
    messagesPost(s.graph.phoneNumberId, {
      messages: [{ from: ANA, id: "wamid.IN", timestamp: at, type: "text", text: { body: "oi" } }],
    }),
  );
  const inbound = await eventually(() =>
    s.t.deps.db.selectFrom("messages").select(["id", "ticketId"]).where("wid", "=", "wamid.IN")
      .executeTakeFirst()
  );
  const accepted = await s.t.request("PUT", `/api/tickets/${inbound.ticketId}`, {
    token: s.a.admin.token,
    body: { action: "accept" },
  });
  assert.equal(accepted.status, 200);
  return { ticketId: inbound.ticketId, inboundId: inbound.id };
}

Deno.test("cloud outbound - media is uploaded to /{phone-number-id}/media and sent by id; a reply carries context", async () => {
  await withCloud(async (s) => {
    const { ticketId, inboundId } = await ticketWithMessage(s);
    const form = new FormData();
    form.append(
      "medias",
      new File([new Uint8Array([137, 80, 78, 71])], "foto.png", {
        type: "image/png",
      }),
    );
    form.append("body", "segue a foto");
    const res = await s.t.request("POST", `/api/messages/${ticketId}`, {
      token: s.a.admin.token,
      body: form,
    });
    assert.equal(res.status, 201);
    const sent = await eventually(() => s.graph.sends().find((b) => b.type === "image"));
    const upload = s.graph.requests.find((r) => r.path.endsWith("/media"));
    assert.equal(upload?.path, `/v23.0/${s.graph.phoneNumberId}/media`);
    assert.equal(upload?.form?.messaging_product, "whatsapp");
    assert.equal(upload?.form?.type, "image/png");
    const image = sent.image as { id: string; caption?: string; link?: string };
    assert.match(image.id, /^media-up-/);
    assert.equal(image.link, undefined, "sent by id, never by a public link");
    assert.equal(image.caption, "segue a foto");
    assert.equal(s.graph.media.get(image.id)?.data.length, 4);

    const reply = await s.t.request("POST", `/api/messages/${ticketId}`, {
      token: s.a.admin.token,
      body: { body: "respondendo", quotedMsg: inboundId },
    });
    assert.equal(reply.status, 201);
    const quoted = await eventually(() =>
      s.graph.sends().find((b) => (b.text as { body?: string })?.body === "respondendo")
    );
    assert.deepEqual(quoted.context, { message_id: "wamid.IN" });
  });
});

Deno.test("cloud outbound - exactly once: a send interrupted after it may have reached Meta is not sent again", async () => {
  await withCloud(async (s) => {
    const { ticketId } = await ticketWithMessage(s);
    // The connection stops; a message waits in the outbox.
    await s.t.deps.sessions.remove(s.a.id, s.whatsappId, false);
    const queued = await s.t.request("POST", `/api/messages/${ticketId}`, {
      token: s.a.admin.token,
      body: { body: "uma vez só" },
    });
    assert.equal(queued.status, 201);
    const messageId = (await queued.json()).messages[0].id;
    const row = await s.t.deps.db.selectFrom("outbox").select("wid")
      .where("messageId", "=", messageId).executeTakeFirstOrThrow();
    // What a crash between the Graph call and its record leaves: the claim, without Meta's id.
    await s.t.deps.db.insertInto("whatsapp_cloud_sends").values({
      companyId: s.a.id,
      whatsappId: s.whatsappId,
      wid: row.wid,
      createdAt: s.t.clock.now().toISOString(),
    }).execute();
    const before = s.graph.sends().length;
    await s.t.deps.sessions.start(s.a.id, s.whatsappId);
    await eventually(async () => {
      const m = await s.t.deps.db.selectFrom("messages").select("sendError")
        .where("id", "=", messageId).executeTakeFirstOrThrow();
      return m.sendError === "ERR_WHATSAPP_SEND_UNCERTAIN";
    }, { what: "the interrupted send given up, not repeated" });
    assert.equal(s.graph.sends().length, before, "nothing reached Meta a second time");

    // A claim that has Meta's id was sent: answered again without a call.
    await s.t.deps.sessions.remove(s.a.id, s.whatsappId, false);
    const again = await s.t.request("POST", `/api/messages/${ticketId}`, {
      token: s.a.admin.token,
      body: { body: "já enviada" },
    });
    const againId = (await again.json()).messages[0].id;
    const againRow = await s.t.deps.db.selectFrom("outbox").select("wid")
      .where("messageId", "=", againId).executeTakeFirstOrThrow();
    await s.t.deps.db.insertInto("whatsapp_cloud_sends").values({
      companyId: s.a.id,
      whatsappId: s.whatsappId,
      wid: againRow.wid,
      wamid: "wamid.EARLIER",
      createdAt: s.t.clock.now().toISOString(),
    }).execute();
    await s.t.deps.sessions.start(s.a.id, s.whatsappId);
    await eventually(async () => {
      const m = await s.t.deps.db.selectFrom("messages").select(["wid", "ack"])
        .where("id", "=", againId).executeTakeFirstOrThrow();
      return m.wid === "wamid.EARLIER" && m.ack === 1;
    }, { what: "the recorded send taken as sent" });
    assert.equal(s.graph.sends().length, before);
  });
});

Deno.test("cloud outbound - a browser's WebM voice note goes to Meta as Ogg Opus (the same packets); audio it cannot take is refused before the queue (422 ERR_WHATSAPP_VOICE_FORMAT, pt/en/es)", async () => {
  await withCloud(async (s) => {
    const { ticketId } = await ticketWithMessage(s);
    const voice = (name: string, type: string, data: Uint8Array) => {
      const form = new FormData();
      form.append("medias", new File([data as BlobPart], name, { type }));
      form.append("ptt", "true");
      return s.t.request("POST", `/api/messages/${ticketId}`, {
        token: s.a.admin.token,
        body: form,
      });
    };
    // Not a WebM recording (cut after its first bytes): nothing to rewrap.
    const refused = await voice("voz.webm", "audio/webm", new Uint8Array([26, 69, 223, 163]));
    assert.equal(refused.status, 422, await refused.clone().text());
    assert.equal((await refused.json()).error, "ERR_WHATSAPP_VOICE_FORMAT");
    const wav = await voice("voz.wav", "audio/wav", new Uint8Array(64).fill(1));
    assert.equal((await wav.json()).error, "ERR_WHATSAPP_VOICE_FORMAT");
    assert.equal(
      (await s.t.deps.db.selectFrom("outbox").select("id").execute()).length,
      0,
      "nothing queued",
    );
    for (const [lang, word] of [["pt", "áudio"], ["en", "audio"], ["es", "audio"]]) {
      const texts = JSON.parse(await Deno.readTextFile(`locales/${lang}.json`));
      assert.match(texts.errors.ERR_WHATSAPP_VOICE_FORMAT, new RegExp(word));
    }

    // Chromium's MediaRecorder output (tests/fixtures/voice_chrome.webm: 1.4 s of a 440 Hz
    // OscillatorNode recorded as audio/webm;codecs=opus; Chromium decodes the Ogg this makes of
    // it to the same length).
    // Ogg's checksum is CRC-32/CKSUM without its final inversion: its check value, inverted.
    assert.equal(oggCrc(new TextEncoder().encode("123456789")), (0x765e7680 ^ 0xffffffff) >>> 0);
    const webm = await Deno.readFile(new URL("../fixtures/voice_chrome.webm", import.meta.url));
    const recorded = await voice("gravacao.webm", "audio/webm;codecs=opus", webm);
    assert.equal(recorded.status, 201, await recorded.clone().text());
    const [view] = (await recorded.json()).messages;
    assert.equal(view.mediaType, "audio");
    assert.equal(view.mediaName, "gravacao.ogg");
    const sent = await eventually(() => s.graph.sends().find((b) => b.type === "audio"));
    const uploaded = s.graph.media.get((sent.audio as { id: string }).id)!;
    assert.equal(uploaded.mimetype, "audio/ogg");
    const ogg = uploaded.data;
    assert.equal(new TextDecoder().decode(ogg.subarray(0, 4)), "OggS");
    assert.equal(new TextDecoder().decode(ogg.subarray(28, 36)), "OpusHead");
    // Every page's checksum holds, and the last page's granule is the recording's length.
    let at = 0;
    let granule = 0n;
    let pages = 0;
    while (at < ogg.length) {
      const view = new DataView(ogg.buffer, ogg.byteOffset + at);
      const segments = ogg[at + 26];
      const size = 27 + segments +
        ogg.subarray(at + 27, at + 27 + segments).reduce((a, b) => a + b, 0);
      const page = ogg.slice(at, at + size);
      const stated = view.getUint32(22, true);
      page.fill(0, 22, 26);
      assert.equal(oggCrc(page), stated, `page ${pages}'s checksum`);
      granule = view.getBigInt64(6, true);
      at += size;
      pages++;
    }
    assert.ok(pages > 10);
    const seconds = Number(granule) / 48_000;
    assert.ok(seconds > 1.2 && seconds < 1.6, `length ${seconds} s`);

    const ok = await voice("voz.ogg", "audio/ogg", ogg);
    assert.equal(ok.status, 201, await ok.clone().text());
    await eventually(() => s.graph.sends().filter((b) => b.type === "audio").length === 2);
  });
});
