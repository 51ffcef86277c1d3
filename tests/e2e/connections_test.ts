import assert from "node:assert/strict";
import { createCompany } from "../helpers/app.ts";
import { type Page, storageItem, toastShown, toastWith, withBrowser } from "../helpers/browser.ts";
import { connectSimulator } from "../whatsapp/helpers.ts";

/** The row of a connection in the /connections table. */
function row(page: Page, name: string) {
  return page.locator(`[data-testid=connection-row][data-name="${name}"]`);
}

function statusOf(page: Page, name: string, status: string) {
  return row(page, name).locator(`[data-testid=connection-status][data-status="${status}"]`);
}

/** seeds/000 section 2 'Side menu': the alert shows 2 s after the page loads; allow for busy cores. */
const BADGE_TIMEOUT_MS = 10_000;

Deno.test("connections page - an admin adds a simulator connection, scans its QR and sees it connected; buttons and the menu alert follow the status", () =>
  withBrowser(async ({ t, page, url, loginAs, pageErrors }) => {
    const c = await createCompany(t, "Alpha");
    await loginAs(page, c.admin, { expectPath: "/" });
    // The browser's login ended the test's earlier session of this admin: use the browser's token.
    const token = (await storageItem(page, "token")) ?? "";
    await page.goto(`${url}/connections`);
    await page.getByTestId("connections-empty").waitFor();
    const alert = page.getByTestId("connections-alert");
    assert.equal(await alert.count(), 0);

    // The dialog checks the name like seeds/000 section 5.
    await page.getByTestId("add-connection").click();
    const form = page.getByTestId("connection-form");
    await form.waitFor();
    const save = page.getByTestId("connection-save");
    await save.click();
    await form.getByText("Obrigatório").waitFor();
    await form.locator("input[name=name]").fill("A");
    await save.click();
    await form.getByText("Muito curto!").waitFor();
    await form.locator("input[name=name]").fill("x".repeat(51));
    await save.click();
    await form.getByText("Muito longo!").waitFor();

    // Provider: real WhatsApp by default; pick the simulator.
    await form.locator("input[name=name]").fill("Loja Centro");
    const provider = form.locator("[data-field=provider] button");
    assert.equal(await provider.innerText(), "WhatsApp (número real)");
    await provider.click();
    await page.getByRole("option", { name: "Simulador (demonstração)" }).click();
    await save.click();
    await toastWith(page, "Conexão salva com sucesso!").waitFor();

    // A new connection starts at once: its QR dialog opens with the QR image.
    const dialog = page.getByTestId("qr-dialog");
    await dialog.waitFor();
    const image = page.getByTestId("qr-image");
    await image.waitFor();
    assert.match(await image.getAttribute("src") ?? "", /^data:image\/png;base64,/);
    await statusOf(page, "Loja Centro", "qrcode").waitFor();
    assert.match(
      await row(page, "Loja Centro").getByTestId("connection-updated").innerText(),
      /^\d{2}\/\d{2}\/\d{2} \d{2}:\d{2}$/,
    );
    assert.equal(await row(page, "Loja Centro").getByTestId("default-mark").count(), 1);
    // Waiting for the QR: the menu's alert appears (after its 2 s delay).
    await alert.waitFor({ timeout: BADGE_TIMEOUT_MS });

    // 'Simulate scan': the dialog closes by itself and the row shows CONNECTED with 'disconnect'.
    await page.getByTestId("simulate-scan").click();
    await dialog.waitFor({ state: "detached" });
    await statusOf(page, "Loja Centro", "CONNECTED").waitFor();
    const buttons = row(page, "Loja Centro").locator("[data-testid^=session-]");
    assert.deepEqual(await buttons.evaluateAll((els) => els.map((e) => e.dataset.testid)), [
      "session-disconnect",
    ]);
    await alert.waitFor({ state: "detached" });
    const stored = await t.deps.db.selectFrom("whatsapps").selectAll().where("companyId", "=", c.id)
      .executeTakeFirstOrThrow();
    assert.equal(stored.name, "Loja Centro");
    assert.equal(stored.provider, "simulator");
    assert.equal(stored.status, "CONNECTED");
    assert.equal(stored.qrcode, "");

    // Disconnect (confirmed): DISCONNECTED offers 'try again' and 'new QR'; the alert is back.
    await row(page, "Loja Centro").getByTestId("session-disconnect").click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Desconectar" }).click();
    await statusOf(page, "Loja Centro", "DISCONNECTED").waitFor();
    assert.deepEqual(await buttons.evaluateAll((els) => els.map((e) => e.dataset.testid)), [
      "session-tryAgain",
      "session-newQr",
    ]);
    await alert.waitFor();

    // 'Try again' leads to a new QR, shown at once.
    await row(page, "Loja Centro").getByTestId("session-tryAgain").click();
    await page.getByTestId("qr-image").waitFor();
    await statusOf(page, "Loja Centro", "qrcode").waitFor();
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "detached" });
    // The QR button opens it again; the scan can also come from elsewhere (the API here).
    await row(page, "Loja Centro").getByTestId("session-qrcode").click();
    await page.getByTestId("qr-image").waitFor();
    const scan = await t.request("POST", `/api/simulator/${stored.id}/scan`, { token });
    assert.equal(scan.status, 200);
    await dialog.waitFor({ state: "detached" });
    await statusOf(page, "Loja Centro", "CONNECTED").waitFor();

    // Edit: the server's refusal is a translated toast (a default connection must remain).
    await row(page, "Loja Centro").getByTestId("edit-connection").click();
    await form.waitFor();
    assert.equal(await form.locator("input[name=name]").inputValue(), "Loja Centro");
    await form.getByTestId("switch-isDefault").click();
    await save.click();
    await toastWith(page, "Deve haver pelo menos uma conexão padrão.").waitFor();
    await form.getByTestId("switch-isDefault").click();
    await form.locator("input[name=name]").fill("Loja Norte");
    await save.click();
    await form.waitFor({ state: "detached" });
    await row(page, "Loja Norte").waitFor();
    assert.equal(await row(page, "Loja Centro").count(), 0);

    // Another tab's change arrives live: a connection added through the API shows up.
    const res = await t.request("POST", "/api/whatsapp", {
      token,
      body: { name: "Loja Sul", provider: "simulator" },
    });
    assert.equal(res.status, 201);
    const sul = await res.json();
    await statusOf(page, "Loja Sul", "qrcode").waitFor();

    // Delete with confirmation: the toast, the row and the database row go.
    await row(page, "Loja Sul").getByTestId("delete-connection").click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Excluir" }).click();
    await toastWith(page, "Conexão excluída com sucesso!").waitFor();
    await row(page, "Loja Sul").waitFor({ state: "detached" });
    const left = await t.deps.db.selectFrom("whatsapps").select("id").where("id", "=", sul.id)
      .executeTakeFirst();
    assert.equal(left, undefined);
    // Only connected connections remain: no alert.
    await alert.waitFor({ state: "detached" });
    assert.deepEqual(pageErrors, []);
  }));

