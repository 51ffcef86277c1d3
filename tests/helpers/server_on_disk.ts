import Database from "libsql";
import { eventually } from "./eventually.ts";
import { callMain, type MainProcess, startMain } from "./main_process.ts";

/**
 * A real server process (main.ts) on a data directory of its own, for the tests that kill it
 * (SIGKILL, no goodbye) and start it again on the same files: forward_kill_test,
 * outgoing_kill_test. The database file is read beside it with a connection of the test's own.
 */
export class ServerOnDisk {
  server: MainProcess | undefined;

  private constructor(
    readonly dir: string,
    private readonly admin: { email: string; password: string },
    private readonly name: string,
  ) {}

  static async make(name: string, admin: { email: string; password: string }) {
    const dir = await Deno.makeTempDir({ prefix: `balcao-${name}-` });
    return new ServerOnDisk(dir, admin, name);
  }

  /** Starts main.ts on the directory (the first admin seeded from `admin`), with `env` added. */
  async start(env: Record<string, string> = {}): Promise<MainProcess> {
    this.server = await startMain({
      DATA_DIR: this.dir,
      ADMIN_EMAIL: this.admin.email,
      ADMIN_PASSWORD: this.admin.password,
      BCRYPT_COST: "4",
      ...env,
    }, this.name);
    return this.server;
  }

  /** One JSON request to the running process. */
  call(method: string, path: string, token?: string, body?: unknown) {
    if (!this.server) throw new Error(`${this.name} is not running`);
    return callMain(this.server, method, path, token, body);
  }

  async login(): Promise<string> {
    return (await this.call("POST", "/api/auth/login", undefined, this.admin)).body.token;
  }

  /** A simulator connection, made and scanned (its session starts in the background). */
  async simulatorConnection(token: string): Promise<number> {
    const created = await this.call("POST", "/api/whatsapp", token, {
      name: "Simulador",
      provider: "simulator",
    });
    if (created.status !== 201) throw new Error(JSON.stringify(created.body));
    const whatsappId: number = created.body.id;
    await eventually(async () => {
      const scan = await this.call("POST", `/api/simulator/${whatsappId}/scan`, token);
      return scan.status === 200;
    }, { timeoutMs: 60_000, what: "the simulator session started and scanned" });
    return whatsappId;
  }

  /** Reads the database file (its own connection; waits out the server's writes). */
  query<T>(sql: string, ...params: unknown[]): T[] {
    const db = new Database(`${this.dir}/balcao.db`);
    try {
      db.exec("PRAGMA busy_timeout = 5000");
      return db.prepare(sql).all(...params) as T[];
    } finally {
      db.close();
    }
  }

  /** `SELECT count(*) AS n ...`'s n. */
  count(sql: string, ...params: unknown[]): number {
    return this.query<{ n: number }>(sql, ...params)[0].n;
  }

  /** The process's end (a SIGKILL it did to itself, or one sent here). */
  async ended(): Promise<Deno.CommandStatus> {
    const status = await this.server!.child.status;
    this.server = undefined;
    return status;
  }

  /** SIGKILL, as a power cut. */
  async kill(): Promise<void> {
    if (!this.server) return;
    try {
      this.server.child.kill("SIGKILL");
    } catch {
      // already gone
    }
    await this.ended();
  }

  /** Stops whatever runs and removes the directory. */
  async dispose(): Promise<void> {
    await this.kill();
    await Deno.remove(this.dir, { recursive: true }).catch(() => {});
  }
}
