import assert from "node:assert/strict";
import { proto } from "@whiskeysockets/baileys";
import { withApp } from "../helpers/app.ts";
import type { InboundMessage } from "../../server/whatsapp/providers/provider.ts";
import { fromRaw, toRaw } from "../../server/whatsapp/providers/baileys/messages.ts";
import { baileysHarness, ME, MEDIA_BYTES, waMessage } from "./baileys_harness.ts";

const ANA = "5511988887777@s.whatsapp.net";
const ANA_LID = "204865139208293@lid";
const GROUP = "120363041234567890@g.us";

function messages(h: { of(type: "message"): { message: InboundMessage }[] }) {
  return h.of("message").map((e) => e.message);
}

Deno.test("baileys inbound - notify text: id, chat, body, pushName, timestamp, raw", () =>
  withApp(async (t) => {
    const h = await baileysHarness(t);
    await h.connect();
    await h.feed("messages.upsert", {
      type: "notify",
      messages: [waMessage({ remoteJid: ANA, fromMe: false, id: "A1" }, { conversation: "Olá!" }, {
        pushName: "Ana",
      })],
    });
    const [m] = messages(h);
    assert.equal(m.id, "A1");
    assert.equal(m.chatJid, ANA);
    assert.equal(m.phoneJid, ANA);
    assert.equal(m.isGroup, false);
    assert.equal(m.fromMe, false);
    assert.equal(m.body, "Olá!");
    assert.equal(m.pushName, "Ana");
    assert.equal(m.origin, "notify");
    assert.equal(m.mediaType, undefined);
    assert.equal(m.timestamp.toISOString(), "2025-11-22T12:00:00.000Z");
    // raw round-trips to a Baileys message (for getMessage and quoting).
    assert.equal(fromRaw(m.raw)?.message?.conversation, "Olá!");
    await h.provider.stop();
  }));

Deno.test("baileys inbound - the offline backlog (append) is ingested like live messages", () =>
  withApp(async (t) => {
    const h = await baileysHarness(t);
    await h.connect();
    await h.feed("messages.upsert", {
      type: "append",
      messages: [
        waMessage({ remoteJid: ANA, fromMe: false, id: "OFF1" }, { conversation: "while away 1" }),
        waMessage({ remoteJid: ANA, fromMe: false, id: "OFF2" }, {
          extendedTextMessage: { text: "while away 2" },
        }),
      ],
    });
    assert.deepEqual(messages(h).map((m) => [m.id, m.body, m.origin]), [
      ["OFF1", "while away 1", "append"],
      ["OFF2", "while away 2", "append"],
    ]);
    await h.provider.stop();
  }));

Deno.test("baileys inbound - a reply carries the quoted id from contextInfo.stanzaId", () =>
  withApp(async (t) => {
    const h = await baileysHarness(t);
    await h.connect();
    await h.feed("messages.upsert", {
      type: "notify",
      messages: [waMessage({ remoteJid: ANA, fromMe: false, id: "R1" }, {
        extendedTextMessage: {
          text: "yes, this one",
          contextInfo: {
            stanzaId: "ORIGINAL",
            participant: ME,
            quotedMessage: { conversation: "?" },
          },
        },
      })],
    });
    assert.equal(messages(h)[0].quotedId, "ORIGINAL");
    assert.equal(messages(h)[0].body, "yes, this one");
    await h.provider.stop();
  }));

Deno.test("baileys inbound - a forwarded message (contextInfo.isForwarded) is marked forwarded; others are not", () =>
  withApp(async (t) => {
    const h = await baileysHarness(t);
    await h.connect();
    await h.feed("messages.upsert", {
      type: "notify",
      messages: [
        waMessage({ remoteJid: ANA, fromMe: false, id: "F1" }, {
          extendedTextMessage: {
            text: "olha isto",
            contextInfo: { isForwarded: true, forwardingScore: 1 },
          },
        }),
        waMessage({ remoteJid: ANA, fromMe: false, id: "F2" }, { conversation: "meu" }),
      ],
    });
    assert.equal(messages(h)[0].forwarded, true);
    assert.equal(messages(h)[1].forwarded, undefined);
    await h.provider.stop();
  }));

