import type { Hono } from "hono";

/** An in-process fake of an outside service's HTTP API on 127.0.0.1, port 0. */
export type FakeServer = { url: string; close(): Promise<void> };

// deno-lint-ignore no-explicit-any
export function serveFake(app: Hono<any>): FakeServer {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, app.fetch);
  const { port } = server.addr as Deno.NetAddr;
  return {
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      await server.shutdown();
    },
  };
}
