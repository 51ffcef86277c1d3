import { formatIp, inRange, type IpRange, parseIp } from "./ip_address.ts";

/**
 * The address a request comes from, for rate limits and logs. The direct peer (Deno.serve's
 * remote address, passed by main.ts as the `remoteAddr` binding), unless that peer is a proxy of
 * TRUSTED_PROXIES: then X-Forwarded-For is read from the right (each proxy appends the address it
 * heard from) and the first address that is not itself a trusted proxy is the client. Anything to
 * its left was written by that client and is not believed; a peer that is not trusted is the
 * client, whatever X-Forwarded-For it sends.
 */
export function clientAddress(
  c: { env?: { remoteAddr?: string }; req: { header(name: string): string | undefined } },
  trusted: readonly IpRange[],
): string {
  const peer = c.env?.remoteAddr;
  if (!peer) return "local";
  let current = parseIp(peer);
  if (!current) return peer;
  const hops = (c.req.header("x-forwarded-for") ?? "").split(",").map((h) => h.trim())
    .filter((h) => h !== "");
  while (trusted.some((range) => inRange(current!, range))) {
    const hop = hops.pop();
    const next = hop === undefined ? undefined : parseIp(withoutPort(hop));
    // A malformed hop ends the walk: the last address a trusted proxy vouched for is kept.
    if (!next) break;
    current = next;
  }
  return formatIp(current);
}

/** `1.2.3.4:5678` and `[::1]:5678` as some proxies write them; a bare IPv6 keeps its colons. */
function withoutPort(hop: string): string {
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(hop);
  if (bracketed) return bracketed[1];
  const v4 = /^(\d+\.\d+\.\d+\.\d+):\d+$/.exec(hop);
  return v4 ? v4[1] : hop;
}
