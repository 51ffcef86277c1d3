import assert from "node:assert/strict";
import { createCompany } from "../helpers/app.ts";
import { eventually } from "../helpers/eventually.ts";
import { messagesPost } from "../fakes/graph.ts";
import {
  acceptWebhook,
  processPendingWebhooks,
} from "../../server/whatsapp/providers/cloud_api/service.ts";
import { type CloudSetup, postWebhook, VERIFY_TOKEN, withCloud } from "./cloud_helpers.ts";

const ANA = "5511988887777";
const now = () => String(Math.floor(Date.now() / 1000));

function textFrom(from: string, id: string, body: string, extra: Record<string, unknown> = {}) {
  return { from, id, timestamp: now(), type: "text", text: { body }, ...extra };
}

async function messagesOf(s: CloudSetup) {
  return await s.t.deps.db.selectFrom("messages").selectAll()
    .where("companyId", "=", s.a.id).orderBy("id").execute();
}

async function inboxDone(s: CloudSetup) {
  await eventually(async () => {
    const pending = await s.t.deps.db.selectFrom("whatsapp_cloud_inbox").select("id")
      .where("processedAt", "is", null).execute();
    return pending.length === 0;
  }, { what: "every stored post processed" });
  await s.t.deps.sessions.inbound.drain();
}

Deno.test("cloud webhook - the GET handshake answers the challenge for the verify token only", async () => {
  await withCloud(async (s) => {
    const q = (token: string) =>
      `${s.webhookPath}?hub.mode=subscribe&hub.verify_token=${token}&hub.challenge=1158201444`;
    const ok = await s.t.request("GET", q(VERIFY_TOKEN));
    assert.equal(ok.status, 200);
    assert.equal(await ok.text(), "1158201444");
    assert.equal((await s.t.request("GET", q("wrong-token-123"))).status, 403);
    const unknown = `/api/whatsapp-cloud/${"0".repeat(48)}?hub.mode=subscribe` +
      `&hub.verify_token=${VERIFY_TOKEN}&hub.challenge=1`;
    assert.equal((await s.t.request("GET", unknown)).status, 403);
  });
});

Deno.test("cloud webhook - a wrong signature is refused (401) before anything is stored", async () => {
  await withCloud(async (s) => {
    const post = messagesPost(s.graph.phoneNumberId, {
      messages: [textFrom(ANA, "wamid.BAD1", "injected")],
    });
    const res = await postWebhook(s, post, { wrongSignature: true });
    assert.equal(res.status, 401);
    assert.equal((await res.json()).error, "ERR_WHATSAPP_BAD_SIGNATURE");
    const unsigned = await s.t.request("POST", s.webhookPath, { body: JSON.stringify(post) });
    assert.equal(unsigned.status, 401);
    const inbox = await s.t.deps.db.selectFrom("whatsapp_cloud_inbox").select("id").execute();
    assert.equal(inbox.length, 0);
    assert.equal((await messagesOf(s)).length, 0);
  });
});

