import dns from "node:dns";
import { http1Exchange } from "./http1.ts";
import {
  bareHost,
  INTERNAL,
  isAddressLiteral,
  isInternalName,
  isPrivateAddress,
  parseDnsServer,
  parseOutboundUrl,
  urlError,
} from "./outbound_url.ts";

/**
 * Every outbound call made on a user's behalf (integrations, their media links, a service
 * account's token_uri, outgoing webhooks) goes through one Outbound, so that the address that was
 * checked is the address that is connected to. Per hop: the name is resolved once (the
 * OUTBOUND_DNS_SERVER resolver, or the system's), every address it has is checked (unless
 * INTEGRATIONS_ALLOW_PRIVATE_URLS), and the TCP connection goes to one of those addresses; TLS
 * then runs over it with the URL's name as server name and for certificate checking. A name that
 * answers a public address to the check and 127.0.0.1 a moment later (DNS rebinding) is never
 * asked twice. Redirects are followed by hand, each hop checked the same way.
 */

/** Opens a TCP connection to an address that was already checked. Tests inject their own. */
export type Connector = (target: { hostname: string; port: number }) => Promise<Deno.TcpConn>;

/** The addresses of a name (empty when it has none). */
export type Resolver = (name: string, signal?: AbortSignal) => Promise<string[]>;

export type OutboundInit = {
  method?: string;
  headers?: HeadersInit;
  body?: string | Uint8Array | null;
  signal?: AbortSignal;
  /** Redirects followed (default 5); past that the 3xx answer is returned as it is. */
  maxRedirects?: number;
};

export type OutboundOptions = {
  allowPrivate: boolean;
  /** `ip:port` of the resolver (OUTBOUND_DNS_SERVER); unset, the system's. */
  dnsServer?: string;
  connect?: Connector;
  /** Extra trusted roots (tests' own CA). */
  caCerts?: string[];
};

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
// Credentials meant for the first origin do not follow a redirect elsewhere.
const ORIGIN_BOUND = ["authorization", "cookie", "proxy-authorization"];

function resolverFor(dnsServer: string | undefined): Resolver {
  if (dnsServer === undefined) {
    // getaddrinfo, as fetch would have used: /etc/hosts, search domains, container DNS.
    return async (name) => {
      try {
        return (await dns.promises.lookup(name, { all: true, verbatim: true })).map((a) =>
          a.address
        );
      } catch {
        return [];
      }
    };
  }
  const nameServer = parseDnsServer(dnsServer);
  if (!nameServer) throw new Error(`bad DNS server ${dnsServer}`);
  return async (name, signal) => {
    const found: string[] = [];
    for (const type of ["A", "AAAA"] as const) {
      try {
        found.push(...await Deno.resolveDns(name, type, { nameServer, signal }));
      } catch {
        // No record of this type.
      }
    }
    return found;
  };
}

const tcpConnect: Connector = (target) => Deno.connect({ ...target, transport: "tcp" });

