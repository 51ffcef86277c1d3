import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { createCompany } from "../helpers/app.ts";
import { withBrowser } from "../helpers/browser.ts";
import { eventually } from "../helpers/eventually.ts";
import { connectSimulator } from "../whatsapp/helpers.ts";
import { WebhookReceiver } from "../fakes/webhook_receiver.ts";
import { deliverDue } from "../../server/webhooks/delivery.ts";
import { webhookCapture } from "../../server/webhooks/capture.ts";
import { tokenHash } from "../../server/external_api/tokens.ts";
import { unseal } from "../../server/crypto/sealed.ts";

Deno.test("messages-api page - a token is shown once, when made (then only its hint); the test forms send text and a file through the API to the simulator; a webhook added on the page shows its last delivery", () =>
  withBrowser(async ({ t, page, url, loginAs, pageErrors }) => {
    const receiver = new WebhookReceiver();
    try {
      const c = await createCompany(t, "Alpha");
      // Before the browser's login, which ends this admin's earlier session.
      const whatsappId = await connectSimulator(t, c, { name: "Loja API" });
      const stored = async () =>
        await t.deps.db.selectFrom("whatsapps").select(["token", "tokenHash", "tokenHint"])
          .where("id", "=", whatsappId).executeTakeFirstOrThrow();
      const before = await stored();
      await loginAs(page, c.admin, { expectPath: "/" });
      await page.goto(`${url}/messages-api`);

      await page.getByTestId("api-endpoint").getByText(`POST ${url}/api/messages/send`).waitFor();
      const tokens = page.getByTestId("api-tokens");
      await tokens.getByText("Loja API").waitFor();
      // The server keeps no token to show: the row has its hint.
      const cell = page.getByTestId(`api-token-${whatsappId}`);
      await cell.getByText(before.tokenHint, { exact: true }).waitFor();
      await tokens.getByRole("button", { name: "Gerar novo token" }).click();
      await page.getByTestId("confirm-button").click();
      await cell.getByText(/^blc_[A-Za-z0-9_-]{43}$/).waitFor();
      const token = (await cell.textContent())!;
      const after = await stored();
      assert.equal(after.token, "");
      assert.equal(after.tokenHash, await tokenHash(token));
      assert.equal(after.tokenHint, `blc_…${token.slice(-4)}`);
      await page.getByText("Copie agora: o token não será mostrado de novo.").first().waitFor();
      // The test forms take the token just made.
      assert.equal(await page.locator("input[name=token]").inputValue(), token);

      const text = page.getByTestId("api-test-text");
      await text.locator("input[name=number]").fill("+55 13 91234-4321");
      await text.locator("textarea[name=body]").fill("Pedido 42 enviado");
      await text.getByRole("button", { name: "Enviar" }).click();
      const result = page.getByTestId("api-result");
      await result.getByText("HTTP 201").waitFor();
      const sent = await eventually(() =>
        t.deps.db.selectFrom("simulator_sent").selectAll().where("whatsappId", "=", whatsappId)
          .where("body", "=", "Pedido 42 enviado").executeTakeFirst()
      );
      assert.equal(sent.toJid.startsWith("5513912344321"), true);

      const file = page.getByTestId("api-test-file");
      await file.locator("input[name=number]").fill("5513912344321");
      await file.locator("textarea[name=body]").fill("Nota fiscal");
      await file.locator("input[name=medias]").setInputFiles({
        name: "nota.pdf",
        mimeType: "application/pdf",
        buffer: Buffer.from("%PDF-1.4 test"),
      });
      await file.getByRole("button", { name: "Enviar" }).click();
      await eventually(() =>
        t.deps.db.selectFrom("simulator_sent").select("id").where("whatsappId", "=", whatsappId)
          .where("mediaName", "=", "nota.pdf").where("body", "=", "Nota fiscal").executeTakeFirst()
      );
      await result.getByText("HTTP 201").waitFor();

      // A refusal is shown as the outside system would get it.
      await text.locator("input[name=number]").fill("abc");
      await text.getByRole("button", { name: "Enviar" }).click();
      await result.getByText("ERR_INVALID_NUMBER").waitFor();

      // Webhooks: add one for contact.created; its row shows the last delivery's answer, live.
      await page.getByRole("button", { name: "Adicionar webhook" }).click();
      const form = page.locator("#webhook-form");
      await form.locator("input[name=name]").fill("ERP");
      await form.locator("input[name=url]").fill(receiver.url);
      await form.locator("input[value='message.created']").uncheck();
      await form.locator("input[value='contact.created']").check();
      await page.getByTestId("webhook-save").click();
      const row = page.locator("[data-testid=webhook-row][data-name=ERP]");
      await row.getByText("Nenhuma ainda").waitFor();
      const hook = await t.deps.db.selectFrom("webhooks").selectAll().executeTakeFirstOrThrow();
      assert.deepEqual(JSON.parse(hook.events), ["contact.created"]);
      receiver.secret = await unseal(t.deps.secrets.data, hook.secret);
      // The browser's login ended the test's earlier session of this admin: use the browser's.
      const res = await t.request("POST", "/api/contacts", {
        token: (await page.evaluate(() => localStorage.getItem("token"))) ?? "",
        body: { name: "Cliente Novo", number: "5511988880000" },
      });
      assert.equal(res.status, 201);
      await webhookCapture(t.deps.events)!.idle();
      assert.equal(await deliverDue(t.deps), 1);
      await row.getByText(/^200 · /).waitFor();
      assert.equal(receiver.accepted()[0].signatureValid, true);

      // Once the page is left, the token is gone for good: only its hint is shown.
      await page.reload();
      await cell.getByText(`blc_…${token.slice(-4)}`, { exact: true }).waitFor();
      assert.equal(await page.getByText(token).count(), 0);

      // The API reference renders the generated document from our own files.
      await page.goto(`${url}/api-docs`);
      await page.getByRole("heading", { name: /Balcão API/ }).waitFor();
      await page.locator(".opblock-summary-path").first().waitFor();
      assert.deepEqual(pageErrors, []);
    } finally {
      await receiver.close();
    }
  }, { env: { INTEGRATIONS_ALLOW_PRIVATE_URLS: "true" } }));
