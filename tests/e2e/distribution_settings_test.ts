import assert from "node:assert/strict";
import { createCompany } from "../helpers/app.ts";
import { storageItem, toastWith, withBrowser } from "../helpers/browser.ts";
import { eventually } from "../helpers/eventually.ts";
import { LAPTOP, PHONE } from "../helpers/page_audit.ts";

/**
 * Issue 26's settings in the dialogs: an admin marks a user supervisor of one of their queues and
 * sets their work hours (the user dialog), and turns on a queue's pausing (the queue dialog).
 */
Deno.test("distribution settings - the user dialog marks a supervisor and sets work hours; the queue dialog turns pausing on", () =>
  withBrowser(async ({ t, page, url, loginAs, pageErrors }) => {
    const c = await createCompany(t, "Acme");
    const created = await t.request("POST", "/api/queue", {
      token: c.admin.token,
      body: { name: "Vendas", color: "#F44336" },
    });
    assert.equal(created.status, 201);
    const queueId = (await created.json()).id as number;
    const joined = await t.request("PUT", `/api/users/${c.user.id}`, {
      token: c.admin.token,
      body: { queueIds: [queueId] },
    });
    assert.equal(joined.status, 200);

    await loginAs(page, c.admin, { expectPath: "/" });
    await page.goto(`${url}/users`);
    const userRow = page.getByTestId("user-row").filter({ hasText: "Acme User" });
    await userRow.getByRole("button", { name: /Editar/ }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByText("Supervisor de Vendas").click();
    assert.equal(await dialog.getByTestId(`user-supervisor-${queueId}`).isChecked(), true);
    await dialog.getByLabel("Início do expediente").fill("8");
    await dialog.getByLabel("Fim do expediente").fill("25:00");
    await dialog.getByRole("button", { name: "Salvar", exact: true }).click();
    await dialog.getByText("Hora inválida (HH:MM)").waitFor();
    await dialog.getByLabel("Fim do expediente").fill("17:30");
    await dialog.getByRole("button", { name: "Salvar", exact: true }).click();
    await toastWith(page, "Usuário salvo com sucesso!").waitFor();
    const user = await t.deps.db.selectFrom("users").select(["startWork", "endWork"])
      .where("id", "=", c.user.id).executeTakeFirstOrThrow();
    assert.deepEqual(user, { startWork: "08:00", endWork: "17:30" });
    const link = await t.deps.db.selectFrom("user_queues").select("supervisor")
      .where("userId", "=", c.user.id).where("queueId", "=", queueId).executeTakeFirstOrThrow();
    assert.equal(link.supervisor, 1);

    await page.goto(`${url}/queues`);
    const queueRow = page.getByTestId("queue-row").filter({ hasText: "Vendas" });
    await queueRow.getByRole("button", { name: "Editar Vendas" }).click();
    const queueDialog = page.getByRole("dialog", { name: "Editar fila" });
    // Saved from the service tab itself (the data tab's form is not mounted then).
    await queueDialog.getByRole("tab", { name: "Distribuição e metas" }).click();
    // Issue 50: with hours not managed, the tab says the queue counts around the clock.
    await queueDialog.getByTestId("queue-hours-note").getByText(
      "Gerenciamento de Expediente desabilitado: a fila distribui e conta os prazos 24 horas",
      { exact: false },
    ).waitFor();
    // When the company's hours count ('Empresa'), the tab shows that week, not only a sentence;
    // the open dialog follows the setting changed elsewhere.
    await page.waitForFunction(() => document.documentElement.dataset.socket === "ready");
    const setting = await t.request("PUT", "/api/settings/scheduleType", {
      token: (await storageItem(page, "token"))!,
      body: { value: "company" },
    });
    assert.equal(setting.status, 200);
    const companyHours = queueDialog.getByTestId("queue-hours-note");
    await companyHours.getByText("horário de atendimento da empresa", { exact: false }).waitFor();
    await companyHours.locator("div", { hasText: "Segunda-feira" }).getByText("08:00–18:00")
      .waitFor();
    await companyHours.locator("div", { hasText: "Domingo" }).getByText("Fechado").waitFor();
    // Issue 44 item 6, on a phone: the chosen mode's two lines read from the left, inside the
    // field (they were centred, and ran over its edges).
    await page.setViewportSize(PHONE);
    const mode = queueDialog.getByRole("combobox", { name: "Distribuição automática" });
    await mode.getByText("Desligada (atendentes escolhem em Aguardando)").waitFor();
    assert.deepEqual(
      await mode.evaluate((trigger) => {
        const box = trigger.getBoundingClientRect();
        const range = document.createRange();
        range.selectNodeContents(trigger.querySelector("span")!);
        const lines = [...range.getClientRects()];
        return {
          lines: lines.length,
          fromTheLeft: lines.every((line) => line.left - box.left <= 14),
          inside: lines.every((line) => line.top >= box.top && line.bottom <= box.bottom),
        };
      }),
      { lines: 2, fromTheLeft: true, inside: true },
    );
    await page.setViewportSize(LAPTOP);
    await queueDialog.getByTestId("queue-pause-waiting").check();
    // Issue 50 item 17: the company's offline minutes, shown (the default 10) and saved here.
    const offline = queueDialog.getByLabel(
      "Devolver os tickets de quem ficar offline após (minutos)",
    );
    assert.equal(await offline.inputValue(), "10");
    await offline.fill("25");
    await queueDialog.getByTestId("queue-save").click();
    await queueDialog.waitFor({ state: "detached" });
    const queue = await t.deps.db.selectFrom("queues").select("pauseWhenWaitingOnCustomer")
      .where("id", "=", queueId).executeTakeFirstOrThrow();
    assert.equal(queue.pauseWhenWaitingOnCustomer, 1);
    await eventually(async () =>
      (await t.deps.db.selectFrom("settings").select("value").where("companyId", "=", c.id)
        .where("key", "=", "distributionOfflineMinutes").executeTakeFirst())?.value === "25"
    );
    assert.deepEqual(pageErrors, []);
  }));
