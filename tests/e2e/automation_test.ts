import assert from "node:assert/strict";
import { createCompany, login } from "../helpers/app.ts";
import { seenToasts, toastWith, withBrowser } from "../helpers/browser.ts";
import { fakeTypebot } from "../fakes/typebot.ts";
import { connectSimulator, phoneSends } from "../whatsapp/helpers.ts";

/**
 * Issue 15: an admin creates a typebot integration on /queue-integration, binds it to a queue in
 * the queue dialog, and a simulator contact's conversation runs through the fake typebot to a
 * handover that the attendant sees under Pending.
 */
Deno.test("automation - an admin sets up a typebot on a queue; a contact talks to it and lands under pending", async () => {
  const typebot = fakeTypebot();
  try {
    await withBrowser(async ({ t, page, url, loginAs, pageErrors, secondBrowser }) => {
      const c = await createCompany(t, "Acme");
      const queue = await (await t.request("POST", "/api/queue", {
        token: c.admin.token,
        body: { name: "Suporte", color: "#2196F3" },
      })).json();
      // Before the browser signs the admin in (a new login ends the API token's session).
      const wid = await connectSimulator(t, c, { queueIds: [queue.id] });
      await loginAs(page, c.admin, { expectPath: "/" });

      await page.locator('aside [data-menu="queueIntegration"]').click();
      await page.waitForURL(`${url}/queue-integration`);
      await page.getByRole("button", { name: "Adicionar integração" }).click();
      const dialog = page.getByRole("dialog", { name: "Adicionar integração" });
      await dialog.getByLabel("Nome", { exact: true }).fill("B");
      await dialog.getByRole("button", { name: "Adicionar", exact: true }).click();
      // The seeds' rules in the browser first: name too short, URL and slug required.
      await dialog.getByText("Muito curto!").waitFor();
      await dialog.getByLabel("Nome", { exact: true }).fill("Bot de suporte");
      await dialog.getByLabel("URL").fill(typebot.url);
      await dialog.getByLabel("Typebot Slug").fill("support");
      await dialog.getByLabel("Intervalo entre mensagens (ms)").fill("0");
      await dialog.getByRole("button", { name: "Adicionar", exact: true }).click();
      await toastWith(page, "Integração salva com sucesso!").waitFor();
      await page.getByTestId("integration-row").filter({ hasText: "Bot de suporte" }).waitFor();

      await page.goto(`${url}/queues`);
      await page.getByRole("button", { name: "Editar Suporte" }).click();
      const queueDialog = page.getByRole("dialog", { name: "Editar fila" });
      await queueDialog.getByRole("combobox", { name: "Integração" }).click();
      await page.getByRole("option", { name: "Bot de suporte" }).click();
      await queueDialog.getByTestId("queue-save").click();
      await queueDialog.waitFor({ state: "detached" });
      const bound = await t.deps.db.selectFrom("queues").select("integrationId")
        .where("id", "=", queue.id).executeTakeFirstOrThrow();
      assert.notEqual(bound.integrationId, null);

      const from = "5511988880001";
      const { token } = await login(t, c.user.email, c.user.password);
      const hello = await phoneSends(t, token, wid, { from, name: "Paula Cliente", body: "oi" });
      assert.equal(hello.status, 201);
      const greeted = await t.deps.db.selectFrom("messages").select("body")
        .where("companyId", "=", c.id).where("fromMe", "=", 1).execute();
      assert.ok(greeted.some((m) => m.body === "Olá Paula Cliente! Sou o bot."));
      assert.equal((await phoneSends(t, token, wid, { from, body: "2" })).status, 201);

      await page.goto(`${url}/tickets`);
      await page.getByTestId("tab-open").waitFor();
      await page.getByTestId("subtab-pending").click();
      await page.getByTestId("list-pending").getByTestId("ticket-item")
        .filter({ hasText: "Paula Cliente" }).waitFor();
      const ticket = await t.deps.db.selectFrom("tickets").selectAll()
        .where("companyId", "=", c.id).executeTakeFirstOrThrow();
      assert.deepEqual([ticket.status, ticket.queueId, ticket.useIntegration], [
        "pending",
        queue.id,
        0,
      ]);
      assert.deepEqual(pageErrors, []);

      // A plan without integrations: the seeds' message, then / after a second.
      const other = await createCompany(t, "Basic", { plan: { useIntegrations: 0 } });
      const second = await secondBrowser();
      await loginAs(second, other.admin, { expectPath: "/" });
      await second.goto(`${url}/queue-integration`);
      await second.waitForURL(`${url}/`);
      assert.ok(
        (await seenToasts(second)).includes(
          "Esta empresa não possui permissão para acessar essa página! Estamos lhe redirecionando.",
        ),
      );
    }, { env: { INTEGRATIONS_ALLOW_PRIVATE_URLS: "true" } });
  } finally {
    await typebot.close();
  }
});