Deno.test("cloud webhook - a text with accents and emoji (\\u-escaped as Meta signs it) opens a ticket once, redelivered or not", async () => {
  await withCloud(async (s) => {
    const post = messagesPost(s.graph.phoneNumberId, {
      contacts: [{ profile: { name: "Ana Conceição" }, wa_id: ANA }],
      messages: [textFrom(ANA, "wamid.IN1", "Olá, ação às 9h? 😀")],
    });
    const signed = await s.graph.webhook(post, "app-secret-0123456789abcdef");
    assert.match(signed.body, /\\u00e7/, "the body Meta sends is escaped");
    const res = await postWebhook(s, post);
    assert.equal(res.status, 200);
    await inboxDone(s);
    // Meta retries for days: the same message id again stores nothing new.
    assert.equal((await postWebhook(s, post)).status, 200);
    await inboxDone(s);
    const messages = await messagesOf(s);
    assert.equal(messages.length, 1);
    assert.equal(messages[0].body, "Olá, ação às 9h? 😀");
    assert.equal(messages[0].wid, "wamid.IN1");
    assert.equal(messages[0].fromMe, 0);
    const contact = await s.t.deps.db.selectFrom("contacts").selectAll()
      .where("companyId", "=", s.a.id).executeTakeFirstOrThrow();
    assert.deepEqual([contact.number, contact.name], [ANA, "Ana Conceição"]);
    const tickets = await s.t.deps.db.selectFrom("tickets").selectAll()
      .where("companyId", "=", s.a.id).execute();
    assert.equal(tickets.length, 1);
    assert.equal(tickets[0].whatsappId, s.whatsappId);
    // The attendants' API lists it like any other ticket's messages.
    const listed = await s.t.request("GET", `/api/messages/${tickets[0].id}`, {
      token: s.a.admin.token,
    });
    assert.equal(listed.status, 200);
    assert.equal((await listed.json()).messages[0].body, "Olá, ação às 9h? 😀");
  });
});

Deno.test("cloud webhook - every entry and change is read; an unknown phone number id stores nothing", async () => {
  await withCloud(async (s) => {
    const one = messagesPost(s.graph.phoneNumberId, {
      messages: [textFrom(ANA, "wamid.E1", "primeira")],
    });
    const two = messagesPost(s.graph.phoneNumberId, {
      messages: [textFrom("5511977776666", "wamid.E2", "segunda")],
    });
    const stranger = messagesPost("999999999999", {
      messages: [textFrom("5511966665555", "wamid.E3", "de outro número")],
    });
    const post = { ...one, entry: [...one.entry, ...two.entry, ...stranger.entry] };
    assert.equal((await postWebhook(s, post)).status, 200);
    await inboxDone(s);
    const bodies = (await messagesOf(s)).map((m) => m.body);
    assert.deepEqual(bodies, ["primeira", "segunda"]);
    // Only unknown ids: 200, nothing stored.
    assert.equal((await postWebhook(s, stranger)).status, 200);
    await inboxDone(s);
    assert.equal((await messagesOf(s)).length, 2);
    // Another company's connection with the same number id is not reached through this URL.
    const b = await createCompany(s.t, "Beta");
    assert.ok(b.id !== s.a.id);
  });
});

