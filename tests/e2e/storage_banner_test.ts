import assert from "node:assert/strict";
import { ADMIN_EMAIL, ADMIN_PASSWORD, createCompany } from "../helpers/app.ts";
import { withBrowser } from "../helpers/browser.ts";

Deno.test("storage banner - admins see the server's low free space; users do not", () =>
  withBrowser(async ({ page, t, loginAs, secondBrowser }) => {
    const c = await createCompany(t, "Alpha");
    await loginAs(page, c.admin, { expectPath: "/" });
    const banner = page.getByTestId("storage-warning");
    await banner.waitFor();
    // Issue 50 item 15: the size in Brazil's format, and what a company's admin can do. Number
    // and unit are held together (a no-break space): on a phone "77,4" ended a line, "GB" began
    // the next.
    const text = await banner.innerText();
    assert.match(text, /Pouco espaço livre no servidor: \d+,\d\u00a0GB\./);
    assert.match(text, /Avise quem mantém o servidor do Balcão \(o seu provedor\)/);
    assert.doesNotMatch(text, /Libere espaço/);

    // A user's shell never asks (storage:read is the admins'): once the page is drawn, no banner.
    const other = await secondBrowser();
    await loginAs(other, c.user, { expectPath: "/tickets" });
    await other.getByTestId("greeting").getByText("Alpha User").waitFor();
    assert.equal(await other.getByTestId("storage-warning").count(), 0);

    // The operator (the super user) is told what to free.
    const operator = await secondBrowser();
    await loginAs(operator, { email: ADMIN_EMAIL, password: ADMIN_PASSWORD });
    const theirs = operator.getByTestId("storage-warning");
    await theirs.getByText(/Libere espaço no disco da pasta de dados \(DATA_DIR\)/).waitFor();
    assert.match(await theirs.innerText(), /\d+,\d\u00a0GB\./);
  }, { env: { STORAGE_WARN_BYTES: String(2 ** 52) } }));
