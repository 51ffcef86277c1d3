import type { Connector } from "../../server/http/outbound_fetch.ts";

/**
 * The network outbound calls see in a test (BuildOptions.connect): it records every address the
 * app asks to reach; a "public" address given a route is carried to a server of the test's own
 * on 127.0.0.1 (a host of the test's internet); loopback is connected as asked; anything else is
 * refused. So no test sends a packet off this machine, and a test can tell which address a call
 * actually went to.
 */
export class TestNetwork {
  readonly asked: string[] = [];
  readonly #routes = new Map<string, number>();

  /** Connections to `address:port` reach 127.0.0.1:`toPort`. */
  route(address: string, port: number, toPort: number) {
    this.#routes.set(`${address}:${port}`, toPort);
  }

  readonly connect: Connector = ({ hostname, port }) => {
    const target = `${hostname}:${port}`;
    this.asked.push(target);
    const routed = this.#routes.get(target);
    if (routed !== undefined) {
      return Deno.connect({ hostname: "127.0.0.1", port: routed, transport: "tcp" });
    }
    if (hostname === "127.0.0.1" || hostname === "::1") {
      return Deno.connect({ hostname, port, transport: "tcp" });
    }
    return Promise.reject(
      new Deno.errors.ConnectionRefused(`test network: ${target} is off this machine`),
    );
  };
}
