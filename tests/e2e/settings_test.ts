import assert from "node:assert/strict";
import type { Page } from "../helpers/packages.ts";
import { ADMIN_EMAIL, ADMIN_PASSWORD, createCompany, login, type TestApp } from "../helpers/app.ts";
import { storageItem, toastWith, withBrowser } from "../helpers/browser.ts";
import { eventually } from "../helpers/eventually.ts";

async function setting(t: TestApp, companyId: number, key: string) {
  const row = await t.deps.db.selectFrom("settings").select("value")
    .where("companyId", "=", companyId).where("key", "=", key).executeTakeFirst();
  return row?.value;
}

/**
 * Picks a value in one of the Options tab's selects; waits for the saved toast and for the
 * database to hold `stored` (the previous choice's toast may still be on screen, so the toast
 * alone does not prove this save finished).
 */
async function choose(
  t: TestApp,
  page: Page,
  companyId: number,
  [label, option]: [string, string],
  [key, stored]: [string, string],
) {
  await page.getByLabel(label, { exact: true }).click();
  await page.getByRole("option", { name: option, exact: true }).click();
  await toastWith(page, "Operação atualizada com sucesso.").last().waitFor();
  await eventually(async () => (await setting(t, companyId, key)) === stored);
}

Deno.test("settings page - options save on change; company hours mode reveals Horarios, whose hours persist", () =>
  withBrowser(async ({ t, page, url, loginAs, pageErrors }) => {
    const c = await createCompany(t, "Acme");
    await loginAs(page, c.admin, { expectPath: "/" });
    await page.locator('aside [data-menu="settings"]').click();
    await page.waitForURL(`${url}/settings`);
    await page.getByTestId("settings").waitFor();
    const horarios = page.getByRole("tab", { name: "Horários" });
    assert.equal(await horarios.count(), 0);
    // Super users' platform tabs are not on this page; the assistant's is (plan useAssist).
    assert.deepEqual(await page.getByRole("tab").allInnerTexts(), ["Opções", "Assistente"]);

    // Each select saves at once.
    await choose(t, page, c.id, ["Avaliações", "Habilitadas"], ["userRating", "enabled"]);
    await choose(t, page, c.id, ["Ignorar Mensagens de Grupos", "Desabilitado"], [
      "CheckMsgIsGroup",
      "disabled",
    ]);

    // Integration fields save as they are typed.
    await page.getByLabel("IP do IXC").fill("10.0.0.7");
    await eventually(async () => (await setting(t, c.id, "ipixc")) === "10.0.0.7");

    // Working hours per company: the Horarios tab appears at once.
    await choose(t, page, c.id, ["Gerenciamento de Expediente", "Empresa"], [
      "scheduleType",
      "company",
    ]);
    await horarios.click();
    const editor = page.getByTestId("hours-editor");
    assert.equal(await editor.getByTestId("hours-monday-start").inputValue(), "08:00");
    assert.equal(await editor.getByTestId("hours-sunday-open").isChecked(), false);

    // A bad time is refused with a message, and nothing is sent.
    await editor.getByTestId("hours-tuesday-start").fill("25:00");
    await page.getByTestId("schedules-save").click();
    await editor.getByText("Informe o início no formato HH:MM.").waitFor();
    await editor.getByTestId("hours-tuesday-start").fill("18:00");
    await editor.getByTestId("hours-tuesday-end").fill("09:00");
    await page.getByTestId("schedules-save").click();
    await editor.getByText("O fim deve ser depois do início.").waitFor();
    const before = await t.deps.db.selectFrom("companies").select("schedules")
      .where("id", "=", c.id).executeTakeFirstOrThrow();

    // Fixed, saved: '9' is tidied to 09:00; Saturday closes.
    await editor.getByTestId("hours-tuesday-start").fill("9");
    await editor.getByTestId("hours-tuesday-end").fill("17:30");
    await editor.getByTestId("hours-saturday-open").uncheck();
    await page.getByTestId("schedules-save").click();
    await toastWith(page, "Horários atualizados com sucesso.").waitFor();
    const after = await t.deps.db.selectFrom("companies").select("schedules")
      .where("id", "=", c.id).executeTakeFirstOrThrow();
    assert.notEqual(after.schedules, before.schedules);
    const week = JSON.parse(after.schedules!) as Record<string, string>[];
    assert.deepEqual(week.find((d) => d.weekdayEn === "tuesday"), {
      weekday: "Terça-feira",
      weekdayEn: "tuesday",
      startTime: "09:00",
      endTime: "17:30",
    });
    assert.deepEqual(week.find((d) => d.weekdayEn === "saturday"), {
      weekday: "Sábado",
      weekdayEn: "saturday",
      startTime: "00:00",
      endTime: "00:00",
    });

    // A reload shows what was stored.
    await page.reload();
    await horarios.click();
    assert.equal(await editor.getByTestId("hours-tuesday-start").inputValue(), "09:00");
    assert.equal(await editor.getByTestId("hours-tuesday-end").inputValue(), "17:30");
    assert.equal(await editor.getByTestId("hours-saturday-open").isChecked(), false);
    assert.equal(await editor.getByTestId("hours-monday-end").inputValue(), "18:00");

    // Another admin turns the mode off: the tab goes away live.
    await page.waitForFunction(() => document.documentElement.dataset.socket === "ready");
    const res = await t.request("PUT", "/api/settings/scheduleType", {
      token: (await storageItem(page, "token"))!,
      body: { value: "queue" },
    });
    assert.equal(res.status, 200);
    await horarios.waitFor({ state: "detached" });
    await page.getByRole("tab", { name: "Opções", selected: true }).waitFor();
    assert.match(
      await page.getByLabel("Gerenciamento de Expediente", { exact: true }).innerText(),
      /Fila/,
    );
    assert.deepEqual(pageErrors, []);
  }));

Deno.test("settings page - a super user requires two-step verification for super users and sets the audit retention; admins do not see them", () =>
  withBrowser(async ({ t, page, url, loginAs }) => {
    const c = await createCompany(t, "Acme");
    const label = "Verificação em duas etapas obrigatória para super usuários";
    const platform = (await login(t, ADMIN_EMAIL, ADMIN_PASSWORD)).user.companyId as number;
    await loginAs(page, { email: ADMIN_EMAIL, password: ADMIN_PASSWORD });
    await page.goto(`${url}/settings`);
    // How long the audit log keeps a row: saved as it is typed.
    const retention = "Dias de retenção do registro de auditoria (0: sem limite)";
    await page.getByLabel(retention).fill("90");
    await eventually(async () => (await setting(t, platform, "auditRetentionDays")) === "90");
    // Last: from its next request this super user's own session must turn it on (issue 43).
    await choose(t, page, platform, [label, "Exigir"], ["superTwoFactor", "enabled"]);

    await page.locator('aside [data-menu="logout"]').click();
    await page.waitForURL(`${url}/login`);
    await loginAs(page, c.admin, { expectPath: "/" });
    await page.goto(`${url}/settings`);
    await page.getByLabel("Avaliações", { exact: true }).waitFor();
    assert.equal(await page.getByLabel(label, { exact: true }).count(), 0);
    assert.equal(await page.getByLabel(retention).count(), 0);
  }));
