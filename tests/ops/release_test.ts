import assert from "node:assert/strict";
import Database from "libsql";
import { packRelease, releaseSizes, stageRelease } from "../../scripts/release.ts";
import { eventually } from "../helpers/eventually.ts";
import denoConfig from "../../deno.json" with { type: "json" };

/**
 * Issue 32: the release archive, built ONCE here (staged, then packed with fast gzip; the variants
 * of the upgrade tests are hard-linked copies of the staged folder with a file or two replaced).
 * Every process runs from the archive with a fresh home, no Node or Deno on PATH and every proxy
 * and registry pointed at a closed port: nothing can be downloaded.
 */
const V0 = denoConfig.version;
const ADMIN = { email: "root@example.com", password: "secret12" };

function freePort(): number {
  const listener = Deno.listen({ port: 0, hostname: "127.0.0.1" });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return port;
}

/** The environment of a VPS that reaches no registry. */
function offlineEnv(
  home: string,
  dataDir: string,
  port: number,
  root = "",
): Record<string, string> {
  const closed = "http://127.0.0.1:9";
  return {
    PATH: "/usr/sbin:/usr/bin:/sbin:/bin",
    HOME: home,
    HTTP_PROXY: closed,
    HTTPS_PROXY: closed,
    http_proxy: closed,
    https_proxy: closed,
    NPM_CONFIG_REGISTRY: closed,
    BALCAO_ENV_FILE: "",
    BALCAO_SERVICE: "process",
    BALCAO_HEALTH_TIMEOUT_MS: "30000",
    ...(root ? { BALCAO_ROOT: root } : {}),
    PORT: String(port),
    HOST: "127.0.0.1",
    DATA_DIR: dataDir,
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    LOG_LEVEL: "warn",
  };
}

async function balcao(launcher: string, args: string[], env: Record<string, string>) {
  const out = await new Deno.Command(launcher, {
    args,
    env,
    clearEnv: true,
    stdout: "piped",
    stderr: "piped",
  })
    .output();
  const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
  return { code: out.code, text };
}

async function api(port: number, method: string, path: string, token?: string, body?: unknown) {
  const res = await fetch(`http://127.0.0.1:${port}${path}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body ? { "content-type": "application/json" } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

async function healthz(port: number): Promise<boolean> {
  try {
    const res = await fetch(`http://127.0.0.1:${port}/healthz`);
    await res.body?.cancel();
    return res.ok;
  } catch {
    return false;
  }
}

/** The tables whose rows differ between two snapshots. */
function differing(a: string, b: string): string[] {
  const left = new Map(JSON.parse(a) as [string, string[]][]);
  const right = new Map(JSON.parse(b) as [string, string[]][]);
  const names = [...new Set([...left.keys(), ...right.keys()])];
  return names.filter((name) => JSON.stringify(left.get(name)) !== JSON.stringify(right.get(name)))
    .map((name) => {
      const l = new Set(left.get(name) ?? []);
      const r = new Set(right.get(name) ?? []);
      const gone = [...l].filter((x) => !r.has(x)).slice(0, 2);
      const added = [...r].filter((x) => !l.has(x)).slice(0, 2);
      return `${name}: -${gone.join(" ")} +${added.join(" ")}`;
    });
}

/**
 * Every table's rows (sorted: a restored copy may number rowids anew), so two equal snapshots are
 * the same data. Aside, what a process writes by running rather than what the data is: its
 * heartbeat (`instances`), and a connection's live state, which a start writes anew (status, QR,
 * retries and their updatedAt on `whatsapps`).
 */
const RUNTIME_COLUMNS: Record<string, string[]> = {
  whatsapps: ["status", "qrcode", "retries", "updatedAt"],
};
function snapshot(dbPath: string): string {
  const db = new Database(dbPath, { readonly: true });
  try {
    const tables = db.prepare(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' " +
        "AND name <> 'instances' ORDER BY name",
    ).all() as { name: string }[];
    return JSON.stringify(
      tables.map(({ name }) => [
        name,
        db.prepare(`SELECT * FROM "${name}"`).all().map((row) => {
          const data = { ...(row as Record<string, unknown>) };
          for (const column of RUNTIME_COLUMNS[name] ?? []) delete data[column];
          return JSON.stringify(data);
        }).sort(),
      ]),
    );
  } finally {
    db.close();
  }
}

/** A copy of the staged release as another version: hard links, with `edits` written anew. */
async function variant(
  staged: string,
  out: string,
  version: string,
  edits: Record<string, string>,
) {
  const top = `${out}/balcao-${version}`;
  const cp = await new Deno.Command("cp", { args: ["-al", staged, top] }).output();
  assert.ok(cp.success);
  const write = async (path: string, text: string) => {
    await Deno.remove(`${top}/${path}`).catch(() => {}); // a new inode: the original stays
    await Deno.writeTextFile(`${top}/${path}`, text);
  };
  await write("VERSION", `${version}\n`);
  const config = JSON.parse(await Deno.readTextFile(`${staged}/app/deno.json`));
  await write("app/deno.json", JSON.stringify({ ...config, version }, null, 2));
  for (const [path, text] of Object.entries(edits)) await write(path, text);
  return await packRelease(top, out, 1);
}