Deno.test("baileys inbound - media is declared (type, mimetype, size, name) and downloaded only on demand", () =>
  withApp(async (t) => {
    const h = await baileysHarness(t);
    await h.connect();
    await h.feed("messages.upsert", {
      type: "notify",
      messages: [
        waMessage({ remoteJid: ANA, fromMe: false, id: "IMG" }, {
          imageMessage: {
            mimetype: "image/jpeg",
            caption: "the receipt",
            fileLength: 123456,
            url: "https://mmg.example/enc",
            mediaKey: new Uint8Array([1, 2, 3]),
          },
        }),
        waMessage({ remoteJid: ANA, fromMe: false, id: "DOC" }, {
          documentWithCaptionMessage: {
            message: {
              documentMessage: {
                mimetype: "application/pdf",
                fileName: "boleto.pdf",
                fileLength: 2048,
              },
            },
          },
        }),
        waMessage({ remoteJid: ANA, fromMe: false, id: "PTT" }, {
          audioMessage: { mimetype: "audio/ogg; codecs=opus", ptt: true, fileLength: 999 },
        }),
        waMessage({ remoteJid: ANA, fromMe: false, id: "VID" }, {
          ephemeralMessage: { message: { videoMessage: { mimetype: "video/mp4", caption: "" } } },
        }),
      ],
    });
    const [img, doc, ptt, vid] = messages(h);
    assert.equal(h.downloads.length, 0, "nothing downloaded before the pipeline asks");
    assert.deepEqual(
      [img.mediaType, img.body, img.media?.mimetype, img.media?.size],
      ["image", "the receipt", "image/jpeg", 123456],
    );
    assert.deepEqual(
      [doc.mediaType, doc.body, doc.media?.filename, doc.media?.size],
      ["application", "boleto.pdf", "boleto.pdf", 2048],
    );
    assert.deepEqual([ptt.mediaType, ptt.media?.mimetype], ["audio", "audio/ogg; codecs=opus"]);
    assert.deepEqual([vid.mediaType, vid.media?.size], ["video", undefined]);
    assert.deepEqual(await img.media!.download(), MEDIA_BYTES);
    assert.equal(h.downloads.length, 1);
    assert.equal(h.downloads[0].key.id, "IMG");
    await h.provider.stop();
  }));

Deno.test("baileys inbound - a failed download is ERR_WAPP_DOWNLOAD_MEDIA", () =>
  withApp(async (t) => {
    const h = await baileysHarness(t, {
      downloadMedia: () => Promise.reject(new Error("410 gone")),
    });
    await h.connect();
    await h.feed("messages.upsert", {
      type: "notify",
      messages: [waMessage({ remoteJid: ANA, fromMe: false, id: "IMG" }, {
        imageMessage: { mimetype: "image/png" },
      })],
    });
    await assert.rejects(
      messages(h)[0].media!.download(),
      (e: { code?: string }) => e.code === "ERR_WAPP_DOWNLOAD_MEDIA",
    );
    await h.provider.stop();
  }));

Deno.test("baileys inbound - location, contact card and contact list", () =>
  withApp(async (t) => {
    const h = await baileysHarness(t);
    await h.connect();
    const vcard =
      "BEGIN:VCARD\nVERSION:3.0\nFN:Bruno\nTEL;waid=5511977776666:+55 11 97777-6666\nEND:VCARD";
    await h.feed("messages.upsert", {
      type: "notify",
      messages: [
        waMessage({ remoteJid: ANA, fromMe: false, id: "LOC" }, {
          locationMessage: {
            degreesLatitude: -23.5505,
            degreesLongitude: -46.6333,
            name: "Loja Centro",
            address: "Praça da Sé",
          },
        }),
        waMessage({ remoteJid: ANA, fromMe: false, id: "VC" }, {
          contactMessage: { displayName: "Bruno", vcard },
        }),
        waMessage({ remoteJid: ANA, fromMe: false, id: "VCS" }, {
          contactsArrayMessage: {
            displayName: "2 contacts",
            contacts: [{ displayName: "Bruno", vcard }, { displayName: "Carla" }],
          },
        }),
      ],
    });
    const [loc, vc, vcs] = messages(h);
    assert.equal(loc.mediaType, "locationMessage");
    assert.equal(
      loc.body,
      "Loja Centro\nPraça da Sé\nhttps://maps.google.com/maps?q=-23.5505%2C-46.6333&z=17",
    );
    assert.deepEqual([vc.mediaType, vc.body], ["vcard", vcard]);
    assert.equal(vcs.mediaType, "vcard");
    assert.equal(vcs.body, `${vcard}\nBEGIN:VCARD\nVERSION:3.0\nFN:Carla\nEND:VCARD`);
    await h.provider.stop();
  }));

