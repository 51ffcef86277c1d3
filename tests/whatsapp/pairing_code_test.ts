import assert from "node:assert/strict";
import { createTestApp, twoCompanies } from "../helpers/app.ts";
import { serve, TestSocket } from "../helpers/server.ts";

Deno.test("pairing code - an admin links by phone number: the code is answered and pushed, the scan connects", async () => {
  const t = await createTestApp();
  const s = serve(t);
  const sockets: TestSocket[] = [];
  try {
    const { a, b } = await twoCompanies(t);
    const created = await t.request("POST", "/api/whatsapp", {
      token: a.admin.token,
      body: { name: "Pareamento", provider: "simulator" },
    });
    const { id } = await created.json();
    const adminA = await TestSocket.connect(s.wsUrl, a.admin.token);
    const userA = await TestSocket.connect(s.wsUrl, a.user.token);
    const adminB = await TestSocket.connect(s.wsUrl, b.admin.token);
    sockets.push(adminA, userA, adminB);

    // Company B cannot ask for A's code; a user may not at all; the number must be valid.
    const foreign = await t.request("POST", `/api/whatsappsession/${id}/pairing-code`, {
      token: b.admin.token,
      body: { phoneNumber: "5511988887777" },
    });
    assert.equal(foreign.status, 404);
    assert.equal((await foreign.json()).error, "ERR_NO_WAPP_FOUND");
    const user = await t.request("POST", `/api/whatsappsession/${id}/pairing-code`, {
      token: a.user.token,
      body: { phoneNumber: "5511988887777" },
    });
    assert.equal(user.status, 403);
    const invalid = await t.request("POST", `/api/whatsappsession/${id}/pairing-code`, {
      token: a.admin.token,
      body: { phoneNumber: "123" },
    });
    assert.equal(invalid.status, 400);
    assert.equal((await invalid.json()).error, "ERR_WAPP_INVALID_CONTACT");

    const res = await t.request("POST", `/api/whatsappsession/${id}/pairing-code`, {
      token: a.admin.token,
      body: { phoneNumber: "+55 (11) 98888-7777" },
    });
    assert.equal(res.status, 200);
    const { code } = await res.json();
    assert.match(code, /^[A-Z2-9]{8}$/);
    const pushed = await adminA.next((e) =>
      e.event === `company-${a.id}-whatsappSession` &&
      (e.data as { session: { status: string } }).session.status === "PAIRING"
    );
    const session = (pushed.data as { session: Record<string, unknown> }).session;
    assert.equal(session.pairingCode, code);
    assert.equal(session.qrcode, "");
    // A user sees the status (the menu badge) but never the code that would link a phone.
    const userSeen = await userA.next((e) =>
      e.event === `company-${a.id}-whatsappSession` &&
      (e.data as { session: { status: string } }).session.status === "PAIRING"
    );
    assert.equal(
      (userSeen.data as { session: Record<string, unknown> }).session.pairingCode,
      undefined,
    );
    const row = await t.deps.db.selectFrom("whatsapps").select(["status", "qrcode"])
      .where("id", "=", id).executeTakeFirstOrThrow();
    assert.deepEqual(row, { status: "PAIRING", qrcode: "" });

    // Typing the code on the phone (the simulator's scan) links the device.
    const scan = await t.request("POST", `/api/simulator/${id}/scan`, { token: a.admin.token });
    assert.equal(scan.status, 200);
    await userA.next((e) =>
      e.event === `company-${a.id}-whatsappSession` &&
      (e.data as { session: { status: string } }).session.status === "CONNECTED"
    );
    // Once connected there is nothing to pair.
    const late = await t.request("POST", `/api/whatsappsession/${id}/pairing-code`, {
      token: a.admin.token,
      body: { phoneNumber: "5511988887777" },
    });
    assert.equal(late.status, 409);
    assert.equal((await late.json()).error, "ERR_WAPP_NOT_INITIALIZED");
    await adminB.settle();
    assert.equal(adminB.events.filter((e) => e.event.includes("whatsapp")).length, 0);
  } finally {
    for (const socket of sockets) await socket.close();
    t.deps.hub.closeAll();
    await s.close();
    await t.close();
  }
});
