import assert from "node:assert/strict";
import { createCompany, createUser, type TestApp } from "../helpers/app.ts";
import { type Page, toastShown, withBrowser } from "../helpers/browser.ts";
import { axeFindings, overflow } from "../helpers/page_audit.ts";
import { addContact, addQueue, addTicket, addWhatsapp } from "../helpers/tickets.ts";

/**
 * Issue 28 in a real browser: a pin that survives a reload and reaches the user's other tab;
 * find a word 500 messages back and land on it; click a quote and land on the quoted message; a
 * quick answer of one queue, offered after '/' to that queue's attendant.
 */

const minute = (n: number) => new Date(Date.UTC(2026, 0, 1, 8, 0) + n * 60_000).toISOString();

/** `count` messages in the ticket, one a minute; `words[i]` replaces message i's text. */
async function conversation(
  t: TestApp,
  companyId: number,
  ticketId: number,
  count: number,
  words: Record<number, string> = {},
) {
  const rows = Array.from({ length: count }, (_, i) => ({
    companyId,
    ticketId,
    contactId: null,
    whatsappId: null,
    wid: null,
    remoteJid: null,
    participant: null,
    body: words[i] ?? `mensagem número ${i}`,
    fromMe: i % 2,
    read: 1,
    mediaType: null,
    mediaUrl: null,
    mediaName: null,
    quotedMsgId: null,
    dataJson: null,
    createdAt: minute(i),
    updatedAt: minute(i),
  }));
  const ids = [];
  for (let i = 0; i < rows.length; i += 200) {
    const made = await t.deps.db.insertInto("messages").values(rows.slice(i, i + 200))
      .returning("id").execute();
    ids.push(...made.map((r) => r.id));
  }
  return ids;
}

/** The message is marked and inside the conversation's visible box. */
async function landedOn(page: Page, messageId: number) {
  const row = page.locator(`[data-message-id="${messageId}"][data-highlighted]`);
  await row.waitFor();
  const visible = await page.getByTestId("messages").evaluate((scroller, id) => {
    const el = scroller.querySelector(`[data-message-id="${id}"]`)!.getBoundingClientRect();
    const box = scroller.getBoundingClientRect();
    return el.top >= box.top - 1 && el.bottom <= box.bottom + 1 ? true : JSON.stringify({
      el,
      box,
      top: scroller.scrollTop,
      h: scroller.scrollHeight,
      ids: [...scroller.querySelectorAll("[data-message-id]")].map((e) =>
        e.getAttribute("data-message-id")
      ).join(","),
    });
  }, messageId);
  assert.equal(visible, true, "the message is scrolled into view");
}

async function audit(page: Page) {
  assert.deepEqual(await axeFindings(page), []);
  assert.equal(await overflow(page), null);
}

Deno.test("conversation tools e2e - a pin puts the ticket first, survives a reload and reaches the user's other tab", () =>
  withBrowser(async ({ t, page, url, context, loginAs, pageErrors }) => {
    const c = await createCompany(t, "Alpha");
    const whatsappId = await addWhatsapp(t, c.id, "Principal", { isDefault: true });
    const older = await addTicket(t, c.id, {
      contactId: await addContact(t, c.id, "Antiga Cliente", "5511999990001"),
      whatsappId,
      status: "open",
      userId: c.admin.id,
      lastMessage: "primeira",
      at: minute(0),
    });
    await addTicket(t, c.id, {
      contactId: await addContact(t, c.id, "Nova Cliente", "5511999990002"),
      whatsappId,
      status: "open",
      userId: c.admin.id,
      lastMessage: "segunda",
      at: minute(5),
    });
    await loginAs(page, c.admin);
    const other = await context.newPage();
    await other.goto(`${url}/tickets`);
    const firstIn = (p: Page) => p.getByTestId("list-open").getByTestId("ticket-item").first();
    await firstIn(other).getByText("Nova Cliente").waitFor();

    await page.goto(`${url}/tickets/${older.uuid}`);
    await page.getByTestId("ticket-header").getByText("Antiga Cliente").waitFor();
    await firstIn(page).getByText("Nova Cliente").waitFor();
    await page.getByTestId("ticket-pin").click();
    await page.locator('[data-testid="ticket-pin"][aria-pressed="true"]').waitFor();
    await firstIn(page).getByText("Antiga Cliente").waitFor();
    // Issue 44 item 6: in 'Tempo restante' order too (it put the pin last, neither having a
    // target).
    await page.getByTestId("sort-time-left").click();
    await page.locator('[data-testid="sort-time-left"][aria-pressed="true"]').waitFor();
    await page.getByTestId("list-open").getByTestId("ticket-item").nth(1).waitFor();
    assert.equal(await firstIn(page).getByTestId("ticket-name").innerText(), "Antiga Cliente");
    await page.getByTestId("sort-time-left").click();
    await page.locator('[data-testid="sort-time-left"][aria-pressed="false"]').waitFor();
    // The other tab hears it (ticketPin to the user's sockets) and reorders without a reload.
    await firstIn(other).getByText("Antiga Cliente").waitFor();
    await other.locator('[data-pinned="true"]').getByText("Antiga Cliente").waitFor();

    await page.reload();
    await page.locator('[data-testid="ticket-pin"][aria-pressed="true"]').waitFor();
    await firstIn(page).getByText("Antiga Cliente").waitFor();
    assert.equal(await firstIn(page).getAttribute("data-pinned"), "true");
    await audit(page);

    await page.getByTestId("ticket-pin").click();
    await page.locator('[data-testid="ticket-pin"][aria-pressed="false"]').waitFor();
    await firstIn(page).getByText("Nova Cliente").waitFor();
    await firstIn(other).getByText("Nova Cliente").waitFor();
    assert.deepEqual(pageErrors, []);
  }));

