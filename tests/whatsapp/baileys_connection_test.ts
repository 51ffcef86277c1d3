import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { DisconnectReason } from "@whiskeysockets/baileys";
import { withApp } from "../helpers/app.ts";
import { useDatabaseAuthState } from "../../server/whatsapp/providers/baileys/auth_state.ts";
import { countAuthValues } from "../../server/whatsapp/providers/baileys/auth_repository.ts";
import { closeError } from "./baileys_fake.ts";
import { baileysHarness, COMPANY } from "./baileys_harness.ts";

Deno.test("baileys connection - socket config: offline-safe options and no network at construction", () =>
  withApp(async (t) => {
    const h = await baileysHarness(t);
    assert.equal(h.sockets.length, 0);
    await h.provider.start();
    assert.equal(h.sockets.length, 1);
    const config = h.sock().config;
    assert.equal(config.markOnlineOnConnect, false);
    assert.equal(config.syncFullHistory, false);
    assert.equal(config.emitOwnEvents, false);
    assert.equal(config.browser?.length, 3);
    assert.equal(typeof config.getMessage, "function");
    assert.equal(config.shouldIgnoreJid?.("status@broadcast"), true);
    assert.equal(config.shouldIgnoreJid?.("5511988887777@s.whatsapp.net"), false);
    await h.provider.start(); // idempotent
    assert.equal(h.sockets.length, 1);
    await h.provider.stop();
  }));

Deno.test("baileys connection - a QR becomes a qr event and status qrcode; new QRs do not repeat the status", () =>
  withApp(async (t) => {
    const h = await baileysHarness(t);
    await h.provider.start();
    await h.feed("connection.update", { connection: "connecting", qr: undefined });
    await h.feed("connection.update", { qr: "2@first-ref,noise,identity,adv" });
    await h.feed("connection.update", { qr: "2@second-ref,noise,identity,adv" });
    assert.deepEqual(h.of("qr").map((e) => e.qr), [
      "2@first-ref,noise,identity,adv",
      "2@second-ref,noise,identity,adv",
    ]);
    assert.deepEqual(h.statuses(), [{ status: "OPENING", reason: undefined }, {
      status: "qrcode",
      reason: undefined,
    }]);
    await h.provider.stop();
  }));

Deno.test("baileys connection - open emits connected with the number and status CONNECTED", () =>
  withApp(async (t) => {
    const h = await baileysHarness(t);
    await h.connect();
    assert.deepEqual(h.of("connected"), [{ type: "connected", number: "5511900000001" }]);
    assert.deepEqual(h.statuses().at(-1), { status: "CONNECTED", reason: undefined });
    await h.provider.stop();
  }));

Deno.test("baileys connection - creds.update is persisted and read back by a fresh auth state", () =>
  withApp(async (t) => {
    const h = await baileysHarness(t);
    await h.provider.start();
    const creds = h.sock().config.auth!.creds;
    await h.feed("creds.update", {
      me: { id: "5511900000001:12@s.whatsapp.net", name: "Loja", lid: "99887766554433:12@lid" },
      routingInfo: Buffer.from([7, 7, 7]),
    });
    const fresh = await useDatabaseAuthState(t.deps.db, COMPANY, h.whatsappId, t.clock);
    assert.equal(fresh.state.creds.me?.id, "5511900000001:12@s.whatsapp.net");
    assert.equal(fresh.state.creds.me?.lid, "99887766554433:12@lid");
    assert.deepEqual([...fresh.state.creds.routingInfo!], [7, 7, 7]);
    assert.deepEqual(
      [...fresh.state.creds.signedIdentityKey.private],
      [...creds.signedIdentityKey.private],
    );
    await h.provider.stop();
  }));

Deno.test("baileys connection - logged out from the phone (401): auth cleared, loggedOut, no reconnect", () =>
  withApp(async (t) => {
    const h = await baileysHarness(t);
    await h.connect();
    await h.feed("creds.update", { me: { id: "5511900000001:12@s.whatsapp.net" } });
    assert.equal((await countAuthValues(t.deps.db, COMPANY, h.whatsappId)).creds, 1);

    await h.feed("connection.update", {
      connection: "close",
      lastDisconnect: { error: closeError(DisconnectReason.loggedOut), date: new Date() },
    });
    assert.equal(h.of("loggedOut").length, 1);
    assert.deepEqual(h.statuses().at(-1), { status: "DISCONNECTED", reason: "loggedOut" });
    assert.deepEqual(await countAuthValues(t.deps.db, COMPANY, h.whatsappId), {});
    assert.equal(h.timers.pending.size, 0);
    h.timers.fireAll();
    assert.equal(h.sockets.length, 1);
    await assert.rejects(
      h.provider.sendText("5511988887777", "hi"),
      (e: { code?: string }) => e.code === "ERR_WAPP_NOT_INITIALIZED",
    );
    // A later start begins from scratch: a new QR.
    await h.provider.start();
    assert.equal(h.sockets.length, 2);
    assert.equal(h.sock().config.auth!.creds.me, undefined);
    await h.provider.stop();
  }));

