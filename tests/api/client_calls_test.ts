import assert from "node:assert/strict";
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  createUser,
  login,
  type TestApp,
  twoCompanies,
  withApp,
} from "../helpers/app.ts";
import { addContact, addMessage, addTicket, scene } from "../helpers/tickets.ts";
import { createCampaign, seedList } from "../campaigns/helpers.ts";
import { SHIPPING_PAGE_SIZE } from "../../contract/campaign_types.ts";

/**
 * Issue 25 item 4: the calls of the specification's client that had no route answer what that
 * client reads. Each: status, shape, another company's record answers as a missing one, roles.
 */

async function call(t: TestApp, token: string, method: string, path: string, body?: unknown) {
  const res = await t.request(method, path, { token, body });
  return { status: res.status, body: res.status === 204 ? null : await res.json() };
}

Deno.test("client calls - POST /api/contacts/upload imports a spreadsheet like /import; admins only", () =>
  withApp(async (t) => {
    const { a, b } = await twoCompanies(t);
    const csv = "name,number\nAna Lima,5511988887777\nBruno,5511988886666\n";
    const form = () => {
      const f = new FormData();
      f.append("file", new File([csv], "contatos.csv", { type: "text/csv" }));
      return f;
    };
    const res = await t.request("POST", "/api/contacts/upload", {
      token: a.admin.token,
      body: form(),
    });
    assert.equal(res.status, 200);
    const report = await res.json();
    assert.deepEqual([report.total, report.created, report.skipped], [2, 2, []]);
    const numbers = await t.deps.db.selectFrom("contacts").select("number")
      .where("companyId", "=", a.id).orderBy("number").execute();
    assert.deepEqual(numbers.map((r) => r.number), ["5511988886666", "5511988887777"]);
    const inB = await t.deps.db.selectFrom("contacts").select("id").where("companyId", "=", b.id)
      .execute();
    assert.equal(inB.length, 0);
    const asUser = await t.request("POST", "/api/contacts/upload", {
      token: a.user.token,
      body: form(),
    });
    assert.equal(asUser.status, 403);
    assert.equal((await asUser.json()).error, "ERR_NO_PERMISSION");
    const noFile = await t.request("POST", "/api/contacts/upload", {
      token: a.admin.token,
      body: new FormData(),
    });
    assert.equal(noFile.status, 400);
    await noFile.body?.cancel();
  }));

Deno.test("client calls - GET /api/contact-list-items/list: a list's items as an array; another company's list is 404", () =>
  withApp(async (t) => {
    const { a, b } = await twoCompanies(t);
    const listId = await seedList(t, a, 3);
    const res = await call(
      t,
      a.admin.token,
      "GET",
      `/api/contact-list-items/list?contactListId=${listId}`,
    );
    assert.equal(res.status, 200);
    assert.ok(Array.isArray(res.body));
    assert.equal(res.body.length, 3);
    for (const item of res.body) {
      assert.deepEqual(
        Object.keys(item).filter((k) =>
          ["id", "name", "number", "email", "isWhatsappValid", "companyId", "contactListId"]
            .includes(k)
        ).length,
        7,
      );
      assert.equal(item.contactListId, listId);
    }
    const other = await call(
      t,
      b.admin.token,
      "GET",
      `/api/contact-list-items/list?contactListId=${listId}`,
    );
    assert.equal(other.status, 404);
    assert.equal(other.body.error, "ERR_NO_CONTACT_LIST_FOUND");
    const asUser = await call(
      t,
      a.user.token,
      "GET",
      `/api/contact-list-items/list?contactListId=${listId}`,
    );
    assert.equal(asUser.status, 403);
    const missing = await call(t, a.admin.token, "GET", "/api/contact-list-items/list");
    assert.equal(missing.status, 400);
  }));

Deno.test("client calls - GET /api/messages-allMe counts the company's messages by direction and days", () =>
  withApp(async (t) => {
    const { a, b } = await twoCompanies(t);
    const s = await scene(t, a);
    const ticket = await addTicket(t, a.id, { contactId: s.contactId, queueId: s.q1 });
    // The test clock: 2026-11-22T12:00Z (09:00 in São Paulo).
    await addMessage(t, a.id, { ticketId: ticket.id, body: "oi", fromMe: false });
    await addMessage(t, a.id, { ticketId: ticket.id, body: "olá", fromMe: true });
    await addMessage(t, a.id, { ticketId: ticket.id, body: "tudo bem?", fromMe: true });
    await addMessage(t, a.id, {
      ticketId: ticket.id,
      body: "antigo",
      fromMe: true,
      at: "2026-10-01T15:00:00.000Z",
    });
    const sB = await scene(t, b);
    const ticketB = await addTicket(t, b.id, { contactId: sB.contactId });
    await addMessage(t, b.id, { ticketId: ticketB.id, body: "de B", fromMe: true });

    const count = async (query: string, token = a.admin.token) => {
      const res = await call(t, token, "GET", `/api/messages-allMe${query}`);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return res.body.count[0].count;
    };
    const day = "dateStart=2026-11-22&dateEnd=2026-11-22";
    assert.equal(await count(`?fromMe=true&${day}`), 2);
    assert.equal(await count(`?fromMe=false&${day}`), 1);
    assert.equal(await count(`?${day}`), 3);
    // No dates: this month (the October message is out); ISO date-times are read as their day.
    assert.equal(await count("?fromMe=true"), 2);
    assert.equal(
      await count("?fromMe=true&dateStart=2026-10-01T00:00:00.000Z&dateEnd=2026-11-30"),
      3,
    );
    assert.equal(await count(`?fromMe=true&${day}`, b.admin.token), 1);
    const asUser = await call(t, a.user.token, "GET", "/api/messages-allMe");
    assert.equal(asUser.status, 403);
    const bad = await call(t, a.admin.token, "GET", "/api/messages-allMe?dateStart=2026-13-40");
    assert.equal(bad.status, 400);
  }));

