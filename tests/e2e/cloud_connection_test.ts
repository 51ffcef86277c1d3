import assert from "node:assert/strict";
import { createCompany } from "../helpers/app.ts";
import { eventually } from "../helpers/eventually.ts";
import { toastWith, withBrowser } from "../helpers/browser.ts";
import { startFakeGraph } from "../fakes/graph.ts";

Deno.test("connections page - an admin adds a Cloud API number: the webhook URL to paste, 'Testar', and 'Reautorizar' after Meta refuses the token", async () => {
  const graph = startFakeGraph();
  try {
    await withBrowser(async ({ t, page, url, loginAs, pageErrors }) => {
      const c = await createCompany(t, "Alpha");
      await loginAs(page, c.admin, { expectPath: "/" });
      await page.goto(`${url}/connections`);
      await page.getByTestId("connections-empty").waitFor();
      await page.getByTestId("add-connection").click();
      const form = page.getByTestId("connection-form");
      await form.waitFor();
      await form.locator("input[name=name]").fill("Oficial");
      await form.locator("[data-field=provider] button").click();
      await page.getByRole("option", { name: "WhatsApp API oficial (Meta Cloud API)" }).click();
      const cloud = form.getByTestId("cloud-fields");
      await cloud.getByText("A URL do webhook para colar no Meta aparece ao salvar.").waitFor();

      // Every credential is required, the ids are digits (checked before sending).
      const save = page.getByTestId("connection-save");
      await form.locator("input[name=phoneNumberId]").fill("abc");
      await save.click();
      await form.getByText("Valor inválido").waitFor();
      assert.ok((await form.getByText("Obrigatório").count()) >= 3);
      assert.equal(
        await t.deps.db.selectFrom("whatsapps").select("id").where("companyId", "=", c.id)
          .executeTakeFirst(),
        undefined,
      );

      await form.locator("input[name=phoneNumberId]").fill(graph.phoneNumberId);
      await form.locator("input[name=businessAccountId]").fill(graph.businessAccountId);
      await form.locator("input[name=accessToken]").fill(graph.token);
      await form.locator("input[name=appSecret]").fill("app-secret-0123456789abcdef");
      await form.locator("input[name=verifyToken]").fill("verify-token-balcao-42");
      await save.click();
      await toastWith(page, "Conexão salva com sucesso!").waitFor();

      // Saved, the dialog stays open on the connection: the webhook URL to paste into Meta.
      const webhook = form.getByTestId("cloud-webhook-url");
      await webhook.waitFor();
      assert.match(await webhook.inputValue(), /\/api\/whatsapp-cloud\/[0-9a-f]{48}$/);
      assert.equal(await form.locator("input[name=accessToken]").inputValue(), "");
      assert.equal(await page.getByTestId("qr-dialog").count(), 0);
      const stored = await t.deps.db.selectFrom("whatsapp_cloud").selectAll()
        .where("companyId", "=", c.id).executeTakeFirstOrThrow();
      assert.equal(stored.phoneNumberId, graph.phoneNumberId);
      assert.ok(!stored.accessToken.includes(graph.token));

      // 'Testar' reads the number from the Graph API.
      await form.getByTestId("cloud-test").click();
      await form.getByTestId("cloud-test-result")
        .filter({ hasText: "+55 11 4000-1234 · Loja Balcão · qualidade: GREEN" }).waitFor();

      // Meta refuses the token (190): the dialog says so and offers 'Reautorizar'.
      graph.token = "EAAG-renewed-token-0987654321";
      await form.getByTestId("cloud-test").click();
      const expired = form.getByTestId("cloud-expired");
      await expired.getByText("O token de acesso da conexão expirou ou foi revogado").waitFor();
      await expired.getByTestId("cloud-reauthorize").click();
      const tokenField = form.locator("input[name=accessToken]");
      assert.equal(await tokenField.evaluate((el) => el === document.activeElement), true);
      await tokenField.fill(graph.token);
      await save.click();
      await form.waitFor({ state: "detached" });

      // The new token is sealed, the number read again with it: connected, the error gone.
      const row = page.locator(`[data-testid=connection-row][data-name="Oficial"]`);
      await row.locator(`[data-testid=connection-status][data-status="CONNECTED"]`).waitFor();
      await eventually(async () => {
        const after = await t.deps.db.selectFrom("whatsapp_cloud").selectAll()
          .where("companyId", "=", c.id).executeTakeFirstOrThrow();
        return after.lastError === null && after.accessToken !== stored.accessToken;
      }, { what: "the new token stored and working" });
      // No QR for this channel: a connected Cloud API number has no session buttons.
      assert.equal(await row.locator("[data-testid^=session-]").count(), 0);
      assert.deepEqual(pageErrors, []);
    }, { env: { WHATSAPP_CLOUD_API_URL: graph.apiUrl } });
  } finally {
    await graph.close();
  }
});