Deno.test("baileys inbound - sent from the phone itself: fromMe, chat is the recipient, no pushName", () =>
  withApp(async (t) => {
    const h = await baileysHarness(t);
    await h.connect();
    await h.feed("messages.upsert", {
      type: "notify",
      messages: [waMessage({ remoteJid: ANA, fromMe: true, id: "PHONE1" }, {
        conversation: "typed on the phone",
      }, { pushName: "Loja" })],
    });
    const [m] = messages(h);
    assert.deepEqual([m.fromMe, m.chatJid, m.pushName], [true, ANA, undefined]);
    await h.provider.stop();
  }));

Deno.test("baileys inbound - groups: isGroup, participant, and the participant's PN/LID identities", () =>
  withApp(async (t) => {
    const h = await baileysHarness(t);
    await h.connect();
    await h.feed("messages.upsert", {
      type: "notify",
      messages: [waMessage(
        {
          remoteJid: GROUP,
          fromMe: false,
          id: "G1",
          participant: ANA_LID,
          participantAlt: ANA,
          addressingMode: "lid",
        },
        { conversation: "hi group" },
        { pushName: "Ana" },
      )],
    });
    const [m] = messages(h);
    assert.deepEqual(
      [m.chatJid, m.isGroup, m.participantJid, m.phoneJid, m.lidJid],
      [GROUP, true, ANA, ANA, ANA_LID],
    );
    await h.provider.stop();
  }));

Deno.test("baileys inbound - LID and phone identities: from the alt key or the LID store, one contact", () =>
  withApp(async (t) => {
    const h = await baileysHarness(t);
    await h.connect();
    h.sock().lidMap.set("111122223333444", "5511966665555");
    await h.feed("messages.upsert", {
      type: "notify",
      messages: [
        // v7: the chat arrives as a LID with the phone number as its alternate.
        waMessage({ remoteJid: ANA_LID, remoteJidAlt: ANA, fromMe: false, id: "L1" }, {
          conversation: "via lid",
        }),
        // Same person addressed by phone number with the LID as alternate.
        waMessage({ remoteJid: ANA, remoteJidAlt: ANA_LID, fromMe: false, id: "L2" }, {
          conversation: "via pn",
        }),
        // Only a LID, a device suffix, and the mapping known to Baileys' LID store.
        waMessage({ remoteJid: "111122223333444:7@lid", fromMe: false, id: "L3" }, {
          conversation: "lid only",
        }),
        // Only a LID and no mapping anywhere: the LID stays the identity.
        waMessage({ remoteJid: "999988887777666@lid", fromMe: false, id: "L4" }, {
          conversation: "unknown lid",
        }),
      ],
    });
    const [l1, l2, l3, l4] = messages(h);
    assert.deepEqual([l1.chatJid, l1.phoneJid, l1.lidJid], [ANA, ANA, ANA_LID]);
    assert.deepEqual([l2.chatJid, l2.phoneJid, l2.lidJid], [ANA, ANA, ANA_LID]);
    assert.deepEqual(
      [l3.chatJid, l3.phoneJid, l3.lidJid],
      ["5511966665555@s.whatsapp.net", "5511966665555@s.whatsapp.net", "111122223333444@lid"],
    );
    assert.deepEqual(
      [l4.chatJid, l4.phoneJid, l4.lidJid],
      ["999988887777666@lid", undefined, "999988887777666@lid"],
    );
    await h.provider.stop();
  }));

Deno.test("baileys inbound - deletes and edits made on the phone become revoke and edit events", () =>
  withApp(async (t) => {
    const h = await baileysHarness(t);
    await h.connect();
    const T = proto.Message.ProtocolMessage.Type;
    await h.feed("messages.upsert", {
      type: "notify",
      messages: [
        waMessage({ remoteJid: ANA, fromMe: false, id: "P1" }, {
          protocolMessage: { key: { remoteJid: ANA, fromMe: false, id: "A1" }, type: T.REVOKE },
        }),
        waMessage({ remoteJid: ANA, fromMe: false, id: "P2" }, {
          editedMessage: {
            message: {
              protocolMessage: {
                key: { remoteJid: ANA, fromMe: false, id: "A2" },
                type: T.MESSAGE_EDIT,
                editedMessage: { conversation: "fixed typo" },
              },
            },
          },
        }),
        waMessage({ remoteJid: ANA, fromMe: false, id: "P3" }, {
          protocolMessage: { type: T.EPHEMERAL_SETTING, ephemeralExpiration: 86400 },
        }),
      ],
    });
    assert.deepEqual(h.of("revoke"), [{ type: "revoke", id: "A1", chatJid: ANA }]);
    assert.deepEqual(h.of("edit"), [{ type: "edit", id: "A2", chatJid: ANA, body: "fixed typo" }]);
    assert.equal(messages(h).length, 0, "protocol messages are never stored as messages");
    await h.provider.stop();
  }));

