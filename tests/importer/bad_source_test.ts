import assert from "node:assert/strict";
import { openDatabase } from "../../db/client.ts";
import { startPostgres } from "../helpers/postgres_server.ts";
import { createSourceSchema, runImporter } from "../helpers/whaticket_source.ts";

/**
 * Issue 47 item 7: a database that is not Whaticket's, a version whose columns we do not know, a
 * refused connection, bad arguments: one clear line, a non-zero exit, and nothing written (not
 * even the first start's company).
 */

async function companies(dataDir: string): Promise<number> {
  const db = await openDatabase(`file:${dataDir}/balcao.db`);
  try {
    return (await db.selectFrom("companies").select("id").execute()).length;
  } finally {
    await db.destroy();
  }
}

Deno.test("import whaticket refuses what it cannot read, with nothing written", async () => {
  const pg = await startPostgres();
  const dataDir = await Deno.makeTempDir({ prefix: "balcao-import-" });
  try {
    const empty = await pg.createDatabase();
    const notOurs = await runImporter(dataDir, ["--from", empty]);
    assert.equal(notOurs.code, 1, notOurs.stdout + notOurs.stderr);
    assert.match(notOurs.stderr, /import refused: not a Whaticket or ticketz database/);

    const odd = await createSourceSchema(pg, "community");
    await pg.psql(
      new URL(odd).pathname.slice(1),
      `ALTER TABLE "Messages" DROP COLUMN "quotedMsgId"`,
    );
    const unknown = await runImporter(dataDir, ["--from", odd]);
    assert.equal(unknown.code, 1, unknown.stdout + unknown.stderr);
    assert.match(
      unknown.stderr,
      /unknown version of whaticket-community .*"Messages"."quotedMsgId"/,
    );

    const closed = `postgres://postgres@127.0.0.1:${pg.port}/nope`;
    await pg.stopOnly();
    const refused = await runImporter(dataDir, ["--from", closed]);
    assert.equal(refused.code, 1, refused.stdout + refused.stderr);
    assert.match(refused.stderr, /cannot connect to the source database 127\.0\.0\.1:\d+\/nope/);

    const usage = await runImporter(dataDir, ["--media", "/tmp"]);
    assert.equal(usage.code, 2);
    assert.match(usage.stderr, /--from <postgres url> is required/);
    const notUrl = await runImporter(dataDir, ["--from", "mysql://x/y"]);
    assert.equal(notUrl.code, 1);
    assert.match(notUrl.stderr, /--from must be a postgres:\/\/ URL/);

    assert.equal(await companies(dataDir), 0);
  } finally {
    await pg.stop();
    await Deno.remove(dataDir, { recursive: true }).catch(() => {});
  }
});