Deno.test("baileys connection - connection replaced (440) stops without reconnecting", () =>
  withApp(async (t) => {
    const h = await baileysHarness(t);
    await h.connect();
    await h.feed("creds.update", { me: { id: "5511900000001:12@s.whatsapp.net" } });
    await h.feed("connection.update", {
      connection: "close",
      lastDisconnect: { error: closeError(DisconnectReason.connectionReplaced), date: new Date() },
    });
    assert.deepEqual(h.statuses().at(-1), { status: "DISCONNECTED", reason: "connectionReplaced" });
    assert.equal(h.timers.pending.size, 0);
    h.timers.fireAll();
    assert.equal(h.sockets.length, 1);
    assert.equal(h.of("loggedOut").length, 0);
    // Credentials are kept: the operator may take the session back with "try again".
    assert.equal((await countAuthValues(t.deps.db, COMPANY, h.whatsappId)).creds, 1);
  }));

Deno.test("baileys connection - transient closes reconnect with growing, capped backoff, then TIMEOUT", () =>
  withApp(async (t) => {
    const h = await baileysHarness(t, {
      backoff: { baseMs: 1_000, capMs: 4_000, maxAttempts: 4 },
    });
    await h.connect();
    const delays: number[] = [];
    for (let attempt = 1; attempt <= 4; attempt++) {
      await h.feed("connection.update", {
        connection: "close",
        lastDisconnect: { error: closeError(DisconnectReason.connectionClosed), date: new Date() },
      });
      assert.equal(h.statuses().at(-1)?.status, "OPENING");
      assert.match(h.statuses().at(-1)?.reason ?? "", new RegExp(`retry ${attempt}/4`));
      delays.push(...h.timers.delays());
      assert.equal(h.timers.pending.size, 1);
      h.timers.fireAll();
      await h.provider.settled();
      assert.equal(h.sockets.length, attempt + 1);
      await h.feed("connection.update", { connection: "connecting" });
      assert.equal(h.statuses().at(-1)?.status, "OPENING");
    }
    // random() = 0.5 -> 3/4 of the exponential step; the cap holds from the third attempt.
    assert.deepEqual(delays, [750, 1500, 3000, 3000]);
    await h.feed("connection.update", {
      connection: "close",
      lastDisconnect: {
        error: new Error("getaddrinfo ENOTFOUND web.whatsapp.com"),
        date: new Date(),
      },
    });
    assert.equal(h.statuses().at(-1)?.status, "TIMEOUT");
    assert.equal(h.timers.pending.size, 0);
  }));

Deno.test("baileys connection - an open connection resets the backoff", () =>
  withApp(async (t) => {
    const h = await baileysHarness(t, {
      backoff: { baseMs: 1_000, capMs: 60_000, maxAttempts: 5 },
    });
    await h.connect();
    for (let i = 0; i < 3; i++) {
      await h.feed("connection.update", {
        connection: "close",
        lastDisconnect: { error: closeError(408, "Connection was lost"), date: new Date() },
      });
      h.timers.fireAll();
      await h.provider.settled();
    }
    await h.feed("connection.update", { connection: "open" });
    await h.feed("connection.update", {
      connection: "close",
      lastDisconnect: { error: closeError(428), date: new Date() },
    });
    assert.deepEqual(h.timers.delays(), [750]);
    await h.provider.stop();
  }));

Deno.test("baileys connection - restart required (515) reconnects at once", () =>
  withApp(async (t) => {
    const h = await baileysHarness(t);
    await h.provider.start();
    await h.feed("connection.update", { qr: "2@ref" });
    await h.feed("connection.update", { isNewLogin: true, qr: undefined });
    await h.feed("connection.update", {
      connection: "close",
      lastDisconnect: { error: closeError(DisconnectReason.restartRequired), date: new Date() },
    });
    assert.deepEqual(h.timers.delays(), [0]);
    h.timers.fireAll();
    await h.provider.settled();
    assert.equal(h.sockets.length, 2);
    assert.equal(h.statuses().at(-1)?.status, "OPENING");
    await h.provider.stop();
  }));

