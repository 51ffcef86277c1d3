import assert from "node:assert/strict";
import { generateWAMessage, proto } from "@whiskeysockets/baileys";
import { withApp } from "../helpers/app.ts";
import { toRaw } from "../../server/whatsapp/providers/baileys/messages.ts";
import { ProviderSendError } from "../../server/whatsapp/providers/provider.ts";
import { baileysHarness, waMessage } from "./baileys_harness.ts";

const ANA = "5511988887777@s.whatsapp.net";
const bytes = (text: string) => new TextEncoder().encode(text);
const codeOf = (code: string) => (e: { code?: string }) => e.code === code;
/** The outbox retries transient send failures and gives up at once on permanent ones. */
const sendFailure = (code: string, permanent: boolean) => (e: unknown) =>
  e instanceof ProviderSendError && e.permanent === permanent &&
  (e as { code?: string }).code === code;

Deno.test("baileys outbound - sendText returns id, timestamp and a raw copy; digits become a JID", () =>
  withApp(async (t) => {
    const h = await baileysHarness(t);
    await h.connect();
    const sent = await h.provider.sendText("+55 11 98888-7777", "Seu pedido saiu");
    assert.equal(h.sock().sent.length, 1);
    assert.equal(h.sock().sent[0].jid, ANA);
    assert.deepEqual(h.sock().sent[0].content, { text: "Seu pedido saiu" });
    assert.match(sent.id, /^3EB0FAKE/);
    assert.ok(sent.timestamp instanceof Date && !Number.isNaN(sent.timestamp.getTime()));
    const raw = sent.raw as { key: { id: string; remoteJid: string; fromMe: boolean } };
    assert.deepEqual([raw.key.id, raw.key.remoteJid, raw.key.fromMe], [sent.id, ANA, true]);
    await h.provider.stop();
  }));

Deno.test("baileys outbound - a reply quotes the stored original; a missing one sends unquoted", () =>
  withApp(async (t) => {
    const h = await baileysHarness(t);
    await h.connect();
    h.stored.set(
      "IN1",
      toRaw(
        waMessage({ remoteJid: ANA, fromMe: false, id: "IN1" }, { conversation: "Onde está?" }),
      ),
    );
    await h.provider.sendText(ANA, "Chega amanhã", { quotedId: "IN1" });
    const quoted = h.sock().sent[0].options?.quoted;
    assert.equal(quoted?.key.id, "IN1");
    assert.equal(quoted?.message?.conversation, "Onde está?");

    await h.provider.sendText(ANA, "E mais isto", { quotedId: "GONE" });
    assert.equal(h.sock().sent[1].options, undefined);
    await h.provider.stop();
  }));

Deno.test("baileys outbound - sendMedia picks image, video, voice note or document by mimetype", () =>
  withApp(async (t) => {
    const h = await baileysHarness(t);
    await h.connect();
    await h.provider.sendMedia(ANA, {
      data: bytes("png"),
      mimetype: "image/png",
      filename: "a.png",
      caption: "foto",
    });
    await h.provider.sendMedia(ANA, {
      data: bytes("mp4"),
      mimetype: "video/mp4",
      filename: "v.mp4",
    });
    await h.provider.sendMedia(ANA, {
      data: bytes("mp3"),
      mimetype: "audio/mpeg",
      filename: "a.mp3",
      ptt: true,
    });
    const doc = await h.provider.sendMedia(ANA, {
      data: bytes("%PDF"),
      mimetype: "application/pdf",
      filename: "boleto.pdf",
      caption: "segue",
    }, { quotedId: "NONE" });
    const contents = h.sock().sent.map((s) => s.content as Record<string, unknown>);
    assert.deepEqual(Object.keys(contents[0]).sort(), ["caption", "image", "mimetype"]);
    assert.equal(contents[0].caption, "foto");
    assert.deepEqual([...(contents[0].image as Uint8Array)], [...bytes("png")]);
    assert.ok("video" in contents[1]);
    assert.deepEqual([contents[2].ptt, contents[2].mimetype, "audio" in contents[2]], [
      true,
      "audio/mpeg",
      true,
    ]);
    assert.deepEqual([contents[3].fileName, contents[3].mimetype, contents[3].caption], [
      "boleto.pdf",
      "application/pdf",
      "segue",
    ]);
    assert.ok(doc.id);
    await h.provider.stop();
  }));

Deno.test("baileys outbound - errors: not connected, invalid contact, send failure", () =>
  withApp(async (t) => {
    const h = await baileysHarness(t);
    await assert.rejects(
      h.provider.sendText(ANA, "x"),
      sendFailure("ERR_WAPP_NOT_INITIALIZED", false),
    );
    await h.provider.start();
    await h.feed("connection.update", { qr: "2@ref" });
    await assert.rejects(h.provider.sendText(ANA, "x"), codeOf("ERR_WAPP_NOT_INITIALIZED"));
    await h.feed("connection.update", { connection: "open" });
    await assert.rejects(
      h.provider.sendText("12", "x"),
      sendFailure("ERR_WAPP_INVALID_CONTACT", true),
    );
    await assert.rejects(
      h.provider.sendMedia("someone@example.com", {
        data: bytes("x"),
        mimetype: "image/png",
        filename: "x.png",
      }),
      sendFailure("ERR_WAPP_INVALID_CONTACT", true),
    );
    h.sock().sendFailure = new Error("not-acceptable");
    await assert.rejects(h.provider.sendText(ANA, "x"), sendFailure("ERR_SENDING_WAPP_MSG", false));
    await assert.rejects(
      h.provider.deleteForEveryone(ANA, "M1", true),
      codeOf("ERR_DELETE_WAPP_MSG"),
    );
    await h.provider.stop();
  }));