Deno.test("cloud webhook - media, location, contacts, buttons and replies become messages; a reaction marks its message", async () => {
  await withCloud(async (s) => {
    s.graph.media.set("media-in-1", {
      data: new TextEncoder().encode("fake-jpeg-bytes"),
      mimetype: "image/jpeg",
    });
    const base = () => ({ from: ANA, timestamp: now() });
    const post = messagesPost(s.graph.phoneNumberId, {
      messages: [
        { ...base(), id: "wamid.T1", type: "text", text: { body: "pedido 42" } },
        {
          ...base(),
          id: "wamid.IMG",
          type: "image",
          image: { id: "media-in-1", mime_type: "image/jpeg", sha256: "x", caption: "a foto" },
        },
        {
          ...base(),
          id: "wamid.LOC",
          type: "location",
          location: { latitude: -23.5, longitude: -46.6, name: "Loja", address: "Rua A, 1" },
        },
        {
          ...base(),
          id: "wamid.VC",
          type: "contacts",
          contacts: [{
            name: { formatted_name: "Bia" },
            phones: [{ phone: "+55 11 91111-2222", wa_id: "5511911112222" }],
          }],
        },
        {
          ...base(),
          id: "wamid.BTN",
          type: "interactive",
          interactive: { type: "button_reply", button_reply: { id: "1", title: "Vendas" } },
        },
        { ...base(), id: "wamid.QR", type: "button", button: { text: "Sim", payload: "yes" } },
        {
          ...base(),
          id: "wamid.RE",
          type: "text",
          text: { body: "sobre isso" },
          context: { from: ANA, id: "wamid.T1" },
        },
        {
          ...base(),
          id: "wamid.R1",
          type: "reaction",
          reaction: { message_id: "wamid.T1", emoji: "👍" },
        },
        { ...base(), id: "wamid.U", type: "unsupported", errors: [{ code: 131051 }] },
      ],
    });
    assert.equal((await postWebhook(s, post)).status, 200);
    await inboxDone(s);
    const rows = await messagesOf(s);
    const by = new Map(rows.map((m) => [m.wid, m]));
    assert.equal(by.get("wamid.IMG")?.mediaType, "image");
    assert.equal(by.get("wamid.IMG")?.body, "a foto");
    assert.ok(by.get("wamid.IMG")?.mediaUrl, "the image is in our media store");
    assert.equal(by.get("wamid.LOC")?.mediaType, "locationMessage");
    assert.match(by.get("wamid.LOC")!.body, /Loja\nRua A, 1\nhttps:\/\/maps\.google\.com/);
    assert.equal(by.get("wamid.VC")?.mediaType, "vcard");
    assert.match(by.get("wamid.VC")!.body, /FN:Bia/);
    assert.equal(by.get("wamid.BTN")?.body, "Vendas");
    assert.equal(by.get("wamid.QR")?.body, "Sim");
    assert.equal(by.get("wamid.RE")?.quotedMsgId, by.get("wamid.T1")?.id);
    // A reaction shows on the message it is about, not as a message (cloud_api_reactions_test).
    assert.equal(by.has("wamid.R1"), false);
    const reacted = await s.t.deps.db.selectFrom("messages").select("reaction")
      .where("wid", "=", "wamid.T1").executeTakeFirstOrThrow();
    assert.equal(reacted.reaction, "👍");
    assert.equal(by.get("wamid.U")?.body, "[unsupported]");
    // The media was fetched by id, then its URL with the bearer token.
    assert.ok(s.graph.requests.some((r) => r.path === "/v23.0/media-in-1"));
  });
});

Deno.test("cloud webhook - statuses become acks that never go back; a failure's code shows on the message", async () => {
  await withCloud(async (s) => {
    await postWebhook(
      s,
      messagesPost(s.graph.phoneNumberId, {
        messages: [textFrom(ANA, "wamid.HELLO", "oi")],
      }),
    );
    await inboxDone(s);
    const ticket = await s.t.deps.db.selectFrom("tickets").selectAll()
      .where("companyId", "=", s.a.id).executeTakeFirstOrThrow();
    const accepted = await s.t.request("PUT", `/api/tickets/${ticket.id}`, {
      token: s.a.admin.token,
      body: { action: "accept" },
    });
    assert.equal(accepted.status, 200);
    for (const body of ["primeira resposta", "segunda resposta"]) {
      const sent = await s.t.request("POST", `/api/messages/${ticket.id}`, {
        token: s.a.admin.token,
        body: { body },
      });
      assert.equal(sent.status, 201, await sent.clone().text());
    }
    const ours = await eventually(async () => {
      const rows = (await messagesOf(s)).filter((m) => m.fromMe === 1);
      return rows.length === 2 && rows.every((m) => m.ack >= 1 && m.wid?.startsWith("wamid.FAKE"))
        ? rows
        : undefined;
    }, { what: "both replies sent through the Graph API" });
    const [first, second] = ours;
    const status = (id: string, value: string, extra: Record<string, unknown> = {}) => ({
      id,
      status: value,
      timestamp: now(),
      recipient_id: ANA,
      ...extra,
    });
    // read arrives before delivered, and sent again after: the ack stays read.
    await postWebhook(
      s,
      messagesPost(s.graph.phoneNumberId, {
        statuses: [status(first.wid!, "read"), status(first.wid!, "delivered")],
      }),
    );
    await postWebhook(
      s,
      messagesPost(s.graph.phoneNumberId, {
        statuses: [status(first.wid!, "sent")],
      }),
    );
    await postWebhook(
      s,
      messagesPost(s.graph.phoneNumberId, {
        statuses: [status(second.wid!, "failed", {
          errors: [{ code: 131047, title: "Re-engagement message" }],
        })],
      }),
    );
    await inboxDone(s);
    const after = new Map((await messagesOf(s)).map((m) => [m.id, m]));
    assert.equal(after.get(first.id)?.ack, 3);
    assert.equal(after.get(second.id)?.sendError, "ERR_WHATSAPP_WINDOW_CLOSED");
    const view = await (await s.t.request("GET", `/api/messages/${ticket.id}`, {
      token: s.a.admin.token,
    })).json();
    const shown = view.messages.find((m: { id: number }) => m.id === second.id);
    assert.equal(shown.sendError, "ERR_WHATSAPP_WINDOW_CLOSED");
  });
});

