import assert from "node:assert/strict";
import { login, twoCompanies, withApp } from "../helpers/app.ts";
import { addContact } from "../helpers/tickets.ts";
import { eventually } from "../helpers/eventually.ts";
import { connectSimulator, sentBy } from "../whatsapp/helpers.ts";
import { sendDueSchedules } from "../../server/schedules/sending.ts";

const PNG = new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10, 0, 0, 0, 13, 73, 72, 68, 82]);

Deno.test("schedules job - sends due schedules once through the outbox, with variables and picture", () =>
  withApp(async (t) => {
    const { a } = await twoCompanies(t);
    const whatsappId = await connectSimulator(t, a, { isDefault: true });
    const contactId = await addContact(t, a.id, "Maria Souza", "5511988887777");
    const inAnHour = new Date(t.clock.now().getTime() + 3600_000).toISOString();
    const created = await (await t.request("POST", "/api/schedules", {
      token: a.user.token,
      body: { body: "Olá {{firstName}}, lembrete!", contactId, sendAt: inAnHour },
    })).json();
    const gif = new FormData();
    gif.append("file", new File(["GIF89a"], "anim.gif", { type: "image/gif" }));
    const refused = await t.request("POST", `/api/schedules/${created.id}/media-upload`, {
      token: a.user.token,
      body: gif,
    });
    assert.equal(refused.status, 400);
    assert.equal((await refused.json()).error, "ERR_INVALID_MEDIA");
    const png = new FormData();
    png.append("file", new File([PNG], "cartaz.png", { type: "image/png" }));
    const uploaded = await t.request("POST", `/api/schedules/${created.id}/media-upload`, {
      token: a.user.token,
      body: png,
    });
    assert.equal(uploaded.status, 200, await uploaded.clone().text());
    const withMedia = await uploaded.json();
    assert.equal(withMedia.mediaName, "cartaz.png");
    assert.equal(withMedia.mediaUrl, `/api/schedules/${created.id}/media`);
    const media = await t.request("GET", withMedia.mediaUrl, { token: a.user.token });
    assert.deepEqual(new Uint8Array(await media.arrayBuffer()), PNG);

    // Not due yet: nothing happens.
    assert.deepEqual(await sendDueSchedules(t.deps), []);
    t.clock.advance(3600_000);
    assert.deepEqual(await sendDueSchedules(t.deps), [{
      scheduleId: created.id,
      status: "ENVIADA",
    }]);
    // A second tick (or a tick running twice) sends nothing more.
    assert.deepEqual(await sendDueSchedules(t.deps), []);
    const row = await t.deps.db.selectFrom("schedules").selectAll().where("id", "=", created.id)
      .executeTakeFirstOrThrow();
    assert.equal(row.status, "ENVIADA");
    assert.equal(row.sentAt, t.clock.now().toISOString());
    assert.ok(row.ticketId);
    const ticket = await t.deps.db.selectFrom("tickets").selectAll()
      .where("id", "=", row.ticketId!).executeTakeFirstOrThrow();
    assert.equal(ticket.status, "closed");
    assert.equal(ticket.userId, a.user.id);
    // Tokens expired while the clock moved an hour.
    const admin = (await login(t, a.admin.email, a.admin.password)).token;
    const user = (await login(t, a.user.email, a.user.password)).token;
    const sent = await eventually(async () => {
      const list = await sentBy(t, admin, whatsappId);
      return list.length === 1 && list[0].ack >= 1 ? list : undefined;
    });
    assert.equal(sent[0].body, "Olá Maria, lembrete!");
    assert.equal(sent[0].media?.filename, "cartaz.png");
    // Once sent, it no longer changes.
    const late = await t.request("PUT", `/api/schedules/${created.id}`, {
      token: user,
      body: { body: "mudou de ideia" },
    });
    assert.equal(late.status, 400);
  }));

Deno.test("schedules job - no default connection marks the schedule ERRO; other companies untouched", () =>
  withApp(async (t) => {
    const { a, b } = await twoCompanies(t);
    const contactId = await addContact(t, a.id, "Maria", "5511988887777");
    const now = t.clock.now().toISOString();
    const res = await t.request("POST", "/api/schedules", {
      token: a.admin.token,
      body: { body: "Mensagem agendada", contactId, sendAt: now },
    });
    const created = await res.json();
    const bContact = await addContact(t, b.id, "Bob", "5511977776666");
    const future = new Date(t.clock.now().getTime() + 86_400_000).toISOString();
    const bRes = await t.request("POST", "/api/schedules", {
      token: b.admin.token,
      body: { body: "Outra empresa", contactId: bContact, sendAt: future },
    });
    const bCreated = await bRes.json();
    assert.deepEqual(await sendDueSchedules(t.deps), [{ scheduleId: created.id, status: "ERRO" }]);
    const rows = await t.deps.db.selectFrom("schedules").select(["id", "status"]).orderBy("id")
      .execute();
    assert.deepEqual(rows, [
      { id: created.id, status: "ERRO" },
      { id: bCreated.id, status: "PENDENTE" },
    ]);
    // An edited schedule that failed is tried again.
    const edited = await t.request("PUT", `/api/schedules/${created.id}`, {
      token: a.admin.token,
      body: { body: "Mensagem corrigida" },
    });
    assert.equal((await edited.json()).status, "PENDENTE");
  }));
