import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { createCompany } from "../helpers/app.ts";
import { insertContact, insertTicket } from "../helpers/admin_fixtures.ts";
import { type Page, storageItem, toastWith, withBrowser } from "../helpers/browser.ts";

/** The row of a list whose text contains `text`. */
function row(page: Page, testId: string, text: string) {
  return page.getByTestId(testId).filter({ hasText: text });
}

/** Signs the current session out locally (storage and refresh cookie) to log in as someone else. */
async function forgetSession(page: Page) {
  await page.evaluate(() => localStorage.clear());
  await page.context().clearCookies();
}

Deno.test("contacts page - create, search, edit and import with a per-row report", () =>
  withBrowser(async ({ t, page, url, loginAs, pageErrors }) => {
    const c = await createCompany(t, "Acme");
    await insertContact(t, c.id, { name: "Zeca Pagodinho", number: "5511988887777" });
    await loginAs(page, c.admin, { expectPath: "/" });
    await page.goto(`${url}/contacts`);
    await row(page, "contact-row", "Zeca Pagodinho").waitFor();

    // Create through the dialog: the form's rules first, then the saved toast and the new row.
    await page.getByRole("button", { name: "Adicionar contato" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.locator("input[name=name]").fill("M");
    assert.equal(
      await dialog.locator("input[name=number]").getAttribute("placeholder"),
      "5513912344321",
    );
    await dialog.getByRole("button", { name: "Adicionar", exact: true }).click();
    await dialog.getByText("Muito curto!").waitFor();
    await dialog.locator("input[name=name]").fill("Maria Souza");
    await dialog.locator("input[name=number]").fill("5513912344321");
    await dialog.locator("input[name=email]").fill("maria@example.test");
    await dialog.getByRole("button", { name: "Adicionar informação" }).click();
    await dialog.locator("input[name=extra-name-0]").fill("CPF");
    await dialog.locator("input[name=extra-value-0]").fill("123");
    await dialog.getByRole("button", { name: "Adicionar", exact: true }).click();
    await toastWith(page, "Contato salvo com sucesso!").waitFor();
    await row(page, "contact-row", "Maria Souza").waitFor();
    const saved = await t.deps.db.selectFrom("contacts").selectAll()
      .where("companyId", "=", c.id).where("name", "=", "Maria Souza").executeTakeFirstOrThrow();
    assert.equal(saved.email, "maria@example.test");

    // The same number again: the duplicate error, translated.
    await page.getByRole("button", { name: "Adicionar contato" }).click();
    await dialog.locator("input[name=name]").fill("Outra Maria");
    await dialog.locator("input[name=number]").fill("5513912344321");
    await dialog.getByRole("button", { name: "Adicionar", exact: true }).click();
    await toastWith(page, "Já existe um contato com este número.").waitFor();
    await dialog.getByRole("button", { name: "Cancelar" }).click();

    // Search (3+ characters, debounced): only the match stays.
    await page.getByTestId("contacts-search").fill("Mar");
    await row(page, "contact-row", "Zeca").waitFor({ state: "detached" });
    assert.equal(await page.getByTestId("contact-row").count(), 1);

    // Edit: the dialog opens filled (extra field included) and saves the new name.
    await row(page, "contact-row", "Maria Souza").getByRole("button", { name: "Editar" }).click();
    await dialog.locator("input[name=extra-value-0]").waitFor();
    assert.equal(await dialog.locator("input[name=name]").inputValue(), "Maria Souza");
    await dialog.locator("input[name=name]").fill("Maria Souza Lima");
    await dialog.getByRole("button", { name: "Salvar" }).click();
    await row(page, "contact-row", "Maria Souza Lima").waitFor();
    await page.getByTestId("contacts-search").fill("");
    await row(page, "contact-row", "Zeca").waitFor();

    // Import: one good row, one with a bad number; the report names the skipped row.
    await page.getByRole("button", { name: "Importar" }).click();
    await dialog.locator("input[type=file]").setInputFiles({
      name: "contatos.csv",
      mimeType: "text/csv",
      buffer: Buffer.from(
        "name,number,email\nJoão Importado,5511977776666,joao@example.test\nRuim,123,\n",
      ),
    });
    await dialog.getByRole("button", { name: "Importar" }).click();
    const report = page.getByTestId("import-report");
    await report.waitFor();
    assert.match(await page.getByTestId("import-created").innerText(), /^1 criados/);
    assert.match(await page.getByTestId("import-skipped").innerText(), /^1 ignorados/);
    assert.match(await report.locator("table tbody tr").innerText(), /^3\s/);
    await dialog.getByRole("button", { name: "Fechar" }).last().click();
    await row(page, "contact-row", "João Importado").waitFor();
    assert.deepEqual(pageErrors, []);
  }));

Deno.test("users page - admin creates a user with a queue; the user logs in and cannot delete", () =>
  withBrowser(async ({ t, page, url, loginAs, pageErrors }) => {
    const c = await createCompany(t, "Acme");
    const queue = await t.request("POST", "/api/queue", {
      token: c.admin.token,
      body: { name: "Vendas", color: "#F44336" },
    });
    assert.equal(queue.status, 201);
    const queueId = (await queue.json()).id as number;
    await loginAs(page, c.admin, { expectPath: "/" });
    await page.goto(`${url}/users`);
    await row(page, "user-row", "Acme User").waitFor();

    await page.getByRole("button", { name: "Adicionar usuário" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByText("Vendas").waitFor();
    await dialog.locator("input[name=name]").fill("J");
    await dialog.locator("input[name=email]").fill("not-an-email");
    await dialog.getByRole("button", { name: "Adicionar", exact: true }).click();
    await dialog.getByText("Muito curto!").waitFor();
    await dialog.getByText("E-mail inválido").waitFor();
    await dialog.getByText("Obrigatório").waitFor(); // the password
    await dialog.locator("input[name=name]").fill("Joana Lima");
    await dialog.locator("input[name=email]").fill("joana@acme.test");
    await dialog.locator("input[name=password]").fill("segredo1");
    await dialog.getByText("Vendas").click();
    await dialog.getByRole("button", { name: "Adicionar", exact: true }).click();
    await toastWith(page, "Usuário salvo com sucesso!").waitFor();
    await row(page, "user-row", "Joana Lima").waitFor();
    const joana = await t.deps.db.selectFrom("users").select(["id", "profile"])
      .where("email", "=", "joana@acme.test").executeTakeFirstOrThrow();
    assert.equal(joana.profile, "user");
    const queues = await t.deps.db.selectFrom("user_queues").select("queueId")
      .where("userId", "=", joana.id).execute();
    assert.deepEqual(queues.map((q) => q.queueId), [queueId]);

    // A duplicated email is refused with its translated error.
    await page.getByRole("button", { name: "Adicionar usuário" }).click();
    await dialog.locator("input[name=name]").fill("Outra Joana");
    await dialog.locator("input[name=email]").fill("joana@acme.test");
    await dialog.locator("input[name=password]").fill("segredo1");
    await dialog.getByRole("button", { name: "Adicionar", exact: true }).click();
    await toastWith(page, "Já existe um usuário com este e-mail.").waitFor();
    await dialog.getByRole("button", { name: "Cancelar" }).click();

    // The new user signs in; as a normal user they see no delete buttons (seeds/000 section 6).
    await forgetSession(page);
    await loginAs(page, { email: "joana@acme.test", password: "segredo1" });
    assert.equal(await storageItem(page, "userId"), String(joana.id));
    // /users is the menu's 'user:manage' page: a normal user is sent to /tickets (issue 24 item 9).
    await page.goto(`${url}/users`);
    await page.waitForURL(`${url}/tickets`);
    assert.equal(await page.getByRole("button", { name: "Adicionar usuário" }).count(), 0);
    await page.goto(`${url}/contacts`);
    await page.getByTestId("contacts-list").waitFor();
    await page.getByRole("button", { name: "Adicionar contato" }).waitFor();
    assert.equal(await page.getByRole("button", { name: "Excluir" }).count(), 0);
    assert.deepEqual(pageErrors, []);
  }));

Deno.test("dashboard and to-do - counters for fixture tickets, the unset filter, local tasks", () =>
  withBrowser(async ({ t, page, url, loginAs, pageErrors }) => {
    // Today in the browser's calendar, at noon in São Paulo: inside the default range everywhere.
    const now = new Date();
    const pad = (n: number) => String(n).padStart(2, "0");
    const today = `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
    const at = (minutes: number) =>
      new Date(Date.parse(`${today}T15:00:00.000Z`) + minutes * 60_000).toISOString();
    t.clock.set(at(0));
    const c = await createCompany(t, "Acme");
    await insertTicket(t, c.id, { status: "pending" });
    await insertTicket(t, c.id, { status: "pending" });
    await insertTicket(t, c.id, { status: "open", userId: c.user.id, acceptedAt: at(10) });
    await insertTicket(t, c.id, {
      status: "closed",
      userId: c.user.id,
      acceptedAt: at(30),
      closedAt: at(90),
    });

    await loginAs(page, c.admin, { expectPath: "/" });
    const counter = (key: string) => page.getByTestId(`counter-${key}`);
    await counter("supportPending").getByText("2").waitFor();
    assert.equal(await counter("supportHappening").innerText(), "1");
    assert.equal(await counter("supportFinished").innerText(), "1");
    assert.equal(await counter("leads").innerText(), "4");
    assert.equal(await counter("avgSupportTime").innerText(), "1h 00min");
    assert.equal(await counter("avgWaitTime").innerText(), "20min");
    await row(page, "attendant-row", "Acme User").waitFor();
    // Four tickets created at 15:00 UTC = 12:00 in São Paulo: one bar.
    assert.equal(
      await page.locator('[data-testid=hourly-chart] rect[data-count="4"]').count(),
      1,
    );

    // Clearing the dates: 'Parametrize o filtro'.
    await page.locator("#dash-from").fill("");
    await page.getByRole("button", { name: "Filtrar" }).click();
    await page.getByTestId("filter-unset").getByText("Parametrize o filtro").waitFor();

    // To-do: add, blank ignored, edit, delete; the list survives a reload.
    await page.goto(`${url}/todolist`);
    const input = page.getByRole("textbox", { name: "Nova tarefa" });
    await input.fill("Ligar para o cliente");
    await input.press("Enter");
    await input.fill("Enviar proposta");
    await page.getByRole("button", { name: "Adicionar" }).click();
    await input.fill("   ");
    await input.press("Enter");
    await page.getByTestId("todo-item").nth(1).waitFor();
    assert.equal(await page.getByTestId("todo-item").count(), 2);
    await page.getByTestId("todo-item").filter({ hasText: "Enviar proposta" })
      .getByRole("button", { name: "Editar" }).click();
    const edit = page.getByRole("textbox", { name: "Editar tarefa" });
    await edit.fill("Enviar proposta revisada");
    await edit.press("Enter");
    await page.getByTestId("todo-text").getByText("Enviar proposta revisada").waitFor();
    await page.getByTestId("todo-item").filter({ hasText: "Ligar para o cliente" })
      .getByRole("button", { name: "Excluir" }).click();
    await page.reload();
    await page.getByTestId("todo-text").getByText("Enviar proposta revisada").waitFor();
    assert.deepEqual(
      await page.getByTestId("todo-text").allInnerTexts(),
      ["Enviar proposta revisada"],
    );
    const stored = JSON.parse((await storageItem(page, "tasks")) ?? "[]");
    assert.equal(stored.length, 1);
    assert.notEqual(stored[0].updatedAt, undefined);
    assert.deepEqual(pageErrors, []);
  }));
