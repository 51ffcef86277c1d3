import assert from "node:assert/strict";
import { createTestApp, twoCompanies } from "../helpers/app.ts";
import { serve, TestSocket } from "../helpers/server.ts";
import { phoneSends } from "./helpers.ts";

Deno.test("realtime - session and message events reach company A's sockets, never B's", async () => {
  const t = await createTestApp();
  const s = serve(t);
  const sockets: TestSocket[] = [];
  try {
    const { a, b } = await twoCompanies(t);
    const userA = await TestSocket.connect(s.wsUrl, a.user.token);
    const adminA = await TestSocket.connect(s.wsUrl, a.admin.token);
    const adminB = await TestSocket.connect(s.wsUrl, b.admin.token);
    sockets.push(userA, adminA, adminB);
    userA.send("joinTickets", "pending");
    adminB.send("joinTickets", "pending");
    adminB.send("joinNotification");
    // Both in their rooms before anything happens: B's silence below is not a late join.
    await userA.settle();
    await adminB.settle();

    const created = await t.request("POST", "/api/whatsapp", {
      token: a.admin.token,
      body: { name: "Live", provider: "simulator" },
    });
    const { id } = await created.json();
    const isQr = (e: { event: string; data: unknown }) =>
      e.event === `company-${a.id}-whatsappSession` &&
      (e.data as { session: { status: string } }).session.status === "qrcode";
    const qr = await adminA.next(isQr);
    const session = qr.data as { action: string; session: Record<string, unknown> };
    assert.equal(session.action, "update");
    assert.equal(session.session.id, id);
    assert.match(String(session.session.qrcode), /^data:image\/png;base64,/);
    assert.equal(session.session.retries, 1);
    // a user hears the status (the menu's alert badge) but never gets the QR to link a phone
    const userQr = await userA.next(isQr);
    assert.equal((userQr.data as { session: { qrcode: string } }).session.qrcode, "");
    const listed = await t.request("GET", `/api/whatsapp/${id}`, { token: a.user.token });
    assert.equal((await listed.json()).qrcode, "");
    await userA.next((e) => e.event === `company-${a.id}-whatsapp`);

    await t.request("POST", `/api/simulator/${id}/scan`, { token: a.user.token });
    await userA.next((e) =>
      e.event === `company-${a.id}-whatsappSession` &&
      (e.data as { session: { status: string; qrcode: string } }).session.status === "CONNECTED"
    );

    const got = await phoneSends(t, a.user.token, id, {
      from: "5511955550000",
      name: "Zé",
      body: "olá",
    });
    const message = await userA.next((e) => e.event === `company-${a.id}-appMessage`);
    const data = message.data as {
      action: string;
      message: { id: number; body: string };
      ticket: { id: number };
    };
    assert.equal(data.action, "create");
    assert.equal(data.message.id, got.id);
    assert.equal(data.message.body, "olá");
    assert.equal(data.ticket.id, got.ticketId);
    const ticket = await userA.next((e) => e.event === `company-${a.id}-ticket`);
    assert.equal((ticket.data as { action: string }).action, "update");

    await adminB.settle();
    assert.deepEqual(
      adminB.events.filter((e) => !["ready", "ping", "joined"].includes(e.event)),
      [],
    );
  } finally {
    for (const socket of sockets) await socket.close();
    await s.close();
    await t.close();
  }
});
