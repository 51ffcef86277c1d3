import { AppError } from "../errors.ts";

/**
 * Server-side request forgery guard for URLs a user gives us (integration URLs, a service
 * account's token_uri, media links an outside bot answers). Only http(s); no credentials in the
 * URL; and, unless INTEGRATIONS_ALLOW_PRIVATE_URLS=true (self-hosted n8n on the same network,
 * tests' fake servers on 127.0.0.1), no loopback, private, link-local or otherwise internal
 * address, whether written literally or reached through a name (every address a name resolves
 * to is checked, at save time and again before each call).
 */
export function urlError(message: string): AppError {
  return new AppError(400, "ERR_INTEGRATION_URL", message);
}

function ipv4Parts(host: string): number[] | undefined {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  if (!m) return undefined;
  const parts = m.slice(1).map(Number);
  return parts.every((p) => p <= 255) ? parts : undefined;
}

function privateV4([a, b]: number[]): boolean {
  return a === 0 || a === 10 || a === 127 || (a === 169 && b === 254) ||
    (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) ||
    (a === 100 && b >= 64 && b <= 127) || (a === 198 && (b === 18 || b === 19)) || a >= 224;
}

/** True for an address literal that must not be called from the server. */
export function isPrivateAddress(address: string): boolean {
  const host = address.replace(/^\[|\]$/g, "").toLowerCase();
  const v4 = ipv4Parts(host);
  if (v4) return privateV4(v4);
  if (!host.includes(":")) return false;
  if (host === "::" || host === "::1") return true;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(host);
  if (mapped) return isPrivateAddress(mapped[1]);
  if (/^::ffff:[0-9a-f]{1,4}:[0-9a-f]{1,4}$/.test(host)) return true;
  const first = parseInt(host.split(":")[0] || "0", 16);
  return (first & 0xfe00) === 0xfc00 || (first & 0xffc0) === 0xfe80 || (first & 0xff00) === 0xff00;
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

async function addressesOf(hostname: string): Promise<string[]> {
  const found: string[] = [];
  for (const type of ["A", "AAAA"] as const) {
    try {
      found.push(...await Deno.resolveDns(hostname, type));
    } catch {
      // No record of this type.
    }
  }
  return found;
}

/**
 * The URL, checked: throws ERR_INTEGRATION_URL when it is malformed or reaches an internal
 * address (unless `allowPrivate`).
 */
export async function checkOutboundUrl(text: string, allowPrivate: boolean): Promise<URL> {
  const url = parseOutboundUrl(text);
  if (allowPrivate) return url;
  const host = url.hostname.replace(/^\[|\]$/g, "").toLowerCase();
  if (host === "localhost" || host.endsWith(".localhost") || host.endsWith(".internal")) {
    throw urlError("Endereços internos não são permitidos");
  }
  if (ipv4Parts(host) || host.includes(":")) {
    if (isPrivateAddress(host)) throw urlError("Endereços internos não são permitidos");
    return url;
  }
  const addresses = await addressesOf(host);
  if (addresses.length === 0) throw urlError("Endereço não encontrado");
  if (addresses.some(isPrivateAddress)) throw urlError("Endereços internos não são permitidos");
  return url;
}
