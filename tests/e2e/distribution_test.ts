import assert from "node:assert/strict";
import { createCompany, createUser, type TestApp } from "../helpers/app.ts";
import { type Page, withBrowser } from "../helpers/browser.ts";
import { eventually } from "../helpers/eventually.ts";
import { addContact, addTicket } from "../helpers/tickets.ts";
import { distributionTick } from "../../server/distribution/tick.ts";

/**
 * Issue 26 in the browser: a message from the simulator lands directly in an online attendant's
 * 'Atendendo' list; an attendant at capacity gets nothing; a ticket past its target turns red and
 * the bell of the queue's supervisor (a plain user marked so by an admin) rings; the attendant
 * who went offline loses it to the supervisor, and both are told (issue 50 item 17).
 */
async function api<T>(t: TestApp, token: string, method: string, path: string, body?: unknown) {
  const res = await t.request(method, path, { token, body });
  const text = await res.text();
  assert.ok(res.ok, `${method} ${path}: ${res.status} ${text}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

function openItem(page: Page, text: string) {
  return page.getByTestId("list-open").getByTestId("ticket-item").filter({ hasText: text });
}

Deno.test("distribution page - a simulator message lands in the online attendant's 'Atendendo'; one at capacity gets nothing; past its target it turns red and the supervisor's bell rings", () =>
  withBrowser(async ({ t, page, url, loginAs, secondBrowser, pageErrors }) => {
    const c = await createCompany(t, "Alpha");
    // No hours: the queue works around the clock; a first response is due within a minute.
    const queue = await api<{ id: number }>(t, c.admin.token, "POST", "/api/queue", {
      name: "Vendas",
      color: "#0EA5E9",
      schedules: [],
      distribution: "least_busy",
      firstResponseMinutes: 1,
    });
    const whatsapp = await api<{ id: number }>(t, c.admin.token, "POST", "/api/whatsapp", {
      name: "Simulador",
      provider: "simulator",
      isDefault: true,
      queueIds: [queue.id],
    });
    await api(t, c.admin.token, "POST", `/api/simulator/${whatsapp.id}/scan`);
    const ana = await createUser(t, c.id, {
      name: "Ana Atendente",
      email: "ana@alpha.test",
      queueIds: [queue.id],
    });
    const bia = await createUser(t, c.id, {
      name: "Bia Atendente",
      email: "bia@alpha.test",
      queueIds: [queue.id],
    });
    // A plain user supervising the queue (created after Ana: a tie of least busy goes to Ana).
    const chefe = await createUser(t, c.id, {
      name: "Chefe Supervisora",
      email: "chefe@alpha.test",
      queueIds: [queue.id],
    });
    await api(t, c.admin.token, "PUT", `/api/users/${chefe.id}`, {
      supervisedQueueIds: [queue.id],
    });
    // Writes as the phone (the admin's own API session ends when they sign in in the browser).
    const phone = await createUser(t, c.id, { name: "Telefone", email: "phone@alpha.test" });
    // Bia may hold one ticket and already does: at capacity.
    await api(t, c.admin.token, "PUT", `/api/users/${bia.id}`, { maxOpenTickets: 1 });
    const held = await addContact(t, c.id, "Cliente Antigo", "5511977776666");
    await addTicket(t, c.id, {
      contactId: held,
      queueId: queue.id,
      status: "open",
      userId: bia.id,
      whatsappId: whatsapp.id,
    });

    await loginAs(page, ana);
    // The shell learns of taken-back tickets from the session (/api/auth/me): no request of its
    // own for them on a page load while there are none.
    const askedTakenBack: string[] = [];
    page.on("request", (request) => {
      if (request.url().includes("/api/tickets/taken-back")) askedTakenBack.push(request.url());
    });
    await page.goto(`${url}/tickets`);
    await page.getByTestId("tab-open").waitFor();
    const other = await secondBrowser();
    await loginAs(other, bia);
    await other.goto(`${url}/tickets`);
    await openItem(other, "Cliente Antigo").waitFor();
    const boss = await secondBrowser();
    await loginAs(boss, chefe);
    await boss.getByTestId("bell-sla").waitFor();
    await eventually(async () => {
      const online = await t.deps.db.selectFrom("users").select("id").where("online", "=", 1)
        .where("id", "in", [ana.id, bia.id, chefe.id]).execute();
      return online.length === 3;
    }, { what: "the attendants and the supervisor online" });

    // The phone writes: the ticket is Ana's at once, in her 'Atendendo' list, not pending.
    await api(t, phone.token, "POST", `/api/simulator/${whatsapp.id}/messages`, {
      from: "5511988887777",
      name: "Carlos Cliente",
      body: "Olá, preciso de ajuda",
    });
    await openItem(page, "Carlos Cliente").waitFor();
    const row = await t.deps.db.selectFrom("tickets").select(["id", "userId", "status"])
      .where("companyId", "=", c.id).where("userId", "=", ana.id).executeTakeFirstOrThrow();
    assert.equal(row.status, "open");
    // Bia, at capacity, has only her own ticket.
    assert.equal(await other.getByTestId("list-open").getByTestId("ticket-item").count(), 1);

    // Two minutes later nobody answered: the job records the breach; red badge, the
    // supervisor's bell rings.
    t.clock.advance(2 * 60_000);
    await distributionTick(t.deps);
    const badge = openItem(page, "Carlos Cliente").getByTestId("ticket-sla");
    await badge.and(page.locator('[data-level="late"]')).waitFor();
    const bell = boss.getByTestId("bell-sla");
    await bell.locator(".badge").getByText("1").waitFor();
    await bell.click();
    await boss.getByTestId("sla-item").filter({ hasText: "Carlos Cliente" }).waitFor();

    // Issue 50 item 17: Ana closes the app; past the company's minutes her untouched ticket goes
    // to the supervisor (Bia is full), whose bell says from whom ...
    assert.deepEqual(askedTakenBack, []);
    await page.goto(`${url}/healthz`);
    await eventually(
      async () =>
        (await t.deps.db.selectFrom("users").select("online").where("id", "=", ana.id)
          .executeTakeFirstOrThrow()).online === 0,
      { what: "Ana offline" },
    );
    t.clock.advance(11 * 60_000);
    await distributionTick(t.deps);
    const tickets = boss.getByTestId("bell-tickets");
    await tickets.locator(".badge").waitFor();
    await tickets.click();
    await boss.getByTestId("taken-back-item").filter({ hasText: "Carlos Cliente" })
      .getByText("Passado a você: Ana Atendente ficou offline").waitFor();
    // ... and Ana, back, reads where it went until she closes the notice.
    await page.goto(`${url}/tickets`);
    const notice = page.getByTestId("taken-back");
    await notice.getByText("Enquanto você estava offline, 1 ticket seu foi repassado:").waitFor();
    await notice.getByRole("listitem").filter({ hasText: "Carlos Cliente" })
      .getByText("agora com Chefe Supervisora").waitFor();
    await notice.getByTestId("taken-back-ok").click();
    await notice.waitFor({ state: "detached" });
    await eventually(async () =>
      (await t.deps.db.selectFrom("taken_back_notices").select("seenAt")
        .where("userId", "=", ana.id).executeTakeFirstOrThrow()).seenAt !== null
    );
    assert.deepEqual(pageErrors, []);
  }));