Deno.test("client calls - /api/invoices/list and super users' POST, PUT, DELETE /api/invoices/:id", () =>
  withApp(async (t) => {
    const { a, b } = await twoCompanies(t);
    const root = await login(t, ADMIN_EMAIL, ADMIN_PASSWORD);

    const created = await call(t, root.token, "POST", "/api/invoices", {
      companyId: a.id,
      detail: "Plano Pro - MENSAL",
      value: 99.9,
      dueDate: "2026-12-10",
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.deepEqual(
      [created.body.companyId, created.body.status, created.body.value, created.body.dueDate],
      [a.id, "open", 99.9, "2026-12-10"],
    );
    const same = await call(t, root.token, "POST", "/api/invoices", {
      companyId: a.id,
      detail: "de novo",
      value: 1,
      dueDate: "2026-12-10",
    });
    assert.equal(same.status, 409);
    assert.equal(same.body.error, "ERR_INVOICE_PERIOD_EXISTS");
    const noCompany = await call(t, root.token, "POST", "/api/invoices", {
      companyId: 999999,
      detail: "x",
      value: 1,
      dueDate: "2026-12-10",
    });
    assert.equal(noCompany.status, 404);
    assert.equal(noCompany.body.error, "ERR_NO_COMPANY_FOUND");
    const badBody = await call(t, root.token, "POST", "/api/invoices", {
      companyId: a.id,
      detail: "",
      value: -1,
      dueDate: "amanhã",
    });
    assert.equal(badBody.status, 400);
    assert.deepEqual(Object.keys(badBody.body.fields).sort(), ["detail", "dueDate", "value"]);

    // The company's admin reads it in the client's plain array; the other company does not.
    const listA = await call(t, a.admin.token, "GET", "/api/invoices/list");
    assert.equal(listA.status, 200);
    assert.deepEqual(listA.body.map((i: { id: number }) => i.id), [created.body.id]);
    const listB = await call(t, b.admin.token, "GET", "/api/invoices/list");
    assert.deepEqual(listB.body, []);
    const all = await call(t, root.token, "GET", "/api/invoices/list?searchParam=Pro");
    assert.equal(
      all.body.find((i: { id: number }) => i.id === created.body.id).companyName,
      a.name,
    );
    assert.equal((await call(t, a.user.token, "GET", "/api/invoices/list")).status, 403);

    // Company admins may not bill, change or delete.
    const id = created.body.id;
    for (
      const [method, path] of [["POST", "/api/invoices"], ["PUT", `/api/invoices/${id}`], [
        "DELETE",
        `/api/invoices/${id}`,
      ]]
    ) {
      const res = await call(t, a.admin.token, method, path, { detail: "x" });
      assert.equal(res.status, 403, `${method} ${path}`);
      assert.equal(res.body.error, "ERR_NO_PERMISSION");
    }

    const changed = await call(t, root.token, "PUT", `/api/invoices/${id}`, {
      value: 120,
      detail: "Plano Pro - ajuste",
    });
    assert.equal(changed.status, 200);
    assert.deepEqual([changed.body.value, changed.body.detail], [120, "Plano Pro - ajuste"]);
    const missing = await call(t, root.token, "PUT", "/api/invoices/999999", { value: 1 });
    assert.equal(missing.status, 404);
    assert.equal(missing.body.error, "ERR_NO_INVOICE_FOUND");

    // status "paid" pays it: the due date moves, and a paid invoice is neither changed nor deleted.
    const before = await t.deps.db.selectFrom("companies").select("dueDate")
      .where("id", "=", a.id).executeTakeFirstOrThrow();
    const paid = await call(t, root.token, "PUT", `/api/invoices/${id}`, { status: "paid" });
    assert.equal(paid.status, 200);
    assert.equal(paid.body.status, "paid");
    const after = await t.deps.db.selectFrom("companies").select("dueDate")
      .where("id", "=", a.id).executeTakeFirstOrThrow();
    assert.notEqual(after.dueDate, before.dueDate);
    const late = await call(t, root.token, "PUT", `/api/invoices/${id}`, { value: 1 });
    assert.equal(late.status, 409);
    assert.equal(late.body.error, "ERR_INVOICE_ALREADY_PAID");
    const keep = await call(t, root.token, "DELETE", `/api/invoices/${id}`);
    assert.equal(keep.status, 409);

    const other = await call(t, root.token, "POST", "/api/invoices", {
      companyId: b.id,
      detail: "Plano B",
      value: 10,
      dueDate: "2027-01-05",
    });
    const gone = await call(t, root.token, "DELETE", `/api/invoices/${other.body.id}`);
    assert.equal(gone.status, 204);
    const row = await t.deps.db.selectFrom("invoices").select("id").where("companyId", "=", b.id)
      .where("id", "=", other.body.id).executeTakeFirst();
    assert.equal(row, undefined);
  }));

Deno.test("client calls - GET /api/ticket/kanban?queueIds=[] for a user without queues shows the tickets without a queue", () =>
  withApp(async (t) => {
    const { a, b } = await twoCompanies(t);
    const s = await scene(t, a);
    const noQueues = await createUser(t, a.id, { name: "Sem Filas", email: "sf@alpha.test" });
    const loose = await addTicket(t, a.id, { contactId: s.contactId });
    await addTicket(t, a.id, { contactId: s.contactId, queueId: s.q1 });
    const contactB = await addContact(t, b.id, "Beto", "5511977770000");
    await addTicket(t, b.id, { contactId: contactB });

    const board = await call(t, noQueues.token, "GET", "/api/ticket/kanban?queueIds=[]");
    assert.equal(board.status, 200);
    assert.deepEqual(board.body.tickets.map((x: { id: number }) => x.id), [loose.id]);
    // A user with queues sees those of their queues and the ones without a queue.
    const user = await call(t, a.user.token, "GET", "/api/ticket/kanban?queueIds=[]");
    assert.deepEqual(user.body.tickets.map((x: { id: number }) => x.id), [loose.id]);
    const mine = await call(t, a.user.token, "GET", "/api/ticket/kanban");
    assert.equal(mine.body.tickets.length, 2);
    const inB = await call(t, b.admin.token, "GET", "/api/ticket/kanban?queueIds=[]");
    assert.equal(inB.body.tickets.length, 1);
    assert.notEqual(inB.body.tickets[0].id, loose.id);
  }));

Deno.test("client calls - GET /api/campaigns/:id embeds a page of shipping[] and keeps the stats", () =>
  withApp(async (t) => {
    const { a, b } = await twoCompanies(t);
    const listId = await seedList(t, a, 2);
    const campaign = await createCampaign(t, a, { contactListId: listId });
    const stamp = t.clock.now().toISOString();
    const total = SHIPPING_PAGE_SIZE + 3;
    await t.deps.db.insertInto("campaign_shipping").values(
      Array.from({ length: total }, (_, i) => ({
        companyId: a.id,
        campaignId: campaign.id,
        contactListItemId: null,
        number: `55119${String(i).padStart(8, "0")}`,
        confirmationMessage: null,
        outboxId: null,
        confirmationOutboxId: null,
        confirmationRequestedAt: i < 2 ? stamp : null,
        confirmedAt: null,
        deliveredAt: i < 5 ? stamp : null,
        createdAt: stamp,
        updatedAt: stamp,
      })),
    ).execute();

    const first = await call(t, a.admin.token, "GET", `/api/campaigns/${campaign.id}`);
    assert.equal(first.status, 200);
    assert.equal(first.body.shipping.length, SHIPPING_PAGE_SIZE);
    assert.deepEqual([first.body.shippingCount, first.body.shippingHasMore], [total, true]);
    const row = first.body.shipping[0];
    assert.deepEqual(
      [typeof row.deliveredAt, "confirmationRequestedAt" in row, row.confirmation],
      ["string", true, false],
    );
    // The stats count every row, not the page.
    assert.deepEqual(first.body.stats, {
      validContacts: total,
      delivered: 5,
      confirmationRequested: 2,
      confirmed: 2,
    });
    const second = await call(
      t,
      a.admin.token,
      "GET",
      `/api/campaigns/${campaign.id}?shippingPage=2`,
    );
    assert.deepEqual([second.body.shipping.length, second.body.shippingHasMore], [3, false]);
    const other = await call(t, b.admin.token, "GET", `/api/campaigns/${campaign.id}`);
    assert.equal(other.status, 404);
    assert.equal(other.body.error, "ERR_NO_CAMPAIGN_FOUND");
  }));

Deno.test("client calls - each new route is in the OpenAPI document", () =>
  withApp(async (t) => {
    const doc = await (await t.request("GET", "/api/openapi.json")).json();
    for (
      const [path, method] of [
        ["/contacts/upload", "post"],
        ["/contact-list-items/list", "get"],
        ["/messages-allMe", "get"],
        ["/invoices/list", "get"],
        ["/invoices", "post"],
        ["/invoices/{id}", "put"],
        ["/invoices/{id}", "delete"],
        ["/ticket/kanban", "get"],
        ["/campaigns/{id}", "get"],
      ]
    ) {
      assert.ok(doc.paths[path]?.[method], `${method} ${path}`);
    }
    const params = doc.paths["/campaigns/{id}"].get.parameters.map((p: { name: string }) => p.name);
    assert.ok(params.includes("shippingPage"));
  }));