Deno.test("baileys outbound - the outbox's chosen id is the WhatsApp id (a resend is the same message)", () =>
  withApp(async (t) => {
    const h = await baileysHarness(t);
    await h.connect();
    const sent = await h.provider.sendText(ANA, "once", { messageId: "3EB0OUTBOX0001" });
    assert.equal(sent.id, "3EB0OUTBOX0001");
    assert.equal(h.sock().sent[0].options?.messageId, "3EB0OUTBOX0001");
    await h.provider.rejectCall("CALL9", ANA);
    assert.deepEqual(h.sock().rejected, [{ callId: "CALL9", from: ANA }]);
    await h.provider.stop();
  }));

Deno.test("baileys outbound - delete for everyone sends a revoke for the key", () =>
  withApp(async (t) => {
    const h = await baileysHarness(t);
    await h.connect();
    await h.provider.deleteForEveryone(ANA, "3EB0ABC", true);
    assert.deepEqual(h.sock().sent[0], {
      jid: ANA,
      content: { delete: { remoteJid: ANA, fromMe: true, id: "3EB0ABC" } },
      options: undefined,
    });
    await h.provider.stop();
  }));

Deno.test("baileys outbound - checkNumber asks onWhatsApp; profile pictures degrade to undefined", () =>
  withApp(async (t) => {
    const h = await baileysHarness(t);
    assert.equal(await h.provider.profilePictureUrl(ANA), undefined, "no socket yet");
    await h.connect();
    h.sock().onWhatsAppAnswer = [{ jid: ANA, exists: true }];
    assert.deepEqual(await h.provider.checkNumber("55 11 98888 7777"), { exists: true, jid: ANA });
    assert.deepEqual(await h.provider.checkNumber("5511900001111"), { exists: false });
    await assert.rejects(h.provider.checkNumber("abc"), codeOf("ERR_WAPP_INVALID_CONTACT"));
    h.sock().pictures.set(ANA, "https://pps.example/ana.jpg");
    assert.equal(await h.provider.profilePictureUrl(ANA), "https://pps.example/ana.jpg");
    assert.equal(await h.provider.profilePictureUrl("5511900001111"), undefined);
    await h.provider.stop();
  }));

Deno.test("baileys outbound - a forward carries WhatsApp's forwarded mark; an edit names our message's key (issue 28)", () =>
  withApp(async (t) => {
    const h = await baileysHarness(t);
    await h.connect();
    const text = await h.provider.sendText(ANA, "Segue o pedido", { forwarded: true });
    await h.provider.sendMedia(ANA, {
      data: bytes("png"),
      mimetype: "image/png",
      filename: "a.png",
      caption: "foto",
    }, { forwarded: true });
    const mark = { isForwarded: true, forwardingScore: 1 };
    const [sentText, sentImage] = h.sock().sent.map((s) => s.content as Record<string, unknown>);
    assert.deepEqual(sentText.contextInfo, mark);
    assert.deepEqual(sentImage.contextInfo, mark);
    // Baileys itself (generateWAMessage in the fake) puts the mark in the message it sends.
    const raw = text.raw as {
      message: { extendedTextMessage: { text: string; contextInfo: typeof mark } };
    };
    assert.equal(raw.message.extendedTextMessage.text, "Segue o pedido");
    assert.equal(raw.message.extendedTextMessage.contextInfo.isForwarded, true);
    assert.equal(raw.message.extendedTextMessage.contextInfo.forwardingScore, 1);

    await h.provider.sendText(ANA, "Sem marca");
    assert.equal((h.sock().sent[2].content as Record<string, unknown>).contextInfo, undefined);

    await h.provider.editText(ANA, text.id, "Segue o pedido corrigido");
    const edit = h.sock().sent[3];
    assert.equal(edit.jid, ANA);
    assert.deepEqual(edit.content, {
      text: "Segue o pedido corrigido",
      edit: { remoteJid: ANA, fromMe: true, id: text.id },
    });
    const built = await generateWAMessage(ANA, edit.content, {
      userJid: "5511900000000@s.whatsapp.net",
      upload: () => Promise.reject(new Error("no uploads")),
    });
    const protocol = built.message?.protocolMessage;
    assert.equal(protocol?.type, proto.Message.ProtocolMessage.Type.MESSAGE_EDIT);
    assert.equal(protocol?.key?.id, text.id);
    assert.equal(protocol?.editedMessage?.extendedTextMessage?.text, "Segue o pedido corrigido");

    h.sock().sendFailure = new Error("socket closed");
    await assert.rejects(h.provider.editText(ANA, text.id, "x"), codeOf("ERR_EDIT_WAPP_MSG"));
    await h.provider.stop();
  }));
