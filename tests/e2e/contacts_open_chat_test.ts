import assert from "node:assert/strict";
import { createCompany, createUser, type TestApp } from "../helpers/app.ts";
import { insertContact } from "../helpers/admin_fixtures.ts";
import { type Page, seenToasts, withBrowser } from "../helpers/browser.ts";

/**
 * seeds/000 section 2 'Contacts': the contact row's open-chat action creates the contact's
 * ticket (or finds the one already open) and goes to /tickets/:uuid.
 */

async function api<T>(t: TestApp, token: string, method: string, path: string, body?: unknown) {
  const res = await t.request(method, path, { token, body });
  const text = await res.text();
  assert.ok(res.ok, `${method} ${path}: ${res.status} ${text}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

async function liveTickets(t: TestApp, contactId: number) {
  return await t.deps.db.selectFrom("tickets").selectAll().where("contactId", "=", contactId)
    .where("status", "in", ["open", "pending"]).execute();
}

/** Clicks the contact's "Abrir conversa" on /contacts and waits for the chat it lands on. */
async function openChatFrom(page: Page, url: string, name: string): Promise<string> {
  await page.goto(`${url}/contacts`);
  const row = page.getByTestId("contact-row").filter({ hasText: name });
  await row.getByRole("button", { name: "Abrir conversa" }).click();
  await page.waitForURL(/\/tickets\/[0-9a-f-]{36}$/);
  await page.getByTestId("ticket-header").getByTestId("ticket-contact-name").getByText(name)
    .waitFor();
  return new URL(page.url()).pathname.split("/").pop()!;
}

Deno.test("contacts page - open chat creates the contact's ticket once and opens it", () =>
  withBrowser(async ({ t, page, url, loginAs, pageErrors }) => {
    const c = await createCompany(t, "Acme");
    const other = await createCompany(t, "Outra");
    // A default connection for the company: the chat's ticket is opened on it.
    const whatsapp = await api<{ id: number }>(t, c.admin.token, "POST", "/api/whatsapp", {
      name: "Simulador",
      provider: "simulator",
      isDefault: true,
    });
    await api(t, c.admin.token, "POST", `/api/simulator/${whatsapp.id}/scan`);
    const contact = await insertContact(t, c.id, {
      name: "Carla Contato",
      number: "5511955554444",
    });
    await insertContact(t, c.id, { name: "Bruno Outro", number: "5511955553333" });
    // Another company's contact with the same number stays untouched.
    const foreign = await insertContact(t, other.id, {
      name: "Carla de Outra",
      number: "5511955554444",
    });
    await loginAs(page, c.admin, { expectPath: "/" });

    const uuid = await openChatFrom(page, url, "Carla Contato");
    let tickets = await liveTickets(t, contact.id);
    assert.equal(tickets.length, 1);
    assert.equal(tickets[0].uuid, uuid);
    assert.equal(tickets[0].companyId, c.id);
    assert.equal(tickets[0].status, "open");
    assert.equal(tickets[0].userId, c.admin.id);
    assert.equal(tickets[0].whatsappId, whatsapp.id);

    // Again from the list: the same ticket opens, no second one is created.
    const again = await openChatFrom(page, url, "Carla Contato");
    assert.equal(again, uuid);
    tickets = await liveTickets(t, contact.id);
    assert.equal(tickets.length, 1);
    const all = await t.deps.db.selectFrom("tickets").select("id")
      .where("contactId", "=", contact.id).execute();
    assert.equal(all.length, 1);
    assert.equal((await liveTickets(t, foreign.id)).length, 0);
    assert.deepEqual(pageErrors, []);
  }));

Deno.test("contacts page - a user with two queues picks one; another user's chat is named, not taken", () =>
  withBrowser(async ({ t, page, url, loginAs, pageErrors }) => {
    const c = await createCompany(t, "Acme");
    const sales = await api<{ id: number }>(t, c.admin.token, "POST", "/api/queue", {
      name: "Vendas",
      color: "#F44336",
    });
    const support = await api<{ id: number }>(t, c.admin.token, "POST", "/api/queue", {
      name: "Suporte",
      color: "#0EA5E9",
    });
    const whatsapp = await api<{ id: number }>(t, c.admin.token, "POST", "/api/whatsapp", {
      name: "Simulador",
      provider: "simulator",
      isDefault: true,
      greetingMessage: "Escolha uma fila:",
      queueIds: [sales.id, support.id],
    });
    await api(t, c.admin.token, "POST", `/api/simulator/${whatsapp.id}/scan`);
    const joana = await createUser(t, c.id, {
      name: "Joana Lima",
      email: "joana@acme.test",
      queueIds: [sales.id, support.id],
    });
    const mine = await insertContact(t, c.id, { name: "Davi Cliente", number: "5511944443333" });
    const taken = await insertContact(t, c.id, { name: "Eva Ocupada", number: "5511944442222" });
    // Eva is already in the admin's chat, in Vendas.
    await api(t, c.admin.token, "POST", "/api/tickets", {
      contactId: taken.id,
      queueId: sales.id,
      status: "open",
      userId: c.admin.id,
    });
    await loginAs(page, joana);

    // Two queues: the dialog asks which one before the chat opens.
    await page.goto(`${url}/contacts`);
    await page.getByTestId("contact-row").filter({ hasText: "Davi Cliente" })
      .getByRole("button", { name: "Abrir conversa" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByRole("button", { name: "Abrir conversa" }).click();
    await dialog.getByText("Selecione uma fila").waitFor();
    await dialog.getByRole("combobox", { name: "Fila" }).click();
    await page.getByRole("option", { name: "Suporte" }).click();
    await dialog.getByRole("button", { name: "Abrir conversa" }).click();
    await page.waitForURL(/\/tickets\/[0-9a-f-]{36}$/);
    await page.getByTestId("ticket-header").getByTestId("ticket-contact-name")
      .getByText("Davi Cliente").waitFor();
    const uuid = new URL(page.url()).pathname.split("/").pop()!;
    const tickets = await liveTickets(t, mine.id);
    assert.equal(tickets.length, 1);
    assert.deepEqual(
      [tickets[0].uuid, tickets[0].status, tickets[0].userId, tickets[0].queueId],
      [uuid, "open", joana.id, support.id],
    );

    // Eva's chat is the admin's: a warning names them and the queue; nothing changes.
    await page.goto(`${url}/contacts`);
    await page.getByTestId("contact-row").filter({ hasText: "Eva Ocupada" })
      .getByRole("button", { name: "Abrir conversa" }).click();
    await dialog.getByRole("combobox", { name: "Fila" }).click();
    await page.getByRole("option", { name: "Vendas" }).click();
    await dialog.getByRole("button", { name: "Abrir conversa" }).click();
    const warning = "Este contato já está em atendimento com Acme Admin na fila Vendas.";
    await page.waitForFunction(
      (wanted) => JSON.parse(sessionStorage.getItem("__seenToasts") ?? "[]").includes(wanted),
      warning,
    );
    assert.ok((await seenToasts(page)).includes(warning));
    assert.equal(new URL(page.url()).pathname, "/contacts");
    const evas = await liveTickets(t, taken.id);
    assert.equal(evas.length, 1);
    assert.equal(evas[0].userId, c.admin.id);
    assert.deepEqual(pageErrors, []);
  }));
