import { AppError } from "../errors.ts";

/**
 * The form and address rules for URLs a user gives us (integration URLs, a service account's
 * token_uri, media links an outside bot answers): only http(s), no credentials in the URL, and
 * (unless INTEGRATIONS_ALLOW_PRIVATE_URLS=true) only public unicast addresses. The network side,
 * resolving once and connecting to the address that was checked, is outbound_fetch.ts.
 */
export function urlError(message: string): AppError {
  return new AppError(400, "ERR_INTEGRATION_URL", message);
}

export const INTERNAL = "Endereços internos não são permitidos";

function ipv4Parts(host: string): number[] | undefined {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  if (!m) return undefined;
  const parts = m.slice(1).map(Number);
  return parts.every((p) => p <= 255) ? parts : undefined;
}

/** RFC 6890's special-purpose IPv4 blocks (and multicast, reserved, broadcast). */
function publicV4([a, b, c]: number[]): boolean {
  const refused = a === 0 || a === 10 || a === 127 || a >= 224 ||
    (a === 100 && b >= 64 && b <= 127) || (a === 169 && b === 254) ||
    (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) ||
    (a === 192 && b === 0 && (c === 0 || c === 2)) || (a === 192 && b === 88 && c === 99) ||
    (a === 198 && (b === 18 || b === 19)) || (a === 198 && b === 51 && c === 100) ||
    (a === 203 && b === 0 && c === 113);
  return !refused;
}

/** The eight 16-bit groups of an IPv6 literal (a trailing dotted quad allowed), or undefined. */
export function ipv6Groups(host: string): number[] | undefined {
  let text = host.toLowerCase();
  const dotted = /^(.*:)(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const p = ipv4Parts(dotted[2]);
    if (!p) return undefined;
    text = `${dotted[1]}${((p[0] << 8) | p[1]).toString(16)}:${((p[2] << 8) | p[3]).toString(16)}`;
  }
  const halves = text.split("::");
  if (halves.length > 2) return undefined;
  const groups = (part: string) =>
    part === ""
      ? []
      : part.split(":").map((g) => /^[0-9a-f]{1,4}$/.test(g) ? parseInt(g, 16) : Number.NaN);
  const head = groups(halves[0]);
  const tail = halves.length === 2 ? groups(halves[1]) : [];
  if ([...head, ...tail].some(Number.isNaN)) return undefined;
  if (halves.length === 1) return head.length === 8 ? head : undefined;
  const fill = 8 - head.length - tail.length;
  return fill >= 1 ? [...head, ...new Array(fill).fill(0), ...tail] : undefined;
}

/**
 * Only global unicast (2000::/3) passes, without the blocks inside it that are not a plain
 * host: 2001::/23 (Teredo, benchmarking, ORCHID...), 2001:db8::/32 and 3fff::/20
 * (documentation), 2002::/16 (6to4, which embeds any IPv4 address). So every form that embeds or
 * translates an IPv4 address (::ffff:0:0/96 mapped, ::/96 compatible, ::ffff:0:0:0/96,
 * 64:ff9b::/96 and 64:ff9b:1::/48 NAT64) is refused along with loopback, unique-local fc00::/7,
 * link-local fe80::/10, the old site-local fec0::/10 and multicast.
 */
function publicV6(g: number[]): boolean {
  if ((g[0] & 0xe000) !== 0x2000) return false;
  if (g[0] === 0x2001 && g[1] <= 0x01ff) return false;
  if (g[0] === 0x2001 && g[1] === 0x0db8) return false;
  if (g[0] === 0x2002) return false;
  if (g[0] === 0x3fff && g[1] <= 0x0fff) return false;
  return true;
}

/** The literal without IPv6 brackets, lower case. */
export function bareHost(hostname: string): string {
  return hostname.replace(/^\[|\]$/g, "").toLowerCase();
}

/** True for an IPv4 or IPv6 literal (in brackets or not). */
export function isAddressLiteral(host: string): boolean {
  const bare = bareHost(host);
  return ipv4Parts(bare) !== undefined || bare.includes(":");
}

/**
 * True for an address literal that must not be called from the server (anything but a public
 * unicast address; an IPv6 form that does not parse is refused too). A name is not an address:
 * false.
 */
export function isPrivateAddress(address: string): boolean {
  const host = bareHost(address);
  const v4 = ipv4Parts(host);
  if (v4) return !publicV4(v4);
  if (!host.includes(":")) return false;
  const v6 = ipv6Groups(host);
  return v6 === undefined || !publicV6(v6);
}

/** Names that are internal by definition (RFC 6761 localhost, the .internal TLD). */
export function isInternalName(host: string): boolean {
  const name = bareHost(host).replace(/\.$/, "");
  return name === "localhost" || name.endsWith(".localhost") || name.endsWith(".internal");
}

/** Parses and checks the form of a URL (no network): http(s), a host, no user:password. */
export function parseOutboundUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    throw urlError("URL inválida");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw urlError("A URL deve começar com http:// ou https://");
  }
  if (!url.hostname) throw urlError("URL inválida");
  if (url.username || url.password) throw urlError("A URL não pode conter usuário e senha");
  return url;
}

/** `ip:port`, `ip` or `[ipv6]:port` → the nameServer of Deno.resolveDns. */
export function parseDnsServer(text: string): { ipAddr: string; port: number } | undefined {
  const m = /^\[([0-9a-fA-F:.]+)\](?::(\d{1,5}))?$/.exec(text) ??
    /^(\d{1,3}(?:\.\d{1,3}){3})(?::(\d{1,5}))?$/.exec(text);
  if (!m || !isAddressLiteral(m[1])) return undefined;
  const port = m[2] === undefined ? 53 : Number(m[2]);
  return port >= 1 && port <= 65535 ? { ipAddr: m[1], port } : undefined;
}
