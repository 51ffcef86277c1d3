/**
 * IP address literals, parsed in one place: the outbound URL guard reads their parts and groups
 * (outbound_url.ts); client addresses and TRUSTED_PROXIES (client_address.ts) read them as 16
 * bytes (IPv4 as its IPv4-mapped IPv6 form, ::ffff:a.b.c.d), so that one comparison serves both
 * families, and address ranges (CIDR) over them.
 */

/** The four parts of a dotted IPv4 literal, or undefined. */
export function ipv4Parts(host: string): number[] | undefined {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  if (!m) return undefined;
  const parts = m.slice(1).map(Number);
  return parts.every((p) => p <= 255) ? parts : undefined;
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

/** The 16 bytes of an address literal (brackets and a zone allowed), or undefined. */
export function parseIp(text: string): Uint8Array | undefined {
  const host = text.trim().replace(/^\[(.*)\]$/, "$1").replace(/%.*$/, "");
  const v4 = ipv4Parts(host);
  if (v4) return new Uint8Array([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, ...v4]);
  if (!host.includes(":")) return undefined;
  const v6 = ipv6Groups(host);
  return v6 ? new Uint8Array(v6.flatMap((g) => [g >> 8, g & 0xff])) : undefined;
}

/** An address range: `10.0.0.0/8`, `fd00::/8`, or one address. */
export type IpRange = { bytes: Uint8Array; prefix: number };

export function parseIpRange(text: string): IpRange | undefined {
  const [address, bits, extra] = text.trim().split("/");
  if (extra !== undefined) return undefined;
  const bytes = parseIp(address);
  if (!bytes) return undefined;
  const isV4 = ipv4Parts(address.trim()) !== undefined;
  const max = isV4 ? 32 : 128;
  if (bits !== undefined && !/^\d{1,3}$/.test(bits)) return undefined;
  const prefix = bits === undefined ? max : Number(bits);
  if (prefix > max) return undefined;
  return { bytes, prefix: isV4 ? prefix + 96 : prefix };
}

export function inRange(address: Uint8Array, range: IpRange): boolean {
  const whole = Math.floor(range.prefix / 8);
  for (let i = 0; i < whole; i++) if (address[i] !== range.bytes[i]) return false;
  const rest = range.prefix % 8;
  if (rest === 0) return true;
  const mask = (0xff << (8 - rest)) & 0xff;
  return (address[whole] & mask) === (range.bytes[whole] & mask);
}

/** The usual text of an address: dotted for IPv4 (mapped or not), hex groups for IPv6. */
export function formatIp(bytes: Uint8Array): string {
  const mapped = bytes.subarray(0, 10).every((b) => b === 0) && bytes[10] === 0xff &&
    bytes[11] === 0xff;
  if (mapped) return Array.from(bytes.subarray(12)).join(".");
  const groups: string[] = [];
  for (let i = 0; i < 16; i += 2) groups.push(((bytes[i] << 8) | bytes[i + 1]).toString(16));
  // RFC 5952: the longest run of two or more zero groups (the first of equals) becomes "::".
  let best = { at: -1, length: 1 };
  for (let i = 0; i < 8;) {
    let j = i;
    while (j < 8 && groups[j] === "0") j++;
    if (j - i > best.length) best = { at: i, length: j - i };
    i = j === i ? i + 1 : j;
  }
  if (best.at < 0) return groups.join(":");
  const left = groups.slice(0, best.at).join(":");
  const right = groups.slice(best.at + best.length).join(":");
  return `${left}::${right}`;
}
