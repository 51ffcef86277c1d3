import assert from "node:assert/strict";
import { ConfigError, loadConfig } from "../../server/config.ts";
import { buildDeps, closeDeps } from "../../server/deps.ts";
import { TestClock } from "../helpers/app.ts";

Deno.test("config - defaults: port 8080, ./data, a libSQL file inside DATA_DIR", () => {
  const c = loadConfig({});
  assert.equal(c.port, 8080);
  assert.equal(c.dataDir, "./data");
  assert.equal(c.databaseUrl, "file:./data/balcao.db");
  assert.equal(c.publicUrl, "http://localhost:8080");
  assert.equal(c.jwtSecret, undefined);
  assert.ok(Object.isFrozen(c));
});

Deno.test("config - a bad value stops the boot naming the variable", () => {
  const cases: [Record<string, string>, RegExp][] = [
    [{ PORT: "http" }, /PORT/],
    [{ PORT: "70000" }, /PORT/],
    [{ JWT_SECRET: "short" }, /JWT_SECRET.*32 bytes/],
    [{ JWT_REFRESH_SECRET: "x".repeat(31) }, /JWT_REFRESH_SECRET/],
    [{ ADMIN_EMAIL: "not-an-email" }, /ADMIN_EMAIL/],
    [{ DATABASE_URL: "mysql://x" }, /DATABASE_URL/],
    [{ PUBLIC_URL: "nope" }, /PUBLIC_URL/],
  ];
  for (const [env, pattern] of cases) {
    assert.throws(
      () => loadConfig(env),
      (e: unknown) => e instanceof ConfigError && pattern.test(e.message),
    );
  }
});

Deno.test("first start - seeds plan, company, settings and super admin once; a restart seeds nothing", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const config = loadConfig({ DATA_DIR: dir, BCRYPT_COST: "4" });
    const clock = new TestClock();
    const first = await buildDeps(config, clock);
    assert.equal(first.firstStart.seeded, true);
    assert.ok(first.firstStart.seeded && first.firstStart.generatedPassword?.length === 16);
    const db = first.deps.db;
    const plans = await db.selectFrom("plans").selectAll().execute();
    assert.equal(plans.length, 1);
    for (
      const flag of [
        "useCampaigns",
        "useKanban",
        "useOpenAi",
        "useIntegrations",
        "useSchedules",
        "useInternalChat",
        "useExternalApi",
        "useAssist",
      ] as const
    ) {
      assert.equal(plans[0][flag], 1, flag);
    }
    const company = await db.selectFrom("companies").selectAll().executeTakeFirstOrThrow();
    assert.ok(company.dueDate! > "2026-11-22");
    const settings = await db.selectFrom("settings").select(["key", "value"]).where(
      "companyId",
      "=",
      company.id,
    )
      .execute();
    assert.ok(settings.some((s) => s.key === "userRating" && s.value === "disabled"));
    const admin = await db.selectFrom("users").selectAll().executeTakeFirstOrThrow();
    assert.equal(admin.super, 1);
    assert.equal(admin.profile, "admin");
    assert.notEqual(
      admin.passwordHash,
      first.firstStart.seeded && first.firstStart.generatedPassword,
    );
    const secret = await db.selectFrom("app_secrets").select("value").where(
      "name",
      "=",
      "jwt_secret",
    )
      .executeTakeFirstOrThrow();
    assert.ok(secret.value.length >= 43, "generated secret has at least 32 bytes");
    await closeDeps(first.deps);

    const second = await buildDeps(config, clock);
    assert.equal(second.firstStart.seeded, false);
    assert.equal((await second.deps.db.selectFrom("companies").select("id").execute()).length, 1);
    assert.equal((await second.deps.db.selectFrom("users").select("id").execute()).length, 1);
    const again = await second.deps.db.selectFrom("app_secrets").select("value").where(
      "name",
      "=",
      "jwt_secret",
    )
      .executeTakeFirstOrThrow();
    assert.equal(
      again.value,
      secret.value,
      "the stored secret is reused, so sessions survive a restart",
    );
    await closeDeps(second.deps);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("first start - ADMIN_PASSWORD is used and no password is generated; JWT_SECRET from env is used", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const config = loadConfig({
      DATA_DIR: dir,
      BCRYPT_COST: "4",
      ADMIN_PASSWORD: "given-pass",
      JWT_SECRET: "s".repeat(32),
    });
    const { deps, firstStart } = await buildDeps(config, new TestClock());
    assert.deepEqual(firstStart, {
      seeded: true,
      email: "admin@balcao.local",
      generatedPassword: undefined,
    });
    assert.deepEqual(deps.secrets.access, new TextEncoder().encode("s".repeat(32)));
    const stored = await deps.db.selectFrom("app_secrets").select("name").where(
      "name",
      "=",
      "jwt_secret",
    )
      .executeTakeFirst();
    assert.equal(stored, undefined, "a given secret is not stored");
    await closeDeps(deps);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("main - a bad variable exits 1 with a message naming it", async () => {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "main.ts"],
    env: { PORT: "not-a-port", DATA_DIR: await Deno.makeTempDir() },
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(out.code, 1);
  assert.match(new TextDecoder().decode(out.stderr), /Invalid configuration: PORT/);
});
