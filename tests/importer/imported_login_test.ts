import assert from "node:assert/strict";
import { openDatabase } from "../../db/client.ts";
import { BROWSER_TIMEOUT_MS, launchBrowser } from "../helpers/browser.ts";
import { callMain, startMain } from "../helpers/main_process.ts";
import { startPostgres } from "../helpers/postgres_server.ts";
import {
  createSourceSchema,
  fillCommunity,
  OLD_PASSWORDS,
  runImporter,
} from "../helpers/whaticket_source.ts";

/**
 * Issue 47: after an import, the server starts on that data folder and an imported user signs in
 * in a browser with the password they had in Whaticket (their bcrypt hash came over) and reads an
 * imported conversation.
 */
Deno.test("an imported user signs in with the old password and reads an imported conversation", async () => {
  const pg = await startPostgres();
  const dataDir = await Deno.makeTempDir({ prefix: "balcao-import-" });
  let server: Awaited<ReturnType<typeof startMain>> | undefined;
  try {
    const url = await createSourceSchema(pg, "community");
    await fillCommunity(pg, url);
    const run = await runImporter(dataDir, ["--from", url]);
    assert.equal(run.code, 0, run.stderr + run.stdout);
    const db = await openDatabase(`file:${dataDir}/balcao.db`);
    let uuid: string;
    try {
      uuid =
        (await db.selectFrom("messages").innerJoin("tickets", "tickets.id", "messages.ticketId")
          .select("tickets.uuid").where("messages.wid", "=", "WID-2").executeTakeFirstOrThrow())
          .uuid;
    } finally {
      await db.destroy();
    }
    server = await startMain({
      DATA_DIR: dataDir,
      ADMIN_PASSWORD: "admin-password-1",
      BCRYPT_COST: "4",
    });
    const wrong = await callMain(server, "POST", "/api/auth/login", undefined, {
      email: "ana@old.test",
      password: "not-her-password",
    });
    assert.equal(wrong.status, 401);
    const launched = await launchBrowser();
    try {
      const page = await launched.browser.newPage();
      page.setDefaultTimeout(BROWSER_TIMEOUT_MS);
      const errors: string[] = [];
      page.on("pageerror", (error) => errors.push(error.message));
      await page.goto(`${server.url}/login`);
      await page.locator("form input[name=email]").fill("Ana@Old.test");
      await page.locator("form input[name=password]").fill(OLD_PASSWORDS.ana);
      await page.locator("form button[type=submit]:not([disabled])").click();
      await page.getByTestId("greeting").locator("strong").first().waitFor();
      await page.goto(`${server.url}/tickets/${uuid}`);
      const chat = page.getByTestId("ticket-view");
      await chat.getByText("Oi, em que posso ajudar?").first().waitFor();
      await chat.getByText("Olá", { exact: true }).first().waitFor();
      assert.deepEqual(errors, []);
    } finally {
      await launched.kill();
    }
  } finally {
    if (server) {
      server.child.kill("SIGTERM");
      await server.child.status;
    }
    await pg.stop();
    await Deno.remove(dataDir, { recursive: true }).catch(() => {});
  }
});
