import Database from "libsql";
import { deadline } from "./server.ts";

/** A real server process (main.ts), as systemd runs it. */
export type MainProcess = {
  /** http://127.0.0.1:<port>, from its 'listening' line. */
  url: string;
  child: Deno.ChildProcess;
  /** Every line it wrote to stdout and stderr so far (JSON log lines). */
  output: string[];
};

/** Starts main.ts on a port of its own with `env` and waits until it listens. */
export async function startMain(
  env: Record<string, string>,
  name = "main.ts",
  /** Runtime flags before the script (e.g. --v8-flags=...), for the benchmarks. */
  runtimeArgs: string[] = [],
  /** Another way to start it (e.g. `deno task start`, which builds first), instead of main.ts. */
  command: { program: string; args: string[] } = {
    program: Deno.execPath(),
    args: ["run", "-A", ...runtimeArgs, "main.ts"],
  },
): Promise<MainProcess> {
  const child = new Deno.Command(command.program, {
    args: command.args,
    env: { PORT: "0", HOST: "127.0.0.1", LOG_LEVEL: "info", ...env },
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const output: string[] = [];
  const listening = Promise.withResolvers<string>();
  const read = async (stream: ReadableStream<Uint8Array>) => {
    const decoder = new TextDecoder();
    let pending = "";
    for await (const chunk of stream) {
      pending += decoder.decode(chunk, { stream: true });
      const lines = pending.split("\n");
      pending = lines.pop() ?? "";
      for (const line of lines.filter(Boolean)) {
        output.push(line);
        const url = /"msg":"listening","url":"(http:\/\/localhost:\d+)"/.exec(line)?.[1];
        if (url) listening.resolve(url.replace("localhost", "127.0.0.1"));
      }
    }
  };
  read(child.stdout);
  read(child.stderr);
  const url = await deadline(
    listening.promise,
    60_000,
    () => `${name} did not start:\n${output.join("\n")}`,
  );
  return { url, child, output };
}

/** One JSON request to a server process; the body parsed (undefined when empty). */
export async function callMain(
  server: { url: string },
  method: string,
  path: string,
  token?: string,
  body?: unknown,
  // deno-lint-ignore no-explicit-any
): Promise<{ status: number; body: any }> {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body ? { "content-type": "application/json" } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

/** balcao_whatsapp_sessions_running of a process's /metrics. */
export async function sessionsRunning(server: { url: string }, metricsToken: string) {
  const res = await fetch(`${server.url}/metrics`, {
    headers: { authorization: `Bearer ${metricsToken}` },
  });
  return Number(/^balcao_whatsapp_sessions_running (\d+)$/m.exec(await res.text())?.[1]);
}

/** Reads the database file beside a server process (its own connection; the process may be dead). */
export function queryDataDir<T>(dir: string, sql: string, ...params: unknown[]): T[] {
  const db = new Database(`${dir}/balcao.db`);
  try {
    db.exec("PRAGMA busy_timeout = 5000");
    return db.prepare(sql).all(...params) as T[];
  } finally {
    db.close();
  }
}

/** Kills a server process if it still runs and waits until it is gone. */
export async function killMain(server: MainProcess | undefined) {
  if (!server) return;
  try {
    server.child.kill("SIGKILL");
  } catch {
    // already gone
  }
  await server.child.status;
}
