import assert from "node:assert/strict";
import { createCompany, createUser, type TestApp, type TestCompany } from "../helpers/app.ts";
import { type Page, toastShown, withBrowser } from "../helpers/browser.ts";

/**
 * The /tickets workspace in a real browser against the real app, with a simulator connection
 * created through the API (create, scan): the phone side writes through the simulator routes.
 */

async function api<T>(t: TestApp, token: string, method: string, path: string, body?: unknown) {
  const res = await t.request(method, path, { token, body });
  const text = await res.text();
  assert.ok(res.ok, `${method} ${path}: ${res.status} ${text}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

/** A queue, attendants in it, and a connected simulator connection routing to it. */
async function setup(t: TestApp, c: TestCompany, queueName = "Vendas") {
  const queue = await api<{ id: number }>(t, c.admin.token, "POST", "/api/queue", {
    name: queueName,
    color: "#0EA5E9",
  });
  const whatsapp = await api<{ id: number }>(t, c.admin.token, "POST", "/api/whatsapp", {
    name: "Simulador",
    provider: "simulator",
    isDefault: true,
    queueIds: [queue.id],
  });
  await api(t, c.admin.token, "POST", `/api/simulator/${whatsapp.id}/scan`);
  return { queueId: queue.id, whatsappId: whatsapp.id };
}

function list(page: Page, name: "open" | "pending" | "closed") {
  return page.getByTestId(`list-${name}`);
}

function item(page: Page, name: "open" | "pending" | "closed", text: string) {
  return list(page, name).getByTestId("ticket-item").filter({ hasText: text });
}

async function openTickets(page: Page, url: string) {
  await page.goto(`${url}/tickets`);
  await page.getByTestId("tab-open").waitFor();
}

Deno.test("tickets page - a simulator message arrives live under pending; accept, reply, resolve, reopen; another attendant's list follows", () =>
  withBrowser(async ({ t, page, url, loginAs, secondBrowser, pageErrors }) => {
    const c = await createCompany(t, "Alpha");
    const { queueId, whatsappId } = await setup(t, c);
    const ana = await createUser(t, c.id, {
      name: "Ana Atendente",
      email: "ana@alpha.test",
      queueIds: [queueId],
    });
    const bia = await createUser(t, c.id, {
      name: "Bia Atendente",
      email: "bia@alpha.test",
      queueIds: [queueId],
    });

    await loginAs(page, ana);
    await openTickets(page, url);
    await page.getByTestId("subtab-pending").click();
    const other = await secondBrowser();
    await loginAs(other, bia);
    await openTickets(other, url);
    await other.getByTestId("subtab-pending").click();
    await page.getByTestId("count-pending").getByText("0").waitFor();

    // The phone writes: both attendants see it under pending, without a reload.
    await api(t, c.admin.token, "POST", `/api/simulator/${whatsappId}/messages`, {
      from: "5511988887777",
      name: "Carlos Cliente",
      body: "Olá, preciso de ajuda com meu pedido",
    });
    await item(page, "pending", "Carlos Cliente").waitFor();
    await item(other, "pending", "Carlos Cliente").waitFor();
    assert.equal(await page.getByTestId("count-pending").innerText(), "1");
    assert.match(
      await item(page, "pending", "Carlos Cliente").innerText(),
      /Olá, preciso de ajuda com meu pedido/,
    );
    // A pending ticket is not opened by a click: it offers 'accept'.
    const row0 = item(page, "pending", "Carlos Cliente").getByRole("button", {
      name: /Carlos Cliente/,
    });
    assert.equal(await row0.getAttribute("aria-disabled"), "true");
    await row0.click({ force: true });
    assert.equal(new URL(page.url()).pathname, "/tickets");

    // Ana accepts: the chat opens; Bia's pending list loses it, live.
    await item(page, "pending", "Carlos Cliente").getByTestId("ticket-accept").click();
    await page.waitForURL(/\/tickets\/[0-9a-f-]{36}$/);
    const header = page.getByTestId("ticket-header");
    await header.getByTestId("ticket-contact-name").getByText("Carlos Cliente").waitFor();
    await header.getByTestId("ticket-user").getByText("Atribuído a Ana Atendente").waitFor();
    await page.getByTestId("messages").getByText("Olá, preciso de ajuda com meu pedido")
      .waitFor();
    await item(other, "pending", "Carlos Cliente").waitFor({ state: "detached" });
    await other.getByTestId("count-pending").getByText("0").waitFor();
    await item(page, "open", "Carlos Cliente").waitFor({ state: "attached" });
    const uuid = new URL(page.url()).pathname.split("/").pop()!;
    const row = await t.deps.db.selectFrom("tickets").select(["id", "status", "userId"])
      .where("uuid", "=", uuid).executeTakeFirstOrThrow();
    assert.deepEqual({ status: row.status, userId: row.userId }, {
      status: "open",
      userId: ana.id,
    });

    // A blank message is not sent: no send button, Enter leaves it in the box.
    const input = page.getByTestId("message-text");
    await input.fill("   ");
    await input.press("Enter");
    assert.equal(await input.inputValue(), "   ");
    assert.equal(await page.getByTestId("send").count(), 0);

    // Ana replies (signed with her name by default): it shows in the chat and reaches the phone.
    await input.fill("Oi Carlos, vou verificar agora.");
    await input.press("Enter");
    await page.getByTestId("messages").getByText("Oi Carlos, vou verificar agora.").waitFor();
    assert.equal(await input.inputValue(), "");
    const sent = await page.waitForFunction(
      async ([path, token]) => {
        const res = await fetch(path, { headers: { authorization: `Bearer ${token}` } });
        const { sent } = await res.json();
        return sent.find((s: { body: string }) => s.body.includes("Oi Carlos")) ?? false;
      },
      [`/api/simulator/${whatsappId}/sent`, c.admin.token],
      { polling: 200 },
    );
    const delivered = await sent.jsonValue() as { body: string; to: string };
    assert.equal(delivered.body, "*Ana Atendente:*\nOi Carlos, vou verificar agora.");
    assert.equal(delivered.to, "5511988887777");
    const messages = await t.deps.db.selectFrom("messages").select(["body", "fromMe"])
      .where("ticketId", "=", row.id).orderBy("id").execute();
    assert.deepEqual(messages.map((m) => m.fromMe), [0, 1]);

    // Resolve: back to the list, gone from open, present under resolved.
    await page.getByTestId("action-resolve").click();
    await page.waitForURL(`${url}/tickets`);
    await page.getByTestId("tickets-welcome").waitFor();
    await item(page, "open", "Carlos Cliente").waitFor({ state: "detached" });
    await page.getByTestId("tab-closed").click();
    await item(page, "closed", "Carlos Cliente").click();
    await page.waitForURL(`${url}/tickets/${uuid}`);

    // Reopen from the chat: open again for Ana.
    await page.getByTestId("action-reopen").click();
    await page.getByTestId("action-resolve").waitFor();
    await page.getByTestId("message-text").waitFor();
    await item(page, "closed", "Carlos Cliente").waitFor({ state: "detached" });
    await page.getByTestId("tab-open").click();
    await item(page, "open", "Carlos Cliente").waitFor();
    const reopened = await t.deps.db.selectFrom("tickets").select(["status", "userId"])
      .where("id", "=", row.id).executeTakeFirstOrThrow();
    assert.deepEqual(reopened, { status: "open", userId: ana.id });

    // Bia never saw it come back (another attendant's open ticket, no show-all).
    assert.equal(await item(other, "pending", "Carlos Cliente").count(), 0);
    assert.deepEqual(pageErrors, []);
  }));

Deno.test("tickets page - a ticket outside the user's queues: 'Acesso não permitido' and back to /tickets", () =>
  withBrowser(async ({ t, page, url, loginAs, pageErrors }) => {
    const c = await createCompany(t, "Alpha");
    const { whatsappId } = await setup(t, c, "Financeiro");
    const other = await api<{ id: number }>(t, c.admin.token, "POST", "/api/queue", {
      name: "Suporte",
      color: "#22C55E",
    });
    const outsider = await createUser(t, c.id, {
      name: "Otto Outro",
      email: "otto@alpha.test",
      queueIds: [other.id],
    });
    const delivery = await api<{ ticketId: number }>(
      t,
      c.admin.token,
      "POST",
      `/api/simulator/${whatsappId}/messages`,
      { from: "5511977776666", name: "Dora Devedora", body: "Segunda via do boleto" },
    );
    const ticket = await t.deps.db.selectFrom("tickets").select(["uuid", "queueId"])
      .where("id", "=", delivery.ticketId).executeTakeFirstOrThrow();
    assert.notEqual(ticket.queueId, null);

    await loginAs(page, outsider);
    await page.goto(`${url}/tickets/${ticket.uuid}`);
    await toastShown(page, "Acesso não permitido");
    await page.waitForURL(`${url}/tickets`);
    await page.getByTestId("tickets-welcome").waitFor();
    assert.equal(await page.getByTestId("ticket-view").count(), 0);
    assert.deepEqual(pageErrors, []);
  }));

Deno.test("tickets page - admins peek without reading and delete a ticket an attendant is viewing; notes; a user's new ticket needs a queue", () =>
  withBrowser(async ({ t, page, url, loginAs, secondBrowser, pageErrors }) => {
    const c = await createCompany(t, "Alpha");
    const { queueId, whatsappId } = await setup(t, c);
    const second = await api<{ id: number }>(t, c.admin.token, "POST", "/api/queue", {
      name: "Suporte",
      color: "#22C55E",
    });
    const ana = await createUser(t, c.id, {
      name: "Ana Atendente",
      email: "ana@alpha.test",
      queueIds: [queueId, second.id],
    });
    const delivery = await api<{ ticketId: number }>(
      t,
      c.admin.token,
      "POST",
      `/api/simulator/${whatsappId}/messages`,
      { from: "5511955554444", name: "Pedro Pereira", body: "Quero cancelar minha assinatura" },
    );
    const unread = () =>
      t.deps.db.selectFrom("tickets").select("unreadMessages").where("id", "=", delivery.ticketId)
        .executeTakeFirstOrThrow().then((r) => r.unreadMessages);
    assert.equal(await unread(), 1);

    // The admin peeks at the pending ticket: the conversation shows, the ticket stays unread.
    await loginAs(page, c.admin);
    await openTickets(page, url);
    assert.equal(await page.getByTestId("show-all").getAttribute("data-state"), "checked");
    await page.getByTestId("subtab-pending").click();
    await item(page, "pending", "Pedro Pereira").getByTestId("ticket-peek").click();
    const peek = page.getByTestId("peek-dialog");
    await peek.getByText("Quero cancelar minha assinatura").waitFor();
    assert.equal(await peek.getByTestId("message-text").count(), 0);
    await page.keyboard.press("Escape");
    await peek.waitFor({ state: "detached" });
    assert.equal(await unread(), 1);

    // Ana accepts it and reads it.
    const attendant = await secondBrowser();
    await loginAs(attendant, ana);
    await openTickets(attendant, url);
    await attendant.getByTestId("subtab-pending").click();
    await item(attendant, "pending", "Pedro Pereira").getByTestId("ticket-accept").click();
    await attendant.getByTestId("messages").getByText("Quero cancelar minha assinatura").waitFor();
    const uuid = new URL(attendant.url()).pathname.split("/").pop()!;

    // With show-all the admin sees Ana's ticket under 'in progress', live, and opens it.
    await page.getByTestId("subtab-open").click();
    await item(page, "open", "Pedro Pereira").getByText("Ana Atendente").waitFor();
    await item(page, "open", "Pedro Pereira").getByTestId("ticket-name").click();
    await page.waitForURL(`${url}/tickets/${uuid}`);

    // A note (at least 2 characters).
    await page.getByTestId("ticket-options").click();
    await page.getByRole("menuitem", { name: "Observações" }).click();
    await page.getByTestId("note-text").fill("x");
    await page.getByTestId("note-submit").click();
    await page.getByText("A observação precisa de pelo menos 2 caracteres").waitFor();
    await page.getByTestId("note-text").fill("Cliente pediu retorno amanhã");
    await page.getByTestId("note-submit").click();
    await toastShown(page, "Observação adicionada com sucesso!");
    await page.getByTestId("notes").getByText("Cliente pediu retorno amanhã").waitFor();
    const notes = await t.deps.db.selectFrom("ticket_notes").select(["note", "userId"])
      .where("ticketId", "=", delivery.ticketId).execute();
    assert.deepEqual(notes, [{ note: "Cliente pediu retorno amanhã", userId: c.admin.id }]);
    await page.getByRole("dialog", { name: "Observações" }).getByRole("button", { name: "Fechar" })
      .click();
    await page.getByRole("dialog", { name: "Observações" }).waitFor({ state: "detached" });

    // The admin deletes it (with a confirmation): Ana, who is viewing it, is told and sent back.
    await page.getByTestId("ticket-options").click();
    await page.getByRole("menuitem", { name: "Excluir ticket" }).click();
    await page.getByTestId("confirm-button").click();
    await toastShown(attendant, "Ticket excluído com sucesso.");
    await attendant.waitForURL(`${url}/tickets`);
    await attendant.getByTestId("tickets-welcome").waitFor();
    await item(attendant, "open", "Pedro Pereira").waitFor({ state: "detached" });
    await page.waitForURL(`${url}/tickets`);
    assert.equal(
      await t.deps.db.selectFrom("tickets").select("id").where("id", "=", delivery.ticketId)
        .executeTakeFirst(),
      undefined,
    );

    // Ana opens a new ticket for the contact: with two queues none is prefilled, and one is needed.
    await attendant.getByTestId("new-ticket").click();
    await attendant.getByTestId("new-ticket-contact").fill("Ped");
    await attendant.getByRole("option", { name: /Pedro Pereira/ }).click();
    await attendant.getByTestId("new-ticket-submit").click();
    await attendant.locator("[data-field=queueId] .field-error").getByText("Selecione uma fila")
      .waitFor();
    await attendant.getByRole("combobox", { name: "Fila" }).click();
    await attendant.getByRole("option", { name: "Suporte" }).click();
    await attendant.getByTestId("new-ticket-submit").click();
    await attendant.waitForURL(/\/tickets\/[0-9a-f-]{36}$/);
    await attendant.getByTestId("ticket-contact-name").getByText("Pedro Pereira").waitFor();
    const created = await t.deps.db.selectFrom("tickets").select(["status", "userId", "queueId"])
      .where("uuid", "=", new URL(attendant.url()).pathname.split("/").pop()!)
      .executeTakeFirstOrThrow();
    assert.deepEqual(created, { status: "open", userId: ana.id, queueId: second.id });
    assert.deepEqual(pageErrors, []);
  }));