Deno.test("baileys connection - QR codes nobody scanned (408) stop instead of printing more", () =>
  withApp(async (t) => {
    const h = await baileysHarness(t);
    await h.provider.start();
    await h.feed("connection.update", { qr: "2@ref" });
    await h.feed("connection.update", {
      connection: "close",
      lastDisconnect: { error: closeError(408, "QR refs attempts ended"), date: new Date() },
    });
    assert.deepEqual(h.statuses().at(-1), { status: "DISCONNECTED", reason: "qrTimeout" });
    assert.equal(h.timers.pending.size, 0);

    // A lost network while a QR is up is also 408, and that one does reconnect.
    await h.provider.start();
    await h.feed("connection.update", { qr: "2@ref-2" });
    await h.feed("connection.update", {
      connection: "close",
      lastDisconnect: { error: closeError(408, "WebSocket Error (ETIMEDOUT)"), date: new Date() },
    });
    assert.equal(h.timers.pending.size, 1);
    await h.provider.stop();
  }));

Deno.test("baileys connection - stop ends the socket and nothing reconnects; start resumes the session", () =>
  withApp(async (t) => {
    const h = await baileysHarness(t);
    await h.connect();
    await h.feed("creds.update", { me: { id: "5511900000001:12@s.whatsapp.net" } });
    const first = h.sock();
    const before = h.events.length;
    await h.provider.stop();
    assert.equal(first.ended, true);
    assert.equal(h.timers.pending.size, 0);
    assert.equal(h.events.length, before, "stop emits nothing: the manager knows");
    first.emit("connection.update", { connection: "open" });
    await h.provider.settled();
    assert.equal(h.events.length, before, "a stopped socket's late events are ignored");
    await h.provider.start();
    assert.equal(h.sockets.length, 2);
    assert.equal(h.sock().config.auth!.creds.me?.id, "5511900000001:12@s.whatsapp.net");
    await h.provider.stop();
  }));

Deno.test("baileys connection - logout unlinks on WhatsApp and forgets the credentials", () =>
  withApp(async (t) => {
    const h = await baileysHarness(t);
    await h.connect();
    await h.feed("creds.update", { me: { id: "5511900000001:12@s.whatsapp.net" } });
    const sock = h.sock();
    await h.provider.logout();
    assert.equal(sock.loggedOut, true);
    assert.deepEqual(await countAuthValues(t.deps.db, COMPANY, h.whatsappId), {});
    assert.equal(h.timers.pending.size, 0);
    assert.equal(h.sockets.length, 1);
  }));

Deno.test("baileys connection - pairing code: waits for the socket, emits the code, status PAIRING", () =>
  withApp(async (t) => {
    const h = await baileysHarness(t);
    const pending = h.provider.requestPairingCode("+55 (11) 98888-7777");
    await h.provider.settled();
    assert.equal(h.sockets.length, 1);
    await h.feed("connection.update", { qr: "2@ref" });
    assert.equal(await pending, "ABCD1234");
    assert.equal(h.sock().pairingPhone, "5511988887777");
    assert.deepEqual(h.of("pairingCode"), [{ type: "pairingCode", code: "ABCD1234" }]);
    assert.equal(h.statuses().at(-1)?.status, "PAIRING");
    const qrs = h.of("qr").length;
    await h.feed("connection.update", { qr: "2@another-ref" });
    assert.equal(h.of("qr").length, qrs, "QR codes are hidden while a code is pending");
    await assert.rejects(
      h.provider.requestPairingCode("12"),
      (e: { code?: string }) => e.code === "ERR_VALIDATION",
    );
    await h.provider.stop();
  }));

Deno.test("baileys connection - a socket that fails to build is retried with backoff", () =>
  withApp(async (t) => {
    let calls = 0;
    const h = await baileysHarness(t, {
      makeSocket: () => {
        calls++;
        throw new Error("boom at construction");
      },
    });
    await h.provider.start();
    assert.equal(calls, 1);
    assert.match(h.statuses().at(-1)?.reason ?? "", /boom at construction; retry 1/);
    assert.deepEqual(h.timers.delays(), [750]);
    h.timers.fireAll();
    await h.provider.settled();
    assert.equal(calls, 2);
    await h.provider.stop();
    assert.equal(h.timers.pending.size, 0);
  }));
