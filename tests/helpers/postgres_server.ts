import { deadline } from "./server.ts";

/**
 * A real PostgreSQL (Debian's `postgresql` package; .ci/run installs it) for tests and benches:
 * `initdb` in a temporary folder, a free port, trust authentication on loopback only, stopped and
 * removed by `stop()`. PostgreSQL refuses to run as root, so as root the cluster belongs to the
 * package's `postgres` user. `createDatabase()` gives each test its own empty database in the
 * one cluster (a cluster takes ~3 s to start; a database ~0.1 s).
 */
export type PostgresServer = {
  /** postgres://postgres@127.0.0.1:PORT/postgres */
  url: string;
  port: number;
  /** A new database, empty or a copy of `template` (which must have no sessions); its URL. */
  createDatabase(name?: string, template?: string): Promise<string>;
  /** Runs SQL through psql against a database of this cluster (the admin's tool, not the app's). */
  psql(database: string, sql: string): Promise<string>;
  /** Stops the server (fast shutdown) and starts it again on the same port and data. */
  restart(): Promise<void>;
  stopOnly(): Promise<void>;
  start(): Promise<void>;
  stop(): Promise<void>;
  /** stop(), synchronously: for an `unload` listener (tests/helpers/engine.ts). */
  stopSync(): void;
};

const BIN_CANDIDATES = [
  "/usr/lib/postgresql/17/bin",
  "/usr/lib/postgresql/16/bin",
  "/usr/lib/postgresql/15/bin",
];

/** The folder of PostgreSQL's server binaries, or undefined when the package is missing. */
export function postgresBinaries(): string | undefined {
  for (const dir of BIN_CANDIDATES) {
    try {
      if (Deno.statSync(`${dir}/initdb`).isFile) return dir;
    } catch {
      // not this version
    }
  }
  return undefined;
}

function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}

const asRoot = Deno.uid() === 0;

/**
 * Runs a PostgreSQL binary, as `postgres` when we are root; answers what it printed on stdout.
 * It runs in `cwd` (the cluster's folder): a checkout under a folder only root may enter (a
 * `mktemp -d` clone) would make every tool warn on stderr, and pg_ctl fail.
 */
async function run(bin: string, args: string[], what: string, cwd?: string): Promise<string> {
  const command = asRoot
    ? new Deno.Command("runuser", {
      args: ["-u", "postgres", "--", bin, ...args],
      stdout: "piped",
      stderr: "piped",
      cwd,
    })
    : new Deno.Command(bin, { args, stdout: "piped", stderr: "piped", cwd });
  const { code, stdout, stderr } = await command.output();
  const out = new TextDecoder().decode(stdout);
  if (code !== 0) {
    throw new Error(`${what} failed (${code}):\n${out}${new TextDecoder().decode(stderr)}`);
  }
  return out;
}

let databaseCounter = 0;

export async function startPostgres(): Promise<PostgresServer> {
  const bin = postgresBinaries();
  if (!bin) {
    throw new Error(
      "PostgreSQL is not installed (apt-get install -y postgresql postgresql-contrib)",
    );
  }
  const dir = await Deno.makeTempDir({ prefix: "balcao-pg-" });
  const data = `${dir}/data`;
  await Deno.mkdir(data, { mode: 0o700 });
  if (asRoot) {
    const { uid, gid } = postgresUser();
    await Deno.chown(dir, uid, gid);
    await Deno.chown(data, uid, gid);
  }
  await run(
    `${bin}/initdb`,
    [
      "-D",
      data,
      "--auth=trust",
      "-U",
      "postgres",
      "-E",
      "UTF8",
      "--locale=C.UTF-8",
    ],
    "initdb",
    dir,
  );
  const port = freePort();
  const start = async () => {
    await deadline(
      run(
        `${bin}/pg_ctl`,
        [
          "-D",
          data,
          "-l",
          `${dir}/server.log`,
          "-w",
          "-o",
          `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200`,
          "start",
        ],
        "pg_ctl start",
        dir,
      ),
      30_000,
      () => "PostgreSQL did not start in 30 s",
    );
  };
  const stopOnly = async () => {
    await run(`${bin}/pg_ctl`, ["-D", data, "-m", "fast", "-w", "stop"], "pg_ctl stop", dir).catch(
      () => {},
    );
  };
  await start();
  const psql = (database: string, sql: string) =>
    run(
      `${bin}/psql`,
      [
        "-h",
        "127.0.0.1",
        "-p",
        String(port),
        "-U",
        "postgres",
        "-d",
        database,
        "-v",
        "ON_ERROR_STOP=1",
        "-Atc",
        sql,
      ],
      "psql",
      dir,
    );
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    psql,
    async createDatabase(name?: string, template?: string) {
      const db = name ?? `t${Date.now().toString(36)}_${++databaseCounter}`;
      await psql(
        "postgres",
        `CREATE DATABASE "${db}"${template ? ` TEMPLATE "${template}"` : ""}`,
      );
      return `postgres://postgres@127.0.0.1:${port}/${db}`;
    },
    start,
    stopOnly,
    async restart() {
      await stopOnly();
      await start();
    },
    async stop() {
      await stopOnly();
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    },
    stopSync() {
      const args = ["-D", data, "-m", "immediate", "-w", "stop"];
      (asRoot
        ? new Deno.Command("runuser", {
          args: ["-u", "postgres", "--", `${bin}/pg_ctl`, ...args],
          cwd: dir,
        })
        : new Deno.Command(`${bin}/pg_ctl`, { args, cwd: dir })).outputSync();
      try {
        Deno.removeSync(dir, { recursive: true });
      } catch {
        // already gone
      }
    },
  };
}

function postgresUser(): { uid: number; gid: number } {
  const line = Deno.readTextFileSync("/etc/passwd").split("\n").find((l) =>
    l.startsWith("postgres:")
  );
  if (!line) {
    throw new Error("the postgres user is missing (Debian's postgresql package creates it)");
  }
  const [, , uid, gid] = line.split(":");
  return { uid: Number(uid), gid: Number(gid) };
}
