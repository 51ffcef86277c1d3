import assert from "node:assert/strict";
import { createUser, twoCompanies } from "../helpers/app.ts";
import { TestSocket, withServer } from "../helpers/server.ts";
import { addTicket, scene } from "../helpers/tickets.ts";
import { LIMITS } from "../../contract/validation.ts";

type Listed = { id: number; pinned?: boolean };

Deno.test("ticket pins - per user, first in the caller's list, in GET /:id, live on the user's own sockets, tenancy", () =>
  withServer(async (t, wsUrl) => {
    const { a, b } = await twoCompanies(t);
    const s = await scene(t, a);
    const early = "2026-01-01T10:00:00.000Z";
    const old = await addTicket(t, a.id, { contactId: s.contactId, queueId: s.q1, at: early });
    const other = await addTicket(t, a.id, {
      contactId: s.contactId,
      queueId: s.q1,
      whatsappId: s.whatsappId,
    });
    const colleague = await createUser(t, a.id, {
      name: "Carla",
      email: "carla@alpha.test",
      queueIds: [s.q1],
    });
    const mine = await TestSocket.connect(wsUrl, a.user.token);
    const theirs = await TestSocket.connect(wsUrl, colleague.token);
    try {
      const pin = await t.request("POST", `/api/tickets/${old.id}/pin`, { token: a.user.token });
      assert.equal(pin.status, 200, await pin.clone().text());
      assert.equal((await pin.json()).pinned, true);
      const heard = await mine.next((e) => e.event === `company-${a.id}-ticketPin`);
      assert.deepEqual(heard.data, { action: "pin", ticketId: old.id });

      // The older ticket comes first for its pinner only.
      const list = async (token: string) => {
        const res = await t.request("GET", "/api/tickets?status=pending", { token });
        assert.equal(res.status, 200);
        return (await res.json()).tickets as Listed[];
      };
      const first = await list(a.user.token);
      assert.deepEqual(first.map((x) => [x.id, x.pinned]), [[old.id, true], [other.id, false]]);
      const hers = await list(colleague.token);
      assert.deepEqual(hers.map((x) => [x.id, x.pinned]), [[other.id, false], [old.id, false]]);
      const shown = await t.request("GET", `/api/tickets/${old.id}`, { token: a.user.token });
      assert.equal((await shown.json()).pinned, true);
      await theirs.settle();
      assert.equal(theirs.named(`company-${a.id}-ticketPin`).length, 0);

      // Pinning again changes nothing; another company's ticket answers like a missing one.
      const again = await t.request("POST", `/api/tickets/${old.id}/pin`, { token: a.user.token });
      assert.equal(again.status, 200);
      const count = await t.deps.db.selectFrom("ticket_pins").select("ticketId")
        .where("companyId", "=", a.id).execute();
      assert.equal(count.length, 1);
      const foreign = await t.request("POST", `/api/tickets/${old.id}/pin`, {
        token: b.admin.token,
      });
      assert.equal(foreign.status, 404);
      assert.equal((await foreign.json()).error, "ERR_NO_TICKET_FOUND");
      const foreignDelete = await t.request("DELETE", `/api/tickets/${old.id}/pin`, {
        token: b.admin.token,
      });
      assert.equal(foreignDelete.status, 404);

      const unpin = await t.request("DELETE", `/api/tickets/${old.id}/pin`, {
        token: a.user.token,
      });
      assert.equal(unpin.status, 204);
      const unheard = await mine.next((e) =>
        e.event === `company-${a.id}-ticketPin` && (e.data as { action: string }).action === "unpin"
      );
      assert.deepEqual(unheard.data, { action: "unpin", ticketId: old.id });
      const after = await list(a.user.token);
      assert.deepEqual(after.map((x) => [x.id, x.pinned]), [[other.id, false], [old.id, false]]);
    } finally {
      await mine.close();
      await theirs.close();
    }
  }));

Deno.test("ticket pins - a ticket outside the caller's queues cannot be pinned; the limit per user is ERR_PIN_LIMIT", () =>
  withServer(async (t) => {
    const { a } = await twoCompanies(t);
    const s = await scene(t, a);
    const elsewhere = await addTicket(t, a.id, { contactId: s.contactId, queueId: s.q2 });
    const refused = await t.request("POST", `/api/tickets/${elsewhere.id}/pin`, {
      token: a.user.token,
    });
    assert.equal(refused.status, 403);
    assert.equal((await refused.json()).error, "ERR_NO_PERMISSION");

    const max = LIMITS.pinnedTickets.max;
    const tickets = [];
    for (let i = 0; i <= max; i++) {
      tickets.push(await addTicket(t, a.id, { contactId: s.contactId, queueId: s.q1 }));
    }
    for (const ticket of tickets.slice(0, max)) {
      const res = await t.request("POST", `/api/tickets/${ticket.id}/pin`, { token: a.user.token });
      assert.equal(res.status, 200);
    }
    const past = await t.request("POST", `/api/tickets/${tickets[max].id}/pin`, {
      token: a.user.token,
    });
    assert.equal(past.status, 409);
    assert.equal((await past.json()).error, "ERR_PIN_LIMIT");
    // Another user has their own pins.
    const admin = await t.request("POST", `/api/tickets/${tickets[max].id}/pin`, {
      token: a.admin.token,
    });
    assert.equal(admin.status, 200);
  }));
