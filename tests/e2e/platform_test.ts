import assert from "node:assert/strict";
import { ADMIN_EMAIL, ADMIN_PASSWORD, createCompany, login } from "../helpers/app.ts";
import { toastWith, withBrowser } from "../helpers/browser.ts";
import { eventually } from "../helpers/eventually.ts";

/**
 * Issue 11 in the browser: a visitor signs up and logs in to an empty company; a super user
 * administers plans, companies and help videos on /settings, and a plan change reaches an open
 * page of that company at once (its kanban menu entry disappears without a new login).
 */

/** A date-only ISO string `days` from today in the browser's (and this machine's) calendar. */
function isoDaysAhead(days: number): string {
  const d = new Date();
  d.setDate(d.getDate() + days);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

Deno.test("signup - a visitor signs up on /signup, lands on /login with the success text, logs in to an empty company and watches a help video", () =>
  withBrowser(async ({ t, page, url, pageErrors }) => {
    const root = (await login(t, ADMIN_EMAIL, ADMIN_PASSWORD)).token;
    const help = await t.request("POST", "/api/helps", {
      token: root,
      body: { title: "Primeiros passos", description: "Conecte seu número", video: "dQw4w9WgXcQ" },
    });
    assert.equal(help.status, 201);

    await page.goto(`${url}/signup?companyId=1`);
    const form = page.getByTestId("signup-form");
    // The local rules first: nothing is sent.
    await form.getByRole("button", { name: "Cadastrar" }).click();
    await form.locator(".field-error", { hasText: "Obrigatório" }).first().waitFor();
    assert.equal(
      await t.deps.db.selectFrom("companies").select("id").where("name", "=", "Padaria Central")
        .executeTakeFirst(),
      undefined,
    );
    const errorCount = () => form.locator(".field-error", { hasText: "Obrigatório" }).count();
    const before = await errorCount();
    await form.getByLabel("Seu nome").fill("Joana Lima");
    // The fixed field's old message goes at once (issue 24 item 2); the others stay.
    await eventually(async () => (await errorCount()) === before - 1);
    await form.getByLabel("Nome da empresa").fill("Padaria Central");
    await form.getByLabel("E-mail").fill("joana@padaria.test");
    await form.getByLabel("Telefone").fill("5511977776666");
    await form.getByLabel("Senha").fill("segredo1");
    await form.getByLabel("Plano").selectOption({ index: 1 });
    await form.getByRole("button", { name: "Cadastrar" }).click();
    await page.waitForURL(`${url}/login?signup=ok`);
    await page.getByTestId("login-notice").getByText("Cadastro realizado com sucesso!", {
      exact: false,
    }).waitFor();
    const company = await t.deps.db.selectFrom("companies").selectAll()
      .where("name", "=", "Padaria Central").executeTakeFirstOrThrow();
    assert.equal(company.recurrence, "MENSAL");

    await page.locator("form input[name=email]").fill("joana@padaria.test");
    await page.locator("form input[name=password]").fill("segredo1");
    await page.locator("form button[type=submit]:not([disabled])").click();
    await page.waitForURL(`${url}/`);
    await page.getByTestId("greeting").getByText("Joana Lima").waitFor();
    // An empty company: no contacts.
    await page.goto(`${url}/contacts`);
    await page.getByTestId("contacts-list").getByText("Nenhum", { exact: false }).waitFor();

    // /helps for everyone: the card's thumbnail comes from the video id; Escape closes the player.
    await page.locator('aside [data-menu="helps"]').click();
    await page.waitForURL(`${url}/helps`);
    const card = page.getByTestId("help-card");
    await card.getByText("Primeiros passos").waitFor();
    assert.match(
      (await card.locator("img").getAttribute("src")) ?? "",
      /img\.youtube\.com\/vi\/dQw4w9WgXcQ\//,
    );
    await card.getByRole("button", { name: "Assistir: Primeiros passos" }).click();
    const player = page.getByTestId("help-player");
    await player.waitFor();
    assert.match(
      (await player.locator("iframe").getAttribute("src")) ?? "",
      /youtube-nocookie\.com\/embed\/dQw4w9WgXcQ/,
    );
    await page.keyboard.press("Escape");
    await player.waitFor({ state: "detached" });
    // The harness's toast recorder (an init script) also runs inside YouTube's frame, which is
    // unreachable here and may not read sessionStorage: that line is the harness's, not the page's.
    assert.deepEqual(pageErrors.filter((e) => !e.includes("'sessionStorage'")), []);
  }));

Deno.test("platform tabs - a super user creates a plan without kanban and moves a company onto it: its open page loses kanban without a new login", () =>
  withBrowser(async ({ t, page, url, loginAs, secondBrowser }) => {
    const alpha = await createCompany(t, "Alpha");
    // seeds/001 section 9: yellow at exactly 5 days left.
    await t.deps.db.updateTable("companies").set({ dueDate: isoDaysAhead(5) })
      .where("id", "=", alpha.id).execute();

    // Alpha's admin, in another browser, has /kanban open, with its menu entry.
    const other = await secondBrowser();
    await loginAs(other, alpha.admin, { expectPath: "/" });
    const kanbanEntry = other.locator('aside [data-menu="kanban"]');
    await kanbanEntry.click();
    await other.waitForURL(`${url}/kanban`);

    await loginAs(page, { email: ADMIN_EMAIL, password: ADMIN_PASSWORD });
    await page.goto(`${url}/settings`);
    await page.getByRole("tab", { name: "Planos" }).click();
    await page.getByTestId("plans-add").click();
    const planDialog = page.getByRole("dialog");
    await planDialog.getByLabel("Nome").fill("Sem Kanban");
    await planDialog.getByLabel("Usuários").fill("5");
    await planDialog.getByRole("switch", { name: "Kanban" }).uncheck();
    await planDialog.getByTestId("plan-submit").click();
    await toastWith(page, "Operação realizada com sucesso!").waitFor();
    const row = page.getByTestId("plan-row").filter({ hasText: "Sem Kanban" });
    await row.waitFor();
    const plan = await t.deps.db.selectFrom("plans").selectAll().where("name", "=", "Sem Kanban")
      .executeTakeFirstOrThrow();
    assert.equal(plan.useKanban, 0);
    assert.equal(plan.useCampaigns, 1);
    assert.equal(plan.users, 5);

    await page.getByRole("tab", { name: "Empresas" }).click();
    const alphaRow = page.locator(`[data-testid=company-row][data-company-id="${alpha.id}"]`);
    await alphaRow.waitFor();
    assert.equal(await alphaRow.getAttribute("data-tone"), "yellow");
    await alphaRow.getByRole("button", { name: "Editar" }).click();
    const companyDialog = page.getByRole("dialog");
    // The record has loaded into the form.
    const nameInput = companyDialog.locator("input[name=name]");
    await eventually(async () => (await nameInput.inputValue()) === "Alpha");
    await companyDialog.getByRole("combobox", { name: "Plano" }).click();
    await page.getByRole("option", { name: "Sem Kanban" }).click();
    await companyDialog.getByTestId("company-submit").click();
    await toastWith(page, "Operação realizada com sucesso!").last().waitFor();
    await alphaRow.getByText("Sem Kanban").waitFor();

    // Alpha's open page: /kanban is left for / and the entry goes, without a new login.
    await other.waitForURL(`${url}/`);
    await kanbanEntry.waitFor({ state: "detached" });
    const status = await other.evaluate(async () => {
      const token = localStorage.getItem("token") ?? "";
      const res = await fetch("/api/tags/kanban", {
        headers: { authorization: `Bearer ${token}` },
      });
      return res.status;
    });
    assert.equal(status, 403);

    // Deleting a company asks first, then removes it and its data.
    const beta = await createCompany(t, "Beta");
    await page.getByTestId("companies-search").fill("Beta");
    const betaRow = page.locator(`[data-testid=company-row][data-company-id="${beta.id}"]`);
    await betaRow.getByRole("button", { name: "Excluir" }).click();
    const confirm = page.getByRole("alertdialog").or(page.getByRole("dialog"));
    await confirm.getByText("Deseja realmente excluir este/esse registro?").waitFor();
    await confirm.getByRole("button", { name: "Excluir" }).click();
    await betaRow.waitFor({ state: "detached" });
    await eventually(async () =>
      (await t.deps.db.selectFrom("users").select("id").where("companyId", "=", beta.id)
        .executeTakeFirst()) === undefined
    );

    // The Ajuda tab: a pasted YouTube address is kept as its id.
    await page.getByRole("tab", { name: "Ajuda" }).click();
    await page.getByTestId("helps-add").click();
    const helpDialog = page.getByRole("dialog");
    await helpDialog.getByLabel("Título").fill("Conectar o WhatsApp");
    await helpDialog.getByLabel("Vídeo").fill("https://youtu.be/9bZkp7q19f0?si=abc");
    await helpDialog.getByTestId("help-submit").click();
    await page.getByTestId("help-row").filter({ hasText: "9bZkp7q19f0" }).waitFor();
  }));
