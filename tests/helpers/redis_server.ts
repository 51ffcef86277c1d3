import { deadline } from "./server.ts";

/**
 * A real redis-server (Debian's package; .ci/run installs it) for one test: a free port, a temp
 * directory, no persistence. `restart()` stops it and starts it again on the same port (the
 * processes' clients reconnect); `stop()` ends it for good.
 */
export type RedisServer = {
  url: string;
  port: number;
  restart(): Promise<void>;
  stopOnly(): Promise<void>;
  start(): Promise<void>;
  stop(): Promise<void>;
};

function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}

export async function startRedis(): Promise<RedisServer> {
  const dir = await Deno.makeTempDir({ prefix: "balcao-redis-" });
  const port = freePort();
  let child: Deno.ChildProcess | undefined;
  const start = async () => {
    const output: string[] = [];
    const ready = Promise.withResolvers<void>();
    child = new Deno.Command("redis-server", {
      args: [
        "--port",
        String(port),
        "--bind",
        "127.0.0.1",
        "--dir",
        dir,
        "--save",
        "",
        "--appendonly",
        "no",
      ],
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    (async () => {
      const decoder = new TextDecoder();
      for await (const chunk of child!.stdout) {
        const text = decoder.decode(chunk);
        output.push(text);
        if (text.includes("Ready to accept connections")) ready.resolve();
      }
    })();
    child.stderr.cancel();
    await deadline(ready.promise, 20_000, () => `redis-server did not start:\n${output.join("")}`);
  };
  const stopOnly = async () => {
    if (!child) return;
    child.kill("SIGKILL");
    await child.status;
    child = undefined;
  };
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
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
  };
}