Deno.test("cloud webhook - a post stored but not processed (restart after the 200) is processed by the job", async () => {
  await withCloud(async (s) => {
    const post = messagesPost(s.graph.phoneNumberId, {
      messages: [textFrom(ANA, "wamid.LATE", "guardada")],
    });
    const signed = await s.graph.webhook(post, "app-secret-0123456789abcdef");
    const key = s.webhookPath.split("/").pop()!;
    // What the route does before its 200, without the processing that follows it.
    await acceptWebhook(
      s.t.deps,
      key,
      new TextEncoder().encode(signed.body),
      signed.headers["x-hub-signature-256"],
    );
    assert.equal((await messagesOf(s)).length, 0);
    await processPendingWebhooks(s.t.deps);
    await processPendingWebhooks(s.t.deps);
    await s.t.deps.sessions.inbound.drain();
    assert.deepEqual((await messagesOf(s)).map((m) => m.body), ["guardada"]);
  });
});

Deno.test("cloud webhook - a Click-to-WhatsApp ad's referral is kept on the ticket and answered by the API", async () => {
  await withCloud(async (s) => {
    const referral = {
      source_url: "https://fb.me/anuncio-42",
      source_id: "120210000000000042",
      source_type: "ad",
      headline: "Pizza em dobro às terças",
      body: "Peça pelo WhatsApp e ganhe a segunda",
      media_type: "image",
      image_url: "https://scontent.example/ad.jpg",
      ctwa_clid: "ARAkLkA8rmlFeiCktEJQ",
    };
    const post = (id: string, extra: Record<string, unknown> = {}) =>
      messagesPost(s.graph.phoneNumberId, {
        contacts: [{ profile: { name: "Ana" }, wa_id: ANA }],
        messages: [textFrom(ANA, id, "Quero a promoção", extra)],
      });
    assert.equal((await postWebhook(s, post("wamid.AD1", { referral }))).status, 200);
    await inboxDone(s);
    // A later message without one keeps it.
    assert.equal((await postWebhook(s, post("wamid.AD2"))).status, 200);
    await inboxDone(s);
    const ticket = await s.t.deps.db.selectFrom("tickets").select("id")
      .where("companyId", "=", s.a.id).executeTakeFirstOrThrow();
    const res = await s.t.request("GET", `/api/tickets/${ticket.id}`, { token: s.a.admin.token });
    assert.equal(res.status, 200);
    const body = await res.json();
    const view = body.ticket ?? body;
    assert.deepEqual({ ...view.referral, at: undefined }, {
      sourceType: "ad",
      sourceId: "120210000000000042",
      sourceUrl: "https://fb.me/anuncio-42",
      headline: "Pizza em dobro às terças",
      body: "Peça pelo WhatsApp e ganhe a segunda",
      mediaType: "image",
      mediaUrl: "https://scontent.example/ad.jpg",
      thumbnailUrl: null,
      ctwaClid: "ARAkLkA8rmlFeiCktEJQ",
      at: undefined,
    });
    assert.equal(typeof view.referral.at, "string");
  });
});
