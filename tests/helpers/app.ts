import type { Hono } from "hono";
import type { Clock } from "../../server/clock.ts";
import { type Config, loadConfig } from "../../server/config.ts";
import type { AppDeps, AppEnv } from "../../server/context.ts";
import { buildDeps, type BuildOptions, closeDeps } from "../../server/deps.ts";
import { createApp } from "../../server/app.ts";
import { hashPassword } from "../../server/auth/passwords.ts";
import { seedCompanySettings } from "../../server/seed.ts";
import { isoDate } from "../../server/clock.ts";
import { TEST_ENGINE, testMigratedPostgresDatabase } from "./engine.ts";
import { sql } from "kysely";
import { openDatabase } from "../../db/client.ts";
import { migrateToLatest } from "../../db/migrate.ts";
import { APP_VERSION } from "../../server/ops/version.ts";

/** A clock the test moves by hand. */
export class TestClock implements Clock {
  #now: number;
  constructor(start = "2026-11-22T12:00:00.000Z") {
    this.#now = Date.parse(start);
  }
  now(): Date {
    return new Date(this.#now);
  }
  advance(ms: number) {
    this.#now += ms;
  }
  set(iso: string) {
    this.#now = Date.parse(iso);
  }
}

export const ADMIN_EMAIL = "root@balcao.test";
export const ADMIN_PASSWORD = "root-password";

export type TestApp = {
  app: Hono<AppEnv>;
  deps: AppDeps;
  config: Config;
  clock: TestClock;
  dir: string;
  /** The environment it was created with (a restart keeps it). */
  env: Record<string, string>;
  /** app.request with a JSON body and an optional bearer token. */
  request(
    method: string,
    path: string,
    options?: {
      token?: string;
      body?: unknown;
      headers?: Record<string, string>;
      /** The peer's address, as Deno.serve gives it to main.ts (default: none, "local"). */
      remoteAddr?: string;
    },
  ): Promise<Response>;
  close(): Promise<void>;
};

/**
 * A libSQL file with every migration applied and nothing seeded, made once per test process: a
 * new test app starts from a copy instead of running the 48 migrations again (about a second of
 * CPU each, for each of the suite's ~900 apps). The first start's seed still runs per app.
 */
let template: Promise<string> | undefined;
function migratedTemplate(): Promise<string> {
  return template ??= (async () => {
    const folder = await Deno.makeTempDir({ prefix: "balcao-template-" });
    globalThis.addEventListener("unload", () => {
      try {
        Deno.removeSync(folder, { recursive: true });
      } catch {
        // Already gone.
      }
    });
    const db = await openDatabase(`file:${folder}/migrating.db`);
    try {
      await migrateToLatest(db, APP_VERSION);
      // One self-contained file (no WAL beside it) that a copy fully carries.
      await sql`VACUUM INTO ${`${folder}/balcao.db`}`.execute(db);
    } finally {
      await db.destroy();
    }
    return `${folder}/balcao.db`;
  })();
}

/** A whole app on a fresh temporary database (the real wiring, real libSQL file). */
export async function createTestApp(
  env: Record<string, string> = {},
  clock = new TestClock(),
  options: BuildOptions = {},
): Promise<TestApp> {
  // An existing DATA_DIR is a restart on the same database (restartTestApp).
  const dir = env.DATA_DIR ?? await Deno.makeTempDir({ prefix: "balcao-test-" });
  if (!env.DATA_DIR && !env.DATABASE_URL && TEST_ENGINE !== "postgres") {
    await Deno.copyFile(await migratedTemplate(), `${dir}/balcao.db`);
  }
  // BALCAO_TEST_ENGINE=postgres: a database of its own in the process's cluster (helpers/engine.ts),
  // kept in env so that a restart finds it.
  if (TEST_ENGINE === "postgres" && !env.DATABASE_URL) {
    env = { ...env, DATABASE_URL: await testMigratedPostgresDatabase() };
  }
  const config = loadConfig({
    DATA_DIR: dir,
    ADMIN_EMAIL,
    ADMIN_PASSWORD,
    BCRYPT_COST: "4",
    // Each test app reserves this in its own folder; the default 16 MiB would be written per app.
    HELD_JOURNAL_BYTES: "65536",
    // db/tenancy.ts: a query of the app that forgets the company fails the test.
    TENANCY_GUARD: "strict",
    ...env,
  });
  const { deps } = await buildDeps(config, clock, options);
  const app = createApp(deps);
  return {
    app,
    deps,
    config,
    clock,
    dir,
    env,
    request(method, path, options = {}) {
      const headers: Record<string, string> = { ...options.headers };
      if (options.token) headers.authorization = `Bearer ${options.token}`;
      let body: BodyInit | undefined;
      if (options.body instanceof FormData || typeof options.body === "string") {
        body = options.body;
      } else if (options.body !== undefined) {
        headers["content-type"] = "application/json";
        body = JSON.stringify(options.body);
      }
      const bindings = options.remoteAddr ? { remoteAddr: options.remoteAddr } : undefined;
      return Promise.resolve(app.request(path, { method, headers, body }, bindings));
    },
    async close() {
      await closeDeps(deps);
      const breaches = deps.tenancyBreaches?.seen ?? [];
      if (breaches.length > 0) {
        await Deno.remove(dir, { recursive: true }).catch(() => {});
        throw new Error(`queries without their company:\n${[...new Set(breaches)].join("\n")}`);
      }
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    },
  };
}

/**
 * Stops the app and starts another on the same data folder and environment, as a restart of the
 * server does.
 */
export async function restartTestApp(t: TestApp): Promise<TestApp> {
  await closeDeps(t.deps);
  return await createTestApp({ ...t.env, DATA_DIR: t.dir }, t.clock);
}

export type TestUser = {
  id: number;
  email: string;
  password: string;
  token: string;
  companyId: number;
};
export type TestCompany = { id: number; name: string; admin: TestUser; user: TestUser };

/** Logs in and returns the access token (and the refresh cookie, for auth tests). */
export async function login(t: TestApp, email: string, password: string) {
  const res = await t.request("POST", "/api/auth/login", { body: { email, password } });
  if (res.status !== 200) {
    throw new Error(`login ${email} failed: ${res.status} ${await res.text()}`);
  }
  const body = await res.json();
  return {
    token: body.token as string,
    user: body.user,
    cookie: res.headers.get("set-cookie") ?? "",
  };
}

/** The `name=value` part of a Set-Cookie header, to send back as a Cookie header. */
export function cookieValue(setCookie: string): string {
  return setCookie.split(";")[0];
}

function withCents(plan: Partial<Record<string, number>>) {
  const { value, ...rest } = plan;
  return { ...rest, valueCents: Math.round((value ?? 0) * 100) };
}

/** Creates a company with its own plan (every feature on), settings, an admin and a user. */
export async function createCompany(
  t: TestApp,
  name: string,
  options: { dueDate?: string; plan?: Partial<Record<string, number>> } = {},
): Promise<TestCompany> {
  const db = t.deps.db;
  const stamp = t.clock.now().toISOString();
  const plan = await db.insertInto("plans").values({
    name: `plan-${name}`,
    users: 50,
    connections: 50,
    queues: 50,
    campaigns: 50,
    schedules: 50,
    // The tests give a price in reais, as a super user types it; the column holds cents (0700).
    ...withCents({ value: 99, ...options.plan }),
    createdAt: stamp,
    updatedAt: stamp,
  }).returning("id").executeTakeFirstOrThrow();
  const due = new Date(t.clock.now());
  due.setUTCFullYear(due.getUTCFullYear() + 1);
  const company = await db.insertInto("companies").values({
    name,
    email: `${name}@example.test`,
    phone: null,
    planId: plan.id,
    status: 1,
    dueDate: options.dueDate ?? isoDate(due),
    recurrence: "MENSAL",
    billingName: null,
    addressZipCode: null,
    addressStreet: null,
    addressState: null,
    addressCity: null,
    addressDistrict: null,
    createdAt: stamp,
    updatedAt: stamp,
  }).returning("id").executeTakeFirstOrThrow();
  await seedCompanySettings(db, company.id, stamp);
  const slug = name.toLowerCase().replace(/[^a-z0-9]+/g, "-");
  const admin = await createUser(t, company.id, {
    name: `${name} Admin`,
    email: `admin@${slug}.test`,
    profile: "admin",
  });
  const user = await createUser(t, company.id, {
    name: `${name} User`,
    email: `user@${slug}.test`,
    profile: "user",
  });
  return { id: company.id, name, admin, user };
}

/** Inserts a user directly and logs them in. */
export async function createUser(
  t: TestApp,
  companyId: number,
  input: {
    name: string;
    email: string;
    profile?: "admin" | "user";
    password?: string;
    queueIds?: number[];
  },
): Promise<TestUser> {
  const password = input.password ?? "password1";
  const stamp = t.clock.now().toISOString();
  const row = await t.deps.db.insertInto("users").values({
    companyId,
    name: input.name,
    email: input.email,
    passwordHash: await hashPassword(password, 4),
    profile: input.profile ?? "user",
    whatsappId: null,
    lastSeenAt: null,
    createdAt: stamp,
    updatedAt: stamp,
  }).returning("id").executeTakeFirstOrThrow();
  if (input.queueIds?.length) {
    await t.deps.db.insertInto("user_queues").values(
      input.queueIds.map((queueId) => ({ companyId, userId: row.id, queueId })),
    ).execute();
  }
  const { token } = await login(t, input.email, password);
  return { id: row.id, email: input.email, password, token, companyId };
}

/**
 * Two companies, A and B, each with an admin and a user: every resource proves with these that
 * another company cannot read, change or hear it.
 */
export async function twoCompanies(t: TestApp): Promise<{ a: TestCompany; b: TestCompany }> {
  return { a: await createCompany(t, "Alpha"), b: await createCompany(t, "Beta") };
}

/** Runs `fn` with a fresh app and always closes it. */
export async function withApp<T>(
  fn: (t: TestApp) => Promise<T>,
  env?: Record<string, string>,
): Promise<T> {
  const t = await createTestApp(env);
  try {
    return await fn(t);
  } finally {
    await t.close();
  }
}
