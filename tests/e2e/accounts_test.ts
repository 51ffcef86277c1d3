import assert from "node:assert/strict";
import { ADMIN_EMAIL, ADMIN_PASSWORD, createCompany, login } from "../helpers/app.ts";
import { type Page, withBrowser } from "../helpers/browser.ts";
import { totpCode } from "../../server/auth/totp.ts";

/** Issue 30: two-factor sign-in as a user does it, and an admin ending another's session. */

async function logout(page: Page, url: string) {
  await page.locator('aside [data-menu="logout"]').click();
  await page.waitForURL(`${url}/login`);
}

async function passwordStep(page: Page, url: string, user: { email: string; password: string }) {
  await page.goto(`${url}/login`);
  await page.locator("form input[name=email]").fill(user.email);
  await page.locator("form input[name=password]").fill(user.password);
  await page.locator("form button[type=submit]:not([disabled])").click();
  await page.getByTestId("login-2fa-form").waitFor();
}

async function codeStep(page: Page, code: string) {
  await page.locator("form input[name=code]").fill(code);
  await page.locator("form button[type=submit]:not([disabled])").click();
}

Deno.test("accounts e2e - turn on two-factor, log out, log in with a code; a recovery code works once", () =>
  withBrowser(async ({ t, page, url, loginAs, pageErrors }) => {
    const c = await createCompany(t, "Acme");
    await loginAs(page, c.user);

    // Turn it on from the account menu: the key (and its QR code), a code, the recovery codes.
    await page.getByTestId("account-menu").click();
    await page.getByRole("menuitem", { name: "Segurança" }).click();
    await page.getByTestId("two-factor-start").click();
    const secret = (await page.getByTestId("two-factor-secret").textContent())!.trim();
    await page.getByRole("img", { name: "Código QR para o aplicativo autenticador" }).waitFor();
    await page.locator("input[name=code]").fill(totpCode(secret, t.clock.now()));
    await page.getByTestId("two-factor-submit").click();
    const list = page.getByTestId("recovery-codes");
    await list.waitFor();
    const recovery = (await list.locator("li").allTextContents()).map((s) => s.trim());
    assert.equal(recovery.length, 10);
    // The session list names this browser's session.
    await page.getByTestId("sessions").getByText("Esta sessão").waitFor();
    await page.getByRole("button", { name: "Fechar" }).first().click();
    await logout(page, url);

    // The password alone is not enough: the code of the next step signs in.
    await passwordStep(page, url, c.user);
    t.clock.advance(30_000);
    await codeStep(page, totpCode(secret, t.clock.now()));
    await page.waitForURL((u) => u.pathname !== "/login");
    await page.getByTestId("greeting").locator("strong").first().waitFor();
    await logout(page, url);

    // A recovery code instead of the app's code: once.
    await passwordStep(page, url, c.user);
    await codeStep(page, recovery[0]);
    await page.waitForURL((u) => u.pathname !== "/login");
    await page.getByTestId("greeting").locator("strong").first().waitFor();
    await logout(page, url);
    await passwordStep(page, url, c.user);
    await codeStep(page, recovery[0]);
    await page.getByTestId("login-error").getByText("Código inválido.").waitFor();
    assert.equal(new URL(page.url()).pathname, "/login");
    assert.deepEqual(pageErrors, []);
  }));