/** The body of the test migration of the next release. */
const PROBE_TABLE =
  `  await db.schema.createTable("upgrade_probe").addColumn("id", "integer").execute();`;

/** This release plus a migration `name` whose body is `up`. */
async function withMigration(staged: string, name: string, up: string) {
  const migrate = await Deno.readTextFile(`${staged}/app/db/migrate.ts`);
  const lines = migrate
    .replace(
      'import { sql } from "kysely";',
      `import { sql } from "kysely";\nimport * as mTest from "./migrations/${name}.ts";`,
    )
    .replace(
      "const migrations: Record<string, Migration> = {",
      `const migrations: Record<string, Migration> = {\n  "${name}": mTest,`,
    );
  return {
    "app/db/migrate.ts": lines,
    [`app/db/migrations/${name}.ts`]:
      `// deno-lint-ignore-file\nexport async function up(db: any) {\n${up}\n}\n`,
  };
}

/** The names of the files under `dir`, at any depth (links to other packages aside). */
function filesUnder(dir: string): string[] {
  const names: string[] = [];
  for (const entry of Deno.readDirSync(dir)) {
    if (entry.isDirectory) names.push(...filesUnder(`${dir}/${entry.name}`));
    else if (entry.isFile) names.push(entry.name);
  }
  return names.sort();
}

