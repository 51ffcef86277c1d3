import assert from "node:assert/strict";
import { sql } from "kysely";
import { openDatabase } from "../../db/client.ts";
import { migrateUpTo } from "../../db/migrate.ts";
import { tokenHash } from "../../server/external_api/tokens.ts";
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  createCompany,
  createTestApp,
  createUser,
  login,
  restartTestApp,
} from "../helpers/app.ts";
import { saveMedia } from "../../server/media/store.ts";
import { startMain } from "../helpers/main_process.ts";

const T = "2026-11-22T12:00:00.000Z";
const OLD_TOKEN = `blc_${"A1b2C3d4".repeat(5)}xyz`;
const OLD_SECRET = `whsec_${"Z9y8X7w6".repeat(5)}abc`;

/** Permission bits of a path. */
async function modeOf(path: string): Promise<string> {
  return ((await Deno.stat(path)).mode! & 0o777).toString(8);
}

Deno.test("secrets at rest - an older database: 0140 keeps only the tokens' hashes and hints, the next start seals webhook secrets; both still work", async () => {
  const dir = await Deno.makeTempDir({ prefix: "balcao-secrets-" });
  // The schema and rows as the previous release left them: the token and the secret in the clear.
  const old = await openDatabase(`file:${dir}/balcao.db`);
  await migrateUpTo(old, "0133_create_instances");
  await sql`INSERT INTO plans (id, name, createdAt, updatedAt) VALUES (1, 'P', ${T}, ${T})`
    .execute(old);
  await sql`INSERT INTO companies (id, name, planId, createdAt, updatedAt)
    VALUES (1, 'Antiga', 1, ${T}, ${T})`.execute(old);
  await sql`INSERT INTO whatsapps (id, companyId, name, token, tokenHash, createdAt, updatedAt)
    VALUES (1, 1, 'Loja', ${OLD_TOKEN}, ${await tokenHash(OLD_TOKEN)}, ${T}, ${T})`.execute(old);
  await sql`INSERT INTO webhooks (companyId, name, url, events, secret, createdAt, updatedAt)
    VALUES (1, 'ERP', 'https://erp.example.test/hook', '["contact.created"]', ${OLD_SECRET},
      ${T}, ${T})`.execute(old);
  await old.destroy();

  let t = await createTestApp({ DATA_DIR: dir });
  try {
    const row = await t.deps.db.selectFrom("whatsapps").selectAll().executeTakeFirstOrThrow();
    assert.deepEqual(
      [row.token, row.tokenHint, row.tokenHash],
      ["", `blc_…${OLD_TOKEN.slice(-4)}`, await tokenHash(OLD_TOKEN)],
    );
    const hook = await t.deps.db.selectFrom("webhooks").selectAll().executeTakeFirstOrThrow();
    assert.match(hook.secret, /^v1:/);
    assert.ok(!hook.secret.includes(OLD_SECRET));

    // The token in use still names the connection (refused only because it is not connected);
    // a wrong one is 401.
    const send = (token: string) =>
      t.request("POST", "/api/messages/send", {
        token,
        body: { number: "5513912344321", body: "oi" },
      });
    const known = await send(OLD_TOKEN);
    assert.notEqual(known.status, 401, await known.clone().text());
    assert.equal((await known.json()).error, "ERR_WAPP_NOT_INITIALIZED");
    assert.equal((await send(`${OLD_TOKEN.slice(0, -1)}Q`)).status, 401);
    // The admin reads the hint, not the token, and the webhook's secret as it was.
    const admin = await createUser(t, 1, {
      name: "Ana",
      email: "ana@antiga.test",
      profile: "admin",
    });
    const view = await (await t.request("GET", "/api/whatsapp/1", { token: admin.token })).json();
    assert.deepEqual([view.token, view.tokenHint], [undefined, row.tokenHint]);
    const hooks = await (await t.request("GET", "/api/webhooks", { token: admin.token })).json();
    assert.equal(hooks.webhooks[0].secret, OLD_SECRET);

    // A second start finds nothing left to seal.
    t = await restartTestApp(t);
    const again = await t.deps.db.selectFrom("webhooks").select("secret").executeTakeFirstOrThrow();
    assert.equal(again.secret, hook.secret);
  } finally {
    await t.close();
  }
});

Deno.test("secrets at rest - the data folder is 0700; the database, its WAL and lock, media and backups 0600; an older readable database is narrowed at start", async () => {
  let t = await createTestApp();
  try {
    const c = await createCompany(t, "Modos");
    const stored = (await saveMedia(t.config, c.id, new TextEncoder().encode("%PDF-1.4 x"), {
      mimetype: "application/pdf",
      filename: "nota.pdf",
    })).path;
    const root = await login(t, ADMIN_EMAIL, ADMIN_PASSWORD);
    const backup = await t.request("POST", "/api/backups", { token: root.token });
    assert.equal(backup.status, 201, await backup.clone().text());
    const name = (await backup.json()).name as string;
    assert.deepEqual(
      await Promise.all([
        modeOf(t.dir),
        modeOf(`${t.dir}/balcao.db`),
        modeOf(`${t.dir}/balcao.db-wal`),
        modeOf(`${t.dir}/balcao.db-shm`),
        modeOf(`${t.dir}/balcao.db.lock`),
        modeOf(`${t.dir}/media/${stored.split("/")[0]}`),
        modeOf(`${t.dir}/media/${stored}`),
        modeOf(`${t.config.backupDir}/${name}`),
      ]),
      ["700", "600", "600", "600", "600", "700", "600", "600"],
    );
    // A database and folder an older release left readable are narrowed at the next start.
    await Deno.chmod(`${t.dir}/balcao.db`, 0o644);
    await Deno.chmod(t.dir, 0o755);
    t = await restartTestApp(t);
    assert.deepEqual(
      [await modeOf(t.dir), await modeOf(`${t.dir}/balcao.db`)],
      ["700", "600"],
    );
  } finally {
    await t.close();
  }
});

/** What main.ts printed by the time it listened; then SIGTERM, as systemd stops it. */
async function startOutput(env: Record<string, string>): Promise<string[]> {
  const dir = await Deno.makeTempDir({ prefix: "balcao-main-" });
  const server = await startMain({ DATA_DIR: dir, ...env });
  try {
    return [...server.output];
  } finally {
    server.child.kill("SIGTERM");
    await server.child.status;
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("secrets at rest - the server warns at start while DATA_ENCRYPTION_KEY is unset (the key then lives in the database), not once it is set", async () => {
  const warned = (output: string[]) =>
    output.some((line) => /"level":"warn".*DATA_ENCRYPTION_KEY is not set/.test(line));
  assert.equal(warned(await startOutput({})), true);
  assert.equal(warned(await startOutput({ DATA_ENCRYPTION_KEY: "k".repeat(48) })), false);
});
