import assert from "node:assert/strict";
import { openDatabase } from "../../db/client.ts";
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
 * with the password they had in Whaticket (their bcrypt hash came over) and reads an imported
 * conversation.
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
    let ticketId: number;
    try {
      ticketId = (await db.selectFrom("messages").select("ticketId").where("wid", "=", "WID-2")
        .executeTakeFirstOrThrow()).ticketId;
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
    const login = await callMain(server, "POST", "/api/auth/login", undefined, {
      email: "Ana@Old.test",
      password: OLD_PASSWORDS.ana,
    });
    assert.equal(login.status, 200, JSON.stringify(login.body));
    assert.equal(login.body.user.name, "Ana Admin");
    const page = await callMain(server, "GET", `/api/messages/${ticketId}`, login.body.token);
    assert.equal(page.status, 200, JSON.stringify(page.body));
    const bodies = page.body.messages.map((m: { body: string }) => m.body);
    assert.ok(bodies.includes("Olá"), bodies.join(" | "));
    assert.ok(bodies.includes("Oi, em que posso ajudar?"), bodies.join(" | "));
  } finally {
    if (server) {
      server.child.kill("SIGTERM");
      await server.child.status;
    }
    await pg.stop();
    await Deno.remove(dataDir, { recursive: true }).catch(() => {});
  }
});