Deno.test("baileys inbound - noise is skipped and a malformed message does not stop the batch", () =>
  withApp(async (t) => {
    const h = await baileysHarness(t);
    await h.connect();
    await h.feed("messages.upsert", {
      type: "notify",
      messages: [
        waMessage({ remoteJid: "status@broadcast", fromMe: false, id: "S1", participant: ANA }, {
          conversation: "my status",
        }),
        waMessage({ remoteJid: ANA, fromMe: false, id: "RX" }, {
          reactionMessage: { key: { remoteJid: ANA, id: "A1" }, text: "👍" },
        }),
        // A decryption placeholder (stub without content) must not take the id of the real one.
        waMessage({ remoteJid: ANA, fromMe: false, id: "STUB" }, null, { messageStubType: 2 }),
        waMessage({ remoteJid: ANA, fromMe: false, id: "SKD" }, {
          senderKeyDistributionMessage: { groupId: GROUP },
        }),
        waMessage({ remoteJid: ANA, fromMe: false, id: "UNK" }, {
          groupInviteMessage: { groupJid: GROUP, inviteCode: "x" },
        }),
        { key: null } as never,
        { key: { remoteJid: ANA }, message: { conversation: "no id" } } as never,
        waMessage({ remoteJid: ANA, fromMe: false, id: "OK" }, { conversation: "still here" }),
      ],
    });
    assert.deepEqual(messages(h).map((m) => m.id), ["OK"]);
    // The session keeps running after it.
    await h.feed("messages.upsert", {
      type: "notify",
      messages: [waMessage({ remoteJid: ANA, fromMe: false, id: "OK2" }, { conversation: "yes" })],
    });
    assert.deepEqual(messages(h).map((m) => m.id), ["OK", "OK2"]);
    await h.provider.stop();
  }));

Deno.test("baileys inbound - acks: Baileys statuses to our 1..4 scale, only for what we sent", () =>
  withApp(async (t) => {
    const h = await baileysHarness(t);
    await h.connect();
    const S = proto.WebMessageInfo.Status;
    await h.feed("messages.update", [
      { key: { remoteJid: ANA, fromMe: true, id: "M1" }, update: { status: S.SERVER_ACK } },
      { key: { remoteJid: ANA, fromMe: true, id: "M1" }, update: { status: S.DELIVERY_ACK } },
      {
        key: { remoteJid: ANA_LID, remoteJidAlt: ANA, fromMe: true, id: "M1" },
        update: { status: S.READ },
      },
      { key: { remoteJid: ANA, fromMe: true, id: "M2" }, update: { status: S.PLAYED } },
      { key: { remoteJid: ANA, fromMe: true, id: "M3" }, update: { status: S.ERROR } },
      { key: { remoteJid: ANA, fromMe: false, id: "IN" }, update: { status: S.READ } },
      { key: { remoteJid: ANA, fromMe: true, id: "M4" }, update: { starred: true } },
    ]);
    await h.feed("message-receipt.update", [
      {
        key: { remoteJid: GROUP, fromMe: true, id: "G1" },
        receipt: { userJid: ANA, readTimestamp: 1_763_812_900 },
      },
    ]);
    assert.deepEqual(h.of("ack").map((e) => [e.id, e.chatJid, e.ack]), [
      ["M1", ANA, 1],
      ["M1", ANA, 2],
      ["M1", ANA, 3],
      ["M2", ANA, 4],
      ["G1", GROUP, 3],
    ]);
    await h.provider.stop();
  }));