Deno.test("conversation tools e2e - find a word 500 messages back and land on it; click a quote and land on the quoted message", () =>
  withBrowser(async ({ t, page, url, loginAs, pageErrors }) => {
    const c = await createCompany(t, "Alpha");
    const whatsappId = await addWhatsapp(t, c.id, "Principal", { isDefault: true });
    const ticket = await addTicket(t, c.id, {
      contactId: await addContact(t, c.id, "Carlos Cliente", "5511999990001"),
      whatsappId,
      status: "open",
      userId: c.admin.id,
      at: minute(0),
    });
    const total = 620;
    const ids = await conversation(t, c.id, ticket.id, total, {
      [total - 501]: "Quero trocar o abacaxi do pedido",
      [total - 301]: "A nota fiscal veio errada",
    });
    const hit = ids[total - 501];
    const quoted = ids[total - 301];
    // The newest message quotes one 300 messages back.
    await t.deps.db.updateTable("messages").set({ quotedMsgId: quoted })
      .where("id", "=", ids[total - 1]).where("companyId", "=", c.id).execute();

    await loginAs(page, c.admin);
    await page.goto(`${url}/tickets/${ticket.uuid}`);
    const messages = page.getByTestId("messages");
    await messages.getByText(`mensagem número ${total - 2}`).waitFor();
    assert.equal(await page.locator(`[data-message-id="${hit}"]`).count(), 0);

    await page.getByTestId("conversation-search-open").click();
    // The button's tooltip does not cover the field it just opened (the pointer still on it).
    assert.equal(
      await page.getByTestId("conversation-search-open").evaluate((button) =>
        getComputedStyle(button, "::after").display
      ),
      "none",
    );
    const input = page.getByTestId("conversation-search-input");
    const height = (await input.boundingBox())!.height;
    // Issue 44 item 6: a word in hundreds of messages fills the panel; the field stays whole
    // (it was squeezed to a sliver by the list under it).
    await input.fill("mensagem");
    await page.getByTestId("conversation-search-hit").nth(20).waitFor();
    assert.equal((await input.boundingBox())!.height, height);
    await input.fill("abacaxi");
    const result = page.getByTestId("conversation-search-hit");
    await result.getByText("Quero trocar o abacaxi do pedido").waitFor();
    assert.equal(await result.count(), 1);
    assert.match(await result.innerText(), /01\/01\/2026/);
    await audit(page);
    await result.click();
    await landedOn(page, hit);
    await page.getByTestId("conversation-search").waitFor({ state: "detached" });
    // 'To the bottom' after a jump reads the newest page again.
    await page.locator(".ml-jump").click();
    await messages.getByText(`mensagem número ${total - 2}`).waitFor();
    await page.locator(`[data-message-id="${hit}"]`).waitFor({ state: "detached" });

    // Back to the newest page, then the quote of the last message.
    await page.reload();
    await messages.getByText(`mensagem número ${total - 2}`).waitFor();
    await page.locator(`[data-message-id="${ids[total - 1]}"]`).getByTestId("message-quote")
      .click();
    await landedOn(page, quoted);
    await audit(page);
    assert.deepEqual(pageErrors, []);
  }));

Deno.test("conversation tools e2e - a quick answer of one queue: chosen in the dialog, offered after '/' to that queue's attendant", () =>
  withBrowser(async ({ t, page, url, loginAs, secondBrowser, pageErrors }) => {
    const c = await createCompany(t, "Alpha");
    const vendas = await addQueue(t, c.id, "Vendas");
    const suporte = await addQueue(t, c.id, "Suporte");
    const whatsappId = await addWhatsapp(t, c.id, "Principal", { isDefault: true });
    const ana = await createUser(t, c.id, {
      name: "Ana Atendente",
      email: "ana@alpha.test",
      queueIds: [vendas],
    });
    const ticket = await addTicket(t, c.id, {
      contactId: await addContact(t, c.id, "Carlos Cliente", "5511999990001"),
      whatsappId,
      queueId: vendas,
      status: "open",
      userId: ana.id,
    });

    await loginAs(page, c.admin);
    await page.goto(`${url}/quick-messages`);
    await page.getByRole("button", { name: "Adicionar" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.locator("input[name=shortcode]").fill("precos");
    await dialog.locator("textarea[name=message]").fill("Tabela de preços da equipe de vendas");
    await dialog.getByLabel("Fila", { exact: true }).click();
    await page.getByRole("option", { name: "Vendas", exact: true }).click();
    await audit(page);
    await dialog.getByTestId("quick-message-submit").click();
    await toastShown(page, "Resposta rápida salva com sucesso!");
    const stored = await t.deps.db.selectFrom("quick_messages").select("queueId")
      .where("companyId", "=", c.id).where("shortcode", "=", "precos").executeTakeFirstOrThrow();
    assert.equal(stored.queueId, vendas);
    assert.notEqual(stored.queueId, suporte);

    // Ana attends Vendas: '/' offers it in her ticket.
    const hers = await secondBrowser();
    await loginAs(hers, ana);
    await hers.goto(`${url}/tickets/${ticket.uuid}`);
    await hers.getByTestId("message-text").fill("/pre");
    await hers.getByTestId("quick-answers").getByText(/precos - Tabela de preços/).waitFor();
    assert.deepEqual(pageErrors, []);
  }));
