/**
 * IP address literals as 16 bytes (IPv4 as its IPv4-mapped IPv6 form, ::ffff:a.b.c.d), so that one
 * comparison serves both families, and address ranges (CIDR) over them.
 */

function ipv4Bytes(text: string): number[] | undefined {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text);
  if (!m) return undefined;
  const parts = m.slice(1).map(Number);
  return parts.every((p) => p <= 255) ? parts : undefined;
}

function ipv6Bytes(text: string): number[] | undefined {
  let head = text;
  let tail: number[] = [];
  // An IPv4 tail (::ffff:1.2.3.4) is the last two groups.
  const dotted = /^(.*:)(\d+\.\d+\.\d+\.\d+)$/.exec(head);
  if (dotted) {
    const v4 = ipv4Bytes(dotted[2]);
    if (!v4) return undefined;
    tail = v4;
    head = dotted[1].endsWith("::") ? dotted[1] : dotted[1].slice(0, -1);
  }
  const halves = head.split("::");
  if (halves.length > 2) return undefined;
  const groups = (part: string) => (part === "" ? [] : part.split(":"));
  const left = groups(halves[0]);
  const right = halves.length === 2 ? groups(halves[1]) : [];
  const words = 8 - tail.length / 2;
  const missing = words - left.length - right.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return undefined;
  const bytes: number[] = [];
  for (const group of [...left, ...Array(missing).fill("0"), ...right]) {
    if (!/^[0-9a-f]{1,4}$/i.test(group)) return undefined;
    const value = parseInt(group, 16);
    bytes.push(value >> 8, value & 0xff);
  }
  return [...bytes, ...tail];
}

/** The 16 bytes of an address literal (brackets and a zone allowed), or undefined. */
export function parseIp(text: string): Uint8Array | undefined {
  const host = text.trim().replace(/^\[(.*)\]$/, "$1").replace(/%.*$/, "");
  const v4 = ipv4Bytes(host);
  if (v4) return new Uint8Array([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, ...v4]);
  if (!host.includes(":")) return undefined;
  const v6 = ipv6Bytes(host);
  return v6 ? new Uint8Array(v6) : undefined;
}

/** An address range: `10.0.0.0/8`, `fd00::/8`, or one address. */
export type IpRange = { bytes: Uint8Array; prefix: number };

export function parseIpRange(text: string): IpRange | undefined {
  const [address, bits, extra] = text.trim().split("/");
  if (extra !== undefined) return undefined;
  const bytes = parseIp(address);
  if (!bytes) return undefined;
  const isV4 = ipv4Bytes(address.trim()) !== undefined;
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