Deno.test("accounts e2e - an admin ends another session and that tab is sent to /login at once", () =>
  withBrowser(async ({ t, page, url, loginAs, secondBrowser }) => {
    const c = await createCompany(t, "Acme");
    await loginAs(page, c.user);
    const admin = await secondBrowser();
    await loginAs(admin, c.admin);
    // The user's tab has its socket up (the shell marks it).
    await page.locator("html[data-socket=ready]").waitFor();

    await admin.getByTestId("account-menu").click();
    await admin.getByRole("menuitem", { name: "Segurança" }).click();
    await admin.getByTestId("sessions-company").check();
    const row = admin.getByTestId("session-row").filter({ hasText: "Acme User" });
    await row.getByRole("button", { name: "Encerrar" }).click();

    // Issue 50 item 14: the login page says why.
    await page.waitForURL(`${url}/login?ended=elsewhere`);
    await page.getByText("Esta sessão foi encerrada em outro dispositivo").waitFor();
    // In the reader's language too (the language switcher's cookie).
    for (
      const [lang, text] of [
        ["en", "This session was ended from another device"],
        ["es", "Esta sesión se cerró desde otro dispositivo"],
      ]
    ) {
      await page.context().addCookies([{ name: "lang", value: lang, url }]);
      await page.reload();
      await page.getByText(text).waitFor();
    }
    const ended = await t.deps.db.selectFrom("sessions").select("endReason")
      .where("companyId", "=", c.id).where("userId", "=", c.user.id)
      .where("endReason", "=", "endedByAdmin").execute();
    assert.equal(ended.length, 1);

    // Issue 50 item 6: /audit says which device's session ended and why, in words (no user-agent
    // string, no code), at the time on the company's clock (the test clock's 12:00 UTC is 09:00).
    await admin.goto(`${url}/audit`);
    const audit = admin.getByTestId("audit-row").filter({ hasText: "Encerrou uma sessão" });
    const words = audit.getByTestId("audit-changes");
    await words.getByText("Dispositivo: Chrome · Linux", { exact: true }).waitFor();
    await words.getByText("Motivo: Encerrada por um administrador", { exact: true }).waitFor();
    assert.doesNotMatch(await words.innerText(), /Mozilla|endedByAdmin|→/);
    assert.match(await audit.locator("td").first().innerText(), /22\/11\/2026,? 09:\d\d/);
  }));

Deno.test("accounts e2e - /audit shows a role change with before and after", () =>
  withBrowser(async ({ t, page, url, loginAs }) => {
    const c = await createCompany(t, "Acme");
    const changed = await t.request("PUT", `/api/users/${c.user.id}`, {
      token: c.admin.token,
      body: { profile: "admin" },
    });
    assert.equal(changed.status, 200);
    await changed.body?.cancel();
    await loginAs(page, c.admin);
    await page.goto(`${url}/audit`);
    const row = page.getByTestId("audit-row").filter({ hasText: "Alterou um usuário" });
    // Issue 50 item 6: the change in words, not field names and codes.
    await row.getByTestId("audit-changes").getByText("Perfil: Usuário → Administrador").waitFor();
  }));

Deno.test("accounts e2e - a super user's /audit names each row's company and filters by company", () =>
  withBrowser(async ({ t, page, url, loginAs }) => {
    const a = await createCompany(t, "Alpha");
    const b = await createCompany(t, "Beta");
    const root = await login(t, ADMIN_EMAIL, ADMIN_PASSWORD);
    for (const [id, phone] of [[a.id, "5511911110000"], [b.id, "5511922220000"]] as const) {
      const res = await t.request("PUT", `/api/companies/${id}`, {
        token: root.token,
        body: { phone },
      });
      assert.equal(res.status, 200);
      await res.body?.cancel();
    }
    await loginAs(page, { email: ADMIN_EMAIL, password: ADMIN_PASSWORD });
    await page.goto(`${url}/audit`);
    const changes = page.getByTestId("audit-row").filter({ hasText: "Alterou uma empresa" });
    await changes.filter({ hasText: "Telefone: — → 5511911110000" }).getByTestId("audit-company")
      .getByText("Alpha").waitFor();
    await changes.filter({ hasText: "Telefone: — → 5511922220000" }).getByTestId("audit-company")
      .getByText("Beta").waitFor();

    await page.getByRole("combobox", { name: "Empresa" }).click();
    await page.getByRole("option", { name: "Beta" }).click();
    const companies = page.getByTestId("audit-company");
    await companies.filter({ hasText: "Alpha" }).first().waitFor({ state: "detached" });
    await changes.getByText("Telefone: — → 5511922220000").waitFor();
    const names = await companies.allInnerTexts();
    assert.ok(names.length > 0 && names.every((n) => n === "Beta"), names.join());
  }));