/** Resolves with `promise`, or rejects with the signal's reason when it aborts first. */
function abortable<T>(promise: Promise<T>, signal?: AbortSignal): Promise<T> {
  if (!signal) return promise;
  signal.throwIfAborted();
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

export class Outbound {
  readonly allowPrivate: boolean;
  readonly #resolve: Resolver;
  readonly #connect: Connector;
  readonly #caCerts?: string[];

  constructor(options: OutboundOptions) {
    this.allowPrivate = options.allowPrivate;
    this.#resolve = resolverFor(options.dnsServer);
    this.#connect = options.connect ?? tcpConnect;
    this.#caCerts = options.caCerts;
  }

  /**
   * The checked addresses of a URL's host, IPv4 first; throws ERR_INTEGRATION_URL for an
   * internal one (any of them, so that which one is used does not matter) or none.
   */
  async addresses(url: URL, signal?: AbortSignal): Promise<string[]> {
    const host = bareHost(url.hostname);
    if (isAddressLiteral(host)) {
      if (!this.allowPrivate && isPrivateAddress(host)) throw urlError(INTERNAL);
      return [host];
    }
    if (isInternalName(host)) {
      if (!this.allowPrivate) throw urlError(INTERNAL);
      // RFC 6761: localhost is loopback, whatever a DNS server says; other names
      // (host.docker.internal) are resolved like any.
      if (/(^|\.)localhost\.?$/.test(host)) return ["127.0.0.1", "::1"];
    }
    const found = await abortable(this.#resolve(host, signal), signal);
    if (found.length === 0) throw urlError("Endereço não encontrado");
    if (!this.allowPrivate && found.some(isPrivateAddress)) throw urlError(INTERNAL);
    return [...found.filter((a) => !a.includes(":")), ...found.filter((a) => a.includes(":"))];
  }

  /** Checks a URL a user saves (form and addresses); the calls check again, each hop. */
  async check(text: string): Promise<URL> {
    const url = parseOutboundUrl(text);
    await this.addresses(url);
    return url;
  }

  async #open(url: URL, signal?: AbortSignal): Promise<Deno.Conn> {
    const addresses = await this.addresses(url, signal);
    const port = Number(url.port) || (url.protocol === "https:" ? 443 : 80);
    let last: unknown;
    for (const hostname of addresses) {
      try {
        const connecting = this.#connect({ hostname, port });
        const tcp = await abortable(connecting, signal).catch((error) => {
          // Given up on (timed out): a connection that still comes is closed, not leaked.
          connecting.then((late) => late.close(), () => {});
          throw error;
        });
        if (url.protocol === "http:") return tcp;
        // The name, not the address, is the TLS server name and what the certificate must name.
        const tls = await Deno.startTls(tcp, {
          hostname: bareHost(url.hostname),
          caCerts: this.#caCerts,
          alpnProtocols: ["http/1.1"],
        });
        // The handshake here, so that a certificate that does not name the host is this
        // address's failure (not a write's, later).
        await abortable(tls.handshake(), signal).catch((error) => {
          tls.close();
          throw error;
        });
        return tls;
      } catch (error) {
        if (signal?.aborted) throw signal.reason;
        last = error;
      }
    }
    throw last;
  }

  /** A request to a user's URL; resolves with the answer (a 3xx only past maxRedirects). */
  async fetch(text: string, init: OutboundInit = {}): Promise<Response> {
    let url = parseOutboundUrl(text);
    let method = (init.method ?? "GET").toUpperCase();
    const headers = new Headers(init.headers);
    let body = typeof init.body === "string" ? new TextEncoder().encode(init.body) : init.body ??
      null;
    const maxRedirects = init.maxRedirects ?? 5;
    for (let hop = 0;; hop++) {
      const conn = await this.#open(url, init.signal);
      const answer = await http1Exchange(conn, { method, url, headers, body }, init.signal);
      const location = answer.headers.get("location");
      if (!REDIRECTS.has(answer.status) || location === null || hop >= maxRedirects) {
        return answer;
      }
      await answer.body?.cancel();
      let next: URL;
      try {
        next = parseOutboundUrl(new URL(location, url).href);
      } catch {
        throw urlError("Redirecionamento para uma URL inválida");
      }
      // As fetch does: 303 becomes GET, and so do 301/302 after a POST; 307/308 keep both.
      if (answer.status === 303 && method !== "HEAD" || answer.status < 303 && method === "POST") {
        method = "GET";
        body = null;
        headers.delete("content-type");
      }
      if (next.origin !== url.origin) { for (const name of ORIGIN_BOUND) headers.delete(name); }
      url = next;
    }
  }
}

/** How a call reaches the network: an Outbound's fetch for a user's URL, or operatorFetch. */
export type Fetcher = (url: string, init: OutboundInit) => Promise<Response>;

/**
 * For endpoints the operator configured (TTS_URL, DIALOGFLOW_API_URL), not a user: the
 * platform's fetch (HTTP/2, its pool), redirects not followed.
 */
export const operatorFetch: Fetcher = (url, init) =>
  fetch(url, {
    method: init.method,
    headers: init.headers,
    body: init.body as BodyInit | null | undefined,
    signal: init.signal,
    redirect: "manual",
  });