Deno.test("connections page - a user is sent to /tickets before the page shows (the menu's rule), with none of its buttons", () =>
  withBrowser(async ({ t, page, url, loginAs, pageErrors }) => {
    const c = await createCompany(t, "Beta");
    await connectSimulator(t, c, { name: "Recepção" });
    await loginAs(page, c.user);
    await page.goto(`${url}/connections`);
    await page.waitForURL(`${url}/tickets`);
    await toastShown(page, "Acesso não permitido");
    for (const id of ["add-connection", "edit-connection", "delete-connection"]) {
      assert.equal(await page.getByTestId(id).count(), 0, id);
    }
    assert.equal(await page.locator("[data-testid^=session-]").count(), 0);
    assert.deepEqual(pageErrors, []);
  }));

Deno.test("simulator page - an admin creates a simulator connection in one click and a contact's 'Olá' opens a pending ticket", () =>
  withBrowser(async ({ t, page, url, loginAs, pageErrors }) => {
    const c = await createCompany(t, "Gamma");
    await loginAs(page, c.admin, { expectPath: "/" });
    await page.locator('aside [data-menu="simulator"]').click();
    await page.waitForURL(`${url}/simulator`);
    await page.getByTestId("simulator-create").click();
    await toastWith(page, "Conexão do simulador criada e conectada!").waitFor();
    await page.locator("[data-testid=connection-status][data-status=CONNECTED]").waitFor();

    await page.getByTestId("simulator-number").fill("5511988887777");
    await page.getByTestId("simulator-name").fill("Joana Souza");
    await page.getByTestId("simulator-input").fill("Olá");
    await page.getByTestId("simulator-input").press("Enter");
    const mine = page.locator("[data-testid=simulator-own-message]", { hasText: "Olá" });
    await mine.and(page.locator("[data-state=stored]")).waitFor();

    // The 2xx receipt means stored: a pending ticket of that contact holds the message.
    const contact = await t.deps.db.selectFrom("contacts").selectAll()
      .where("companyId", "=", c.id).where("number", "=", "5511988887777")
      .executeTakeFirstOrThrow();
    assert.equal(contact.name, "Joana Souza");
    const ticket = await t.deps.db.selectFrom("tickets").selectAll()
      .where("companyId", "=", c.id).where("contactId", "=", contact.id)
      .executeTakeFirstOrThrow();
    assert.equal(ticket.status, "pending");
    const messages = await t.deps.db.selectFrom("messages").select(["body", "fromMe", "wid"])
      .where("ticketId", "=", ticket.id).execute();
    assert.deepEqual(messages.map((m) => [m.body, m.fromMe]), [["Olá", 0]]);

    // What the company sends to the number appears on the phone, acks moving to read.
    const whatsapp = await t.deps.db.selectFrom("whatsapps").select("id")
      .where("companyId", "=", c.id).executeTakeFirstOrThrow();
    const provider = t.deps.sessions.connectedProvider(whatsapp.id);
    assert.ok(provider);
    await provider.sendText("5511988887777@s.whatsapp.net", "Olá Joana, em que posso ajudar?");
    const answer = page.locator("[data-testid=simulator-company-message]", {
      hasText: "Olá Joana, em que posso ajudar?",
    });
    await answer.waitFor();
    await answer.and(page.locator("[data-ack='3']")).waitFor();

    // A phone-side edit reaches the stored message.
    await mine.hover();
    await mine.getByRole("button", { name: "Ações da mensagem" }).click();
    await page.getByRole("menuitem", { name: "Editar" }).click();
    const editor = page.getByRole("dialog");
    await editor.locator("textarea").fill("Olá, bom dia");
    await editor.getByRole("button", { name: "Salvar" }).click();
    await page.locator("[data-testid=simulator-own-message]", { hasText: "Olá, bom dia" })
      .waitFor();
    const edited = await t.deps.db.selectFrom("messages").select(["body", "isEdited"])
      .where("wid", "=", messages[0].wid).executeTakeFirstOrThrow();
    assert.deepEqual(edited, { body: "Olá, bom dia", isEdited: 1 });

    // The contact is remembered for the next visit.
    await page.reload();
    assert.equal(await page.getByTestId("simulator-number").inputValue(), "5511988887777");
    await page.locator("[data-testid=simulator-own-message]", { hasText: "Olá, bom dia" })
      .waitFor();
    assert.deepEqual(pageErrors, []);
  }));

