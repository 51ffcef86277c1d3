import assert from "node:assert/strict";
import { createCompany } from "../helpers/app.ts";
import { eventually } from "../helpers/eventually.ts";
import { toastShown, withBrowser } from "../helpers/browser.ts";
import { connectSimulator, phoneSends } from "../whatsapp/helpers.ts";

// issue 24 item 1: a quick answer reaches the contact filled; its dialog (and the greetings')
// shows the variables.
Deno.test("message variables - the quick answer dialog lists the variables; the answer reaches the phone filled", () =>
  withBrowser(async ({ t, page, url, loginAs, pageErrors }) => {
    const c = await createCompany(t, "Acme");
    const whatsappId = await connectSimulator(t, c, { name: "Loja" });
    const delivery = await phoneSends(t, c.admin.token, whatsappId, {
      from: "5511988887777",
      name: "Carlos Cliente",
      body: "Qual o preço?",
    });
    const ticket = await t.deps.db.selectFrom("tickets").select(["id", "uuid"])
      .where("id", "=", delivery.ticketId!).executeTakeFirstOrThrow();
    await t.request("PUT", `/api/tickets/${ticket.id}`, {
      token: c.admin.token,
      body: { action: "accept" },
    });
    await loginAs(page, c.admin, { expectPath: "/" });

    await page.goto(`${url}/quick-messages`);
    await page.getByRole("button", { name: "Adicionar" }).click();
    const dialog = page.getByRole("dialog");
    const variables = dialog.getByTestId("variable-list");
    for (const token of ["{{firstName}}", "{{name}}", "{{user}}", "{{ms}}", "{{protocol}}"]) {
      await variables.getByText(token, { exact: true }).waitFor();
    }
    await variables.getByText("primeiro nome do contato").waitFor();
    await dialog.locator("input[name=shortcode]").fill("ola");
    await dialog.locator("textarea[name=message]")
      .fill("{{ms}}, {{firstName}}! Aqui é {{user}}, protocolo {{protocol}}.");
    await dialog.getByTestId("quick-message-submit").click();
    await toastShown(page, "Resposta rápida salva com sucesso!");

    await page.goto(`${url}/tickets/${ticket.uuid}`);
    const input = page.getByTestId("message-text");
    await input.fill("/ola");
    await page.getByTestId("quick-answers").getByText(/ola - /).waitFor();
    await input.press("Enter");
    // Picked: the answer's text is in the input, as written; Enter sends it.
    await eventually(async () => (await input.inputValue()).startsWith("{{ms}}") || undefined);
    await input.press("Enter");
    // The test clock reads 2026-11-22 12:00 UTC: 09:00 in São Paulo.
    const filled = `Bom dia, Carlos! Aqui é Acme Admin, protocolo 20261122090000${ticket.id}.`;
    const sent = await eventually(
      () =>
        t.deps.db.selectFrom("simulator_sent").select("body").where("whatsappId", "=", whatsappId)
          .executeTakeFirst(),
      { timeoutMs: 20_000 },
    );
    assert.ok(sent.body.endsWith(filled), sent.body);
    // The chat shows what the contact got.
    await page.getByText(filled).first().waitFor();

    // The greeting of a queue shows the same list.
    await page.goto(`${url}/queues`);
    await page.getByRole("button", { name: "Adicionar" }).click();
    await dialog.getByTestId("variable-list").getByText("{{user}}", { exact: true }).waitFor();
    assert.deepEqual(pageErrors, []);
  }));