Deno.test("baileys inbound - calls and contacts", () =>
  withApp(async (t) => {
    const h = await baileysHarness(t);
    await h.connect();
    await h.feed("call", [
      {
        chatId: ANA_LID,
        from: ANA_LID,
        callerPn: ANA,
        id: "CALL1",
        date: new Date(),
        isVideo: true,
        status: "offer",
        offline: false,
      },
      {
        chatId: ANA,
        from: ANA,
        id: "CALL1",
        date: new Date(),
        status: "terminate",
        offline: false,
      },
    ]);
    assert.deepEqual(h.of("call"), [{
      type: "call",
      id: "CALL1",
      from: ANA,
      isVideo: true,
      status: "offer",
    }]);
    await h.feed("contacts.upsert", [
      { id: ANA_LID, phoneNumber: ANA, notify: "Ana" },
      {
        id: "5511955554444@s.whatsapp.net",
        name: "Dora (saved)",
        imgUrl: "https://pps.example/d.jpg",
      },
      { id: "5511944443333@s.whatsapp.net", status: "busy" },
    ]);
    await h.feed("contacts.update", [{ id: ANA, imgUrl: "changed" }]);
    await h.feed("lid-mapping.update", {
      lid: "777766665555444@lid",
      pn: "5511933332222@s.whatsapp.net",
    });
    assert.deepEqual(h.of("contact"), [
      {
        type: "contact",
        jid: ANA,
        name: "Ana",
        phoneJid: ANA,
        lidJid: ANA_LID,
        profilePicUrl: undefined,
      },
      {
        type: "contact",
        jid: "5511955554444@s.whatsapp.net",
        name: "Dora (saved)",
        phoneJid: "5511955554444@s.whatsapp.net",
        lidJid: undefined,
        profilePicUrl: "https://pps.example/d.jpg",
      },
      {
        type: "contact",
        jid: "5511933332222@s.whatsapp.net",
        phoneJid: "5511933332222@s.whatsapp.net",
        lidJid: "777766665555444@lid",
      },
    ]);
    await h.provider.stop();
  }));

Deno.test("baileys inbound - getMessage serves stored messages to Baileys' retry requests", () =>
  withApp(async (t) => {
    const h = await baileysHarness(t);
    await h.connect();
    const getMessage = h.sock().config.getMessage!;
    assert.equal(await getMessage({ remoteJid: ANA, fromMe: true, id: "NOPE" }), undefined);

    const sent = await h.provider.sendText(ANA, "your order shipped");
    h.stored.set(sent.id, sent.raw); // what the outbox keeps
    const again = await getMessage({ remoteJid: ANA, fromMe: true, id: sent.id });
    assert.equal(again?.extendedTextMessage?.text ?? again?.conversation, "your order shipped");

    // Stored as JSON text (a database column) works the same.
    h.stored.set(
      "TEXT",
      JSON.stringify(toRaw(waMessage({ remoteJid: ANA, fromMe: false, id: "TEXT" }, {
        imageMessage: { mimetype: "image/png", mediaKey: new Uint8Array([4, 5, 6]) },
      }))),
    );
    const image = await getMessage({ remoteJid: ANA, fromMe: false, id: "TEXT" });
    assert.deepEqual([...(image?.imageMessage?.mediaKey ?? [])], [4, 5, 6]);
    await h.provider.stop();
  }));

Deno.test("baileys inbound - a pipeline failure is offered again (Baileys already sent the receipt)", () =>
  withApp(async (t) => {
    const h = await baileysHarness(t);
    await h.connect();
    h.failNextDeliveries = 1;
    await h.feed("messages.upsert", {
      type: "notify",
      messages: [
        waMessage({ remoteJid: ANA, fromMe: false, id: "RETRY1" }, { conversation: "hi" }),
      ],
    });
    assert.equal(messages(h).length, 0);
    assert.deepEqual(h.timers.delays(), [1_000]);
    h.timers.fireAll();
    await h.provider.settled();
    assert.deepEqual(messages(h).map((m) => m.id), ["RETRY1"]);

    // It gives up after the configured pauses, and the session goes on.
    h.failNextDeliveries = 4;
    await h.feed("messages.upsert", {
      type: "notify",
      messages: [waMessage({ remoteJid: ANA, fromMe: false, id: "LOST" }, { conversation: "x" })],
    });
    for (const pause of [1_000, 5_000, 30_000]) {
      assert.deepEqual(h.timers.delays(), [pause]);
      h.timers.fireAll();
      await h.provider.settled();
    }
    assert.equal(h.timers.pending.size, 0);
    await h.feed("messages.upsert", {
      type: "notify",
      messages: [waMessage({ remoteJid: ANA, fromMe: false, id: "NEXT" }, { conversation: "y" })],
    });
    assert.deepEqual(messages(h).map((m) => m.id), ["RETRY1", "NEXT"]);
    await h.provider.stop();
  }));
