import assert from "node:assert/strict";
import { createCompany } from "../helpers/app.ts";
import { withBrowser } from "../helpers/browser.ts";

Deno.test("storage banner - admins see the server's low free space; users do not", () =>
  withBrowser(async ({ page, t, loginAs, secondBrowser }) => {
    const c = await createCompany(t, "Alpha");
    await loginAs(page, c.admin, { expectPath: "/" });
    const banner = page.getByTestId("storage-warning");
    await banner.waitFor();
    assert.match(await banner.innerText(), /Pouco espaço livre no servidor: \d/);

    // A user's shell never asks (storage:read is the admins'): once the page is drawn, no banner.
    const other = await secondBrowser();
    await loginAs(other, c.user, { expectPath: "/tickets" });
    await other.getByTestId("greeting").getByText("Alpha User").waitFor();
    assert.equal(await other.getByTestId("storage-warning").count(), 0);
  }, { env: { STORAGE_WARN_BYTES: String(2 ** 52) } }));
