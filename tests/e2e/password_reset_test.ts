import assert from "node:assert/strict";
import { createCompany } from "../helpers/app.ts";
import { withBrowser } from "../helpers/browser.ts";
import { decodeQuotedPrintable, startFakeSmtp } from "../fakes/smtp.ts";

Deno.test("password reset page - from the login link to the mail, to a new password, to signing in with it", async () => {
  const smtp = startFakeSmtp();
  try {
    await withBrowser(async ({ t, page, url, loginAs, pageErrors }) => {
      const c = await createCompany(t, "Esquecida");
      await page.goto(`${url}/login`);
      await page.getByRole("link", { name: "Esqueci minha senha" }).click();
      await page.waitForURL(`${url}/resetpassword`);
      await page.getByLabel("E-mail").fill(c.user.email);
      await page.getByRole("button", { name: "Enviar link" }).click();
      await page.getByTestId("reset-done").getByText(
        "Se o e-mail estiver cadastrado, você receberá as instruções em instantes.",
      ).waitFor();

      // The link in the mail opens the page with the token.
      const [mail] = await smtp.received(1);
      const text = decodeQuotedPrintable(mail.data);
      const link = /(http:\/\/\S+\/resetpassword\?email=\S+&token=[A-Za-z0-9_-]+)/.exec(text)?.[1];
      assert.ok(link, text);
      await page.goto(link.replace(/^http:\/\/[^/]+/, url));
      await page.getByLabel("Nova senha", { exact: true }).fill("senha-nova-1");
      await page.getByLabel("Confirme a nova senha").fill("outra-coisa");
      await page.getByRole("button", { name: "Salvar nova senha" }).click();
      await page.getByRole("alert").getByText("As senhas não conferem.").waitFor();
      await page.getByLabel("Confirme a nova senha").fill("senha-nova-1");
      await page.getByRole("button", { name: "Salvar nova senha" }).click();
      await page.getByTestId("reset-done").getByText("Senha redefinida. Entre com a nova senha.")
        .waitFor();

      await page.getByRole("link", { name: "Voltar para o login" }).click();
      await loginAs(page, { email: c.user.email, password: "senha-nova-1" }, {
        expectPath: "/tickets",
      });
      assert.deepEqual(pageErrors, []);
    }, { env: { SMTP_URL: smtp.url() } });
  } finally {
    await smtp.close();
  }
});
