import assert from "node:assert/strict";
import { type TestApp, type TestCompany, twoCompanies, withApp } from "../helpers/app.ts";
import { addContact } from "../helpers/tickets.ts";
import { sockets, withServedApp } from "../helpers/admin_fixtures.ts";
import { eventually } from "../helpers/eventually.ts";
import { markRefusedSchedules, sendDueSchedules } from "../../server/schedules/sending.ts";

/** A schedule due now, through the API. */
async function scheduleNow(t: TestApp, c: TestCompany, contactId: number, body = "Lembrete!") {
  const res = await t.request("POST", "/api/schedules", {
    token: c.admin.token,
    body: { body, contactId, sendAt: t.clock.now().toISOString() },
  });
  assert.equal(res.status, 201, await res.clone().text());
  return (await res.json()) as { id: number };
}

async function readSchedule(t: TestApp, c: TestCompany, id: number) {
  const res = await t.request("GET", `/api/schedules/${id}`, { token: c.admin.token });
  assert.equal(res.status, 200);
  return await res.json();
}

Deno.test("schedules - a send time in the past is refused with ERR_SCHEDULE_IN_PAST; nothing is stored or changed", () =>
  withApp(async (t) => {
    const { a } = await twoCompanies(t);
    const contactId = await addContact(t, a.id, "Maria", "5511988887777");
    const past = new Date(t.clock.now().getTime() - 3600_000).toISOString();
    const res = await t.request("POST", "/api/schedules", {
      token: a.admin.token,
      body: { body: "Lembrete atrasado", contactId, sendAt: past },
    });
    assert.equal(res.status, 400);
    const answer = await res.json();
    assert.equal(answer.error, "ERR_SCHEDULE_IN_PAST");
    assert.deepEqual(answer.fields, { sendAt: ["A data de envio já passou"] });
    assert.equal((await t.deps.db.selectFrom("schedules").selectAll().execute()).length, 0);

    const future = new Date(t.clock.now().getTime() + 3600_000).toISOString();
    const created = await (await t.request("POST", "/api/schedules", {
      token: a.admin.token,
      body: { body: "Lembrete certo", contactId, sendAt: future },
    })).json();
    const moved = await t.request("PUT", `/api/schedules/${created.id}`, {
      token: a.admin.token,
      body: { sendAt: past },
    });
    assert.equal(moved.status, 400);
    assert.equal((await moved.json()).error, "ERR_SCHEDULE_IN_PAST");
    const row = await t.deps.db.selectFrom("schedules").select("sendAt").executeTakeFirstOrThrow();
    assert.equal(row.sendAt, future);
  }));

Deno.test("schedules job - records why a send failed: no connection, not connected, invalid number, the provider's refusal", () =>
  withApp(async (t) => {
    const { a, b } = await twoCompanies(t);
    const maria = await addContact(t, a.id, "Maria", "5511988887777");

    // No default connection at all.
    const none = await scheduleNow(t, a, maria);
    await sendDueSchedules(t.deps);
    const noneView = await readSchedule(t, a, none.id);
    assert.deepEqual([noneView.status, noneView.errorCode], ["ERRO", "ERR_NO_DEF_WAPP_FOUND"]);

    // A default connection that is not connected (created, never scanned).
    const created = await t.request("POST", "/api/whatsapp", {
      token: a.admin.token,
      body: { name: "Parado", provider: "simulator", isDefault: true },
    });
    const idle = (await created.json()).id as number;
    const notConnected = await scheduleNow(t, a, maria);
    await sendDueSchedules(t.deps);
    const idleView = await readSchedule(t, a, notConnected.id);
    assert.deepEqual([idleView.status, idleView.errorCode], ["ERRO", "ERR_WAPP_NOT_INITIALIZED"]);

    // Connected now: a number WhatsApp cannot take, and a recipient the provider refuses.
    await t.request("POST", `/api/simulator/${idle}/scan`, { token: a.admin.token });
    const bad = await addContact(t, a.id, "Sem número", "12ab");
    const invalid = await scheduleNow(t, a, bad);
    // A LID the job cannot judge (it passes ids it does not own), which the simulator refuses.
    const odd = await addContact(t, a.id, "LID estranho", "lid-x");
    await t.deps.db.updateTable("contacts").set({ lid: "lid-x" }).where("id", "=", odd).execute();
    const refused = await scheduleNow(t, a, odd);
    await sendDueSchedules(t.deps);
    const invalidView = await readSchedule(t, a, invalid.id);
    assert.deepEqual(
      [invalidView.status, invalidView.errorCode],
      ["ERRO", "ERR_WAPP_INVALID_CONTACT"],
    );
    // The job handed it to the outbox; the provider's refusal shows on the schedule once known.
    const refusedView = await eventually(async () => {
      const view = await readSchedule(t, a, refused.id);
      return view.status === "ERRO" ? view : undefined;
    });
    assert.equal(refusedView.errorCode, "ERR_SENDING_WAPP_MSG");
    // The job's next tick stores it (and tells the page); a second tick finds nothing more.
    await withServedApp(t, async (wsUrl) => {
      const [admin] = await sockets(wsUrl, a.admin.token);
      assert.deepEqual(await markRefusedSchedules(t.deps), [refused.id]);
      const event = await admin.next((e) => e.event === `company-${a.id}-schedule`);
      const record = (event.data as { record: { id: number; status: string } }).record;
      assert.deepEqual([record.id, record.status], [refused.id, "ERRO"]);
    });
    assert.deepEqual(await markRefusedSchedules(t.deps), []);
    const stored = await t.deps.db.selectFrom("schedules").select(["status", "errorCode"])
      .where("id", "=", refused.id).executeTakeFirstOrThrow();
    assert.deepEqual(stored, { status: "ERRO", errorCode: "ERR_SENDING_WAPP_MSG" });
    const page = await (await t.request("GET", "/api/schedules", { token: a.admin.token })).json();
    assert.deepEqual(
      page.schedules.map((s: { id: number; status: string }) => [s.id, s.status]).sort((
        x: number[],
        y: number[],
      ) => x[0] - y[0]),
      [[none.id, "ERRO"], [notConnected.id, "ERRO"], [invalid.id, "ERRO"], [refused.id, "ERRO"]],
    );

    // Retry: the one that had no connection goes out now that there is one.
    const foreign = await t.request("POST", `/api/schedules/${notConnected.id}/retry`, {
      token: b.admin.token,
    });
    assert.equal(foreign.status, 404);
    assert.equal((await foreign.json()).error, "ERR_NO_SCHEDULE_FOUND");
    const retried = await t.request("POST", `/api/schedules/${notConnected.id}/retry`, {
      token: a.admin.token,
    });
    assert.equal(retried.status, 200);
    assert.deepEqual(
      [(await retried.json()).status, (await readSchedule(t, a, notConnected.id)).errorCode],
      ["PENDENTE", null],
    );
    const again = await t.request("POST", `/api/schedules/${notConnected.id}/retry`, {
      token: a.admin.token,
    });
    assert.equal(again.status, 400);
    assert.equal((await again.json()).error, "ERR_INVALID_TRANSITION");
    assert.deepEqual(await sendDueSchedules(t.deps), [{
      scheduleId: notConnected.id,
      status: "ENVIADA",
    }]);
    // A provider-refused one can be retried too (its message stays in the history as failed).
    const retriedRefused = await t.request("POST", `/api/schedules/${refused.id}/retry`, {
      token: a.admin.token,
    });
    assert.equal((await retriedRefused.json()).status, "PENDENTE");
  }));