Deno.test({
  name:
    "release - one archive runs offline, upgrades keep every row, failed upgrades roll back, an older release refuses a newer database",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const work = await Deno.makeTempDir({ prefix: "balcao-release-" });
    const home = `${work}/home`;
    await Deno.mkdir(home);
    const staged = await stageRelease(`${work}/stage`);
    // Issue 50 item 18: the musl builds ship no file but their package.json (this runtime is
    // glibc's; it never loads them), and Deno's cache holds little besides the hard links it
    // shares with node_modules (README 'From a release archive').
    const muslFolders = [...Deno.readDirSync(`${staged}/app/node_modules/.deno`)]
      .filter((e) => e.isDirectory && e.name.includes("musl"));
    assert.ok(muslFolders.length >= 3, "libSQL's and sharp's musl builds are locked");
    for (const folder of muslFolders) {
      // .initialized: Deno's mark that the package is laid out.
      assert.deepEqual(filesUnder(`${staged}/app/node_modules/.deno/${folder.name}`), [
        ".initialized",
        "package.json",
      ]);
    }
    const { total, parts } = await releaseSizes(staged);
    const MiB = 1024 * 1024;
    const cacheOwn = parts.filter((p) => p.path.startsWith("app/.deno_dir"))
      .reduce((sum, p) => sum + p.size, 0);
    assert.ok(cacheOwn < 64 * MiB, `app/.deno_dir besides its hard links: ${cacheOwn / MiB} MiB`);
    assert.ok(total < 400 * MiB, `unpacked: ${total / MiB} MiB`);
    const archive = await packRelease(staged, work, 1);
    assert.match(archive, /balcao-.*linux-x64.*\.tar\.gz$/);
    assert.match(await Deno.readTextFile(`${archive}.sha256`), /^[0-9a-f]{64} {2}balcao-/);

    // Installed as install.sh lays it out (without systemd): releases/<v>, current, data apart.
    const root = `${work}/opt`;
    const data = `${work}/data`;
    await Deno.mkdir(`${root}/releases`, { recursive: true });
    const untar = await new Deno.Command("tar", {
      args: ["-xzf", archive, "-C", `${root}/releases`],
    })
      .output();
    assert.ok(untar.success);
    await Deno.rename(`${root}/releases/balcao-${V0}`, `${root}/releases/${V0}`);
    await Deno.symlink(`releases/${V0}`, `${root}/current`);
    const port = await freePort();
    const env = offlineEnv(home, data, port, root);
    const launcher = `${root}/current/bin/balcao`;

    const version = await balcao(launcher, ["version"], env);
    assert.equal(version.code, 0, version.text);
    assert.match(version.text, new RegExp(`balcao ${V0.replaceAll(".", "\\.")}`));
    assert.match(version.text, /runtime deno 2\.9\.6/);
    assert.match((await balcao(launcher, ["--help"], env)).text, /upgrade <archive>/);

    // Started as the service would, in the background (process mode of upgrade.ts).
    const start = await new Deno.Command("sh", {
      args: ["-c", `nohup "$0" start >>"$1" 2>&1 & echo $!`, launcher, `${root}/balcao.log`],
      env,
      clearEnv: true,
      stdout: "piped",
    }).output();
    await Deno.writeTextFile(`${root}/balcao.pid`, new TextDecoder().decode(start.stdout).trim());
    await eventually(() => healthz(port), { timeoutMs: 120_000 });
    // A page renders offline too: its island and React's server renderer are imported on the
    // first request (from a path in a variable, out of the start graph), from the archive's cache.
    const page = await fetch(`http://127.0.0.1:${port}/login`);
    assert.equal(page.status, 200);
    assert.match(await page.text(), /LoginPage/);

    const login = await api(port, "POST", "/api/auth/login", undefined, ADMIN);
    assert.equal(login.status, 200);
    const token = login.body.token as string;
    const wa = await api(port, "POST", "/api/whatsapp", token, {
      name: "Sim",
      provider: "simulator",
    });
    assert.equal(wa.status, 201, JSON.stringify(wa.body));
    assert.equal((await api(port, "POST", `/api/simulator/${wa.body.id}/scan`, token)).status, 200);
    const inbound = await api(port, "POST", `/api/simulator/${wa.body.id}/messages`, token, {
      from: "5511977770001",
      body: "oi",
    });
    assert.equal(inbound.status, 201, JSON.stringify(inbound.body));
    assert.ok(inbound.body.ticketId);
    const doctor = await balcao(launcher, ["doctor"], env);
    assert.equal(doctor.code, 0, doctor.text);
    assert.match(doctor.text, /ok {3}port: \d+: the server runs/);

    const dbPath = `${data}/balcao.db`;
    // 1. A version bump with a migration: every row kept, the new table there.
    const v1 = `${V0}-up.1`;
    const good = await variant(
      staged,
      work,
      v1,
      await withMigration(staged, "9001_test_upgrade", PROBE_TABLE),
    );
    const up1 = await balcao(launcher, ["upgrade", good], env);
    assert.equal(up1.code, 0, up1.text);
    assert.match(up1.text, /downtime \d+\.\d s/);
    assert.equal((await api(port, "GET", "/api/version")).body.version, v1);
    const after1 = snapshot(dbPath);
    assert.match(after1, /"upgrade_probe"/);
    assert.match(after1, /5511977770001/, "the contact and its ticket are still there");

    // 2. A migration that fails: rolled back by itself, the data exactly as before.
    const bad = await variant(
      staged,
      work,
      `${V0}-up.2`,
      await withMigration(
        staged,
        "9002_test_fails",
        `  await db.schema.createTable("half_done").addColumn("id", "integer").execute();\n  throw new Error("boom");`,
      ),
    );
    const up2 = await balcao(launcher, ["upgrade", bad], env);
    assert.equal(up2.code, 1, up2.text);
    assert.match(up2.text, /failed at step 'migrate'/);
    assert.match(up2.text, new RegExp(`rolled back to ${v1.replaceAll(".", "\\.")}`));
    assert.equal((await api(port, "GET", "/api/version")).body.version, v1);
    const mismatches: string[] = [];
    mismatches.push(
      ...differing(after1, snapshot(dbPath)).map((d) => `after a failed migration: ${d}`),
    );

    // 3. A release that does not start: rolled back by itself, the data exactly as before.
    const main = await Deno.readTextFile(`${staged}/app/main.ts`);
    // (a later release: it has 1's migration too, or the schema guard would refuse it first)
    const broken = await variant(staged, work, `${V0}-up.3`, {
      ...await withMigration(staged, "9001_test_upgrade", PROBE_TABLE),
      "app/main.ts": `throw new Error("this release cannot start");\n${main}`,
    });
    const up3 = await balcao(launcher, ["upgrade", broken], env);
    assert.equal(up3.code, 1, up3.text);
    assert.match(up3.text, /failed at step 'health'/);
    assert.equal((await api(port, "GET", "/api/version")).body.version, v1);
    mismatches.push(
      ...differing(after1, snapshot(dbPath)).map((d) => `after a failed start: ${d}`),
    );
    assert.deepEqual(mismatches, []);

    // 4. The older release refuses the database the newer one migrated, naming both.
    const pid = Number(await Deno.readTextFile(`${root}/balcao.pid`));
    Deno.kill(pid, "SIGTERM");
    await eventually(async () => !(await healthz(port)));
    const old = await balcao(`${root}/releases/${V0}/bin/balcao`, ["start"], env);
    assert.equal(old.code, 1, old.text);
    assert.match(
      old.text,
      new RegExp(
        `migrated by Balcão ${v1.replaceAll(".", "\\.")}.*this is Balcão ${
          V0.replaceAll(".", "\\.")
        }`,
      ),
    );

    // 5. rollback: the release before the last upgrade, with the backup taken then.
    await Deno.remove(`${root}/balcao.pid`);
    const back = await balcao(launcher, ["rollback"], env);
    assert.equal(back.code, 0, back.text);
    assert.equal((await api(port, "GET", "/api/version")).body.version, V0);
    const rolled = snapshot(dbPath);
    assert.doesNotMatch(rolled, /"upgrade_probe"/);
    assert.match(rolled, /5511977770001/);

    Deno.kill(Number(await Deno.readTextFile(`${root}/balcao.pid`)), "SIGTERM");
    await eventually(async () => !(await healthz(port)));
    await Deno.remove(work, { recursive: true });
  },
});