Deno.test("connections page - the server's refusals are translated toasts: greeting with two queues, the plan's limit", () =>
  withBrowser(async ({ t, page, url, loginAs, pageErrors }) => {
    const c = await createCompany(t, "Delta", { plan: { connections: 2 } });
    await connectSimulator(t, c, { name: "Primeira" });
    for (const [name, color] of [["Vendas", "#0EA5E9"], ["Suporte", "#16A34A"]]) {
      const res = await t.request("POST", "/api/queue", {
        token: c.admin.token,
        body: { name, color },
      });
      assert.equal(res.status, 201, await res.clone().text());
    }
    await loginAs(page, c.admin, { expectPath: "/" });
    await page.goto(`${url}/connections`);
    await row(page, "Primeira").waitFor();

    await page.getByTestId("add-connection").click();
    const form = page.getByTestId("connection-form");
    await form.locator("input[name=name]").fill("Segunda");
    await form.locator("[data-field=provider] button").click();
    await page.getByRole("option", { name: "Simulador (demonstração)" }).click();
    // Two queues without a greeting: refused (seeds/000 section 8), shown on the messages tab.
    await form.locator("[data-field=queues] button").click();
    await page.getByRole("menuitemcheckbox", { name: "Vendas" }).click();
    await page.getByRole("menuitemcheckbox", { name: "Suporte" }).click();
    await page.keyboard.press("Escape");
    await page.getByTestId("connection-save").click();
    const greetingRequired = "A mensagem de saudação é obrigatória quando há mais de uma fila.";
    await toastWith(page, greetingRequired).waitFor();
    const greeting = form.locator("textarea[name=greetingMessage]");
    await greeting.fill("Olá {{name}}! Escolha uma opção:");
    await page.getByTestId("connection-save").click();
    await form.waitFor({ state: "detached" });
    await page.getByTestId("qr-dialog").waitFor();
    await page.keyboard.press("Escape");
    const created = await t.deps.db.selectFrom("whatsapps").selectAll()
      .where("companyId", "=", c.id).where("name", "=", "Segunda").executeTakeFirstOrThrow();
    assert.equal(created.greetingMessage, "Olá {{name}}! Escolha uma opção:");
    const queues = await t.deps.db.selectFrom("whatsapp_queues").select("queueId")
      .where("whatsappId", "=", created.id).execute();
    assert.equal(queues.length, 2);

    // The plan allows two connections: a third is refused with the plan's message.
    await page.getByTestId("add-connection").click();
    await form.locator("input[name=name]").fill("Terceira");
    await page.getByTestId("connection-save").click();
    await toastWith(page, "O limite do seu plano foi atingido.").waitFor();
    assert.equal(
      (await t.deps.db.selectFrom("whatsapps").select("id").where("companyId", "=", c.id)
        .execute()).length,
      2,
    );
    assert.deepEqual(pageErrors, []);
  }));
