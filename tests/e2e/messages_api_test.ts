import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { createCompany } from "../helpers/app.ts";
import { withBrowser } from "../helpers/browser.ts";
import { connectSimulator, eventually } from "../whatsapp/helpers.ts";

Deno.test("messages-api page - the token is masked until shown; the test forms send text and a file through the API to the simulator", () =>
  withBrowser(async ({ t, page, url, loginAs, pageErrors }) => {
    const c = await createCompany(t, "Alpha");
    // Before the browser's login, which ends this admin's earlier session.
    const whatsappId = await connectSimulator(t, c, { name: "Loja API" });
    const token = (await t.deps.db.selectFrom("whatsapps").select("token")
      .where("id", "=", whatsappId).executeTakeFirstOrThrow()).token;
    await loginAs(page, c.admin, { expectPath: "/" });
    await page.goto(`${url}/messages-api`);

    await page.getByTestId("api-endpoint").getByText(`POST ${url}/api/messages/send`).waitFor();
    const tokens = page.getByTestId("api-tokens");
    await tokens.getByText("Loja API").waitFor();
    assert.equal(await tokens.getByText(token).count(), 0, "the token is masked");
    await tokens.getByRole("button", { name: "Mostrar token" }).click();
    await tokens.getByText(token).waitFor();

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
    assert.deepEqual(pageErrors, []);
  }));
