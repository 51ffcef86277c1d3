/**
 * A browser's voice recording (WebM with Opus: Chromium's MediaRecorder) rewrapped as Ogg Opus,
 * the one voice-note format Meta's Cloud API takes (issue 45 item 4). The Opus packets are
 * copied as they are, only the container changes: nothing is decoded or re-encoded, so this is
 * cheap and loses nothing. Anything else (no Opus track, laced blocks, a damaged file) answers
 * undefined and the caller refuses the file in words (ERR_WHATSAPP_VOICE_FORMAT).
 *
 * WebM: Matroska's EBML elements (matroska.org/technical/elements.html); a recorder writes the
 * Segment and its Clusters with an "unknown" size, so masters are walked into, never skipped.
 * Ogg: RFC 3533 pages; Opus in Ogg: RFC 7845 (OpusHead, OpusTags, granule = 48 kHz samples).
 */

const SEGMENT = 0x18538067;
const CLUSTER = 0x1f43b675;
const TRACKS = 0x1654ae6b;
const TRACK_ENTRY = 0xae;
const BLOCK_GROUP = 0xa0;
const MASTERS = new Set([SEGMENT, CLUSTER, TRACKS, TRACK_ENTRY, BLOCK_GROUP]);
const TRACK_NUMBER = 0xd7;
const CODEC_ID = 0x86;
const CODEC_PRIVATE = 0x63a2;
const SIMPLE_BLOCK = 0xa3;
const BLOCK = 0xa1;

/** An EBML variable-length integer at `at`: its value and length (the marker bit removed). */
function vint(data: Uint8Array, at: number, keepMarker = false) {
  const first = data[at];
  if (first === undefined || first === 0) return undefined;
  const length = Math.clz32(first) - 23;
  if (at + length > data.length) return undefined;
  let value = keepMarker ? first : first & (0xff >> length);
  let unknown = value === (0xff >> length);
  for (let i = 1; i < length; i++) {
    value = value * 256 + data[at + i];
    if (data[at + i] !== 0xff) unknown = false;
  }
  return { value, length, unknown: !keepMarker && unknown };
}

type Track = { number: number; codec?: string; head?: Uint8Array };

/** The Opus track's header and its packets, in order; undefined when it is not that. */
function readWebm(data: Uint8Array): { head?: Uint8Array; packets: Uint8Array[] } | undefined {
  if (data[0] !== 0x1a || data[1] !== 0x45 || data[2] !== 0xdf || data[3] !== 0xa3) {
    return undefined;
  }
  const tracks: Track[] = [];
  let track: Track | undefined;
  const blocks: { track: number; frame: Uint8Array }[] = [];
  let at = 0;
  while (at < data.length) {
    const id = vint(data, at, true);
    if (!id) return undefined;
    const size = vint(data, at + id.length);
    if (!size) return undefined;
    const start = at + id.length + size.length;
    if (id.value === TRACK_ENTRY) tracks.push(track = { number: 0 });
    if (MASTERS.has(id.value)) {
      at = start; // walk into it: its children follow
      continue;
    }
    if (size.unknown) return undefined;
    const end = start + size.value;
    if (end > data.length) break; // a recording cut short: keep what is whole
    const body = data.subarray(start, end);
    if (track && id.value === TRACK_NUMBER) track.number = body.reduce((n, b) => n * 256 + b, 0);
    if (track && id.value === CODEC_ID) track.codec = new TextDecoder().decode(body);
    if (track && id.value === CODEC_PRIVATE) track.head = body.slice();
    if (id.value === SIMPLE_BLOCK || id.value === BLOCK) {
      const number = vint(body, 0);
      if (!number) return undefined;
      const flags = body[number.length + 2];
      if ((flags & 0x06) !== 0) return undefined; // laced frames: not what recorders write
      blocks.push({ track: number.value, frame: body.slice(number.length + 3) });
    }
    at = end;
  }
  const opus = tracks.find((t) => t.codec === "A_OPUS");
  if (!opus) return undefined;
  return {
    head: opus.head,
    packets: blocks.filter((b) => b.track === opus.number).map((b) => b.frame),
  };
}

/** How many 48 kHz samples an Opus packet holds (RFC 6716 section 3.1, the TOC byte). */
export function opusSamples(packet: Uint8Array): number {
  if (packet.length === 0) return 0;
  const config = packet[0] >> 3;
  // Frame length in 1/10 ms per configuration: SILK, hybrid, then CELT.
  const tenths = config < 12
    ? [100, 200, 400, 600][config % 4]
    : config < 16
    ? [100, 200][config % 2]
    : [25, 50, 100, 200][config % 4];
  const code = packet[0] & 3;
  const frames = code === 0 ? 1 : code === 3 ? (packet[1] ?? 0) & 0x3f : 2;
  return frames * tenths * 4.8;
}

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let i = 0; i < 256; i++) {
    let r = i << 24;
    for (let j = 0; j < 8; j++) r = r & 0x80000000 ? (r << 1) ^ 0x04c11db7 : r << 1;
    table[i] = r >>> 0;
  }
  return table;
})();

/** Ogg's CRC-32 (polynomial 0x04c11db7, not reflected, starting at 0). */
export function oggCrc(bytes: Uint8Array): number {
  let crc = 0;
  for (const b of bytes) crc = ((crc << 8) ^ CRC_TABLE[((crc >>> 24) ^ b) & 0xff]) >>> 0;
  return crc;
}

/** One Ogg page holding one packet (an Opus packet is far below a page's 65,025 bytes). */
function page(packet: Uint8Array, flags: number, granule: bigint, serial: number, seq: number) {
  const lacing = [...Array(Math.floor(packet.length / 255)).fill(255), packet.length % 255];
  const out = new Uint8Array(27 + lacing.length + packet.length);
  const view = new DataView(out.buffer);
  out.set([0x4f, 0x67, 0x67, 0x53, 0, flags]);
  view.setBigInt64(6, granule, true);
  view.setUint32(14, serial, true);
  view.setUint32(18, seq, true);
  out[26] = lacing.length;
  out.set(lacing, 27);
  out.set(packet, 27 + lacing.length);
  view.setUint32(22, oggCrc(out), true);
  return out;
}

/** Opus's identification header when the WebM carried none: mono, 48 kHz, the usual pre-skip. */
function defaultHead(): Uint8Array {
  const head = new Uint8Array(19);
  head.set(new TextEncoder().encode("OpusHead"));
  const view = new DataView(head.buffer);
  head[8] = 1;
  head[9] = 1;
  view.setUint16(10, 312, true);
  view.setUint32(12, 48_000, true);
  return head;
}

/** The WebM/Opus recording as Ogg Opus, or undefined when it is not one this can rewrap. */
export function webmOpusToOgg(webm: Uint8Array): Uint8Array | undefined {
  const read = readWebm(webm);
  if (!read || read.packets.length === 0) return undefined;
  const head = read.head && new TextDecoder().decode(read.head.subarray(0, 8)) === "OpusHead"
    ? read.head
    : defaultHead();
  const vendor = new TextEncoder().encode("Balcão");
  const tags = new Uint8Array(8 + 4 + vendor.length + 4);
  tags.set(new TextEncoder().encode("OpusTags"));
  new DataView(tags.buffer).setUint32(8, vendor.length, true);
  tags.set(vendor, 12);
  const serial = crypto.getRandomValues(new Uint32Array(1))[0];
  const pages = [page(head, 0x02, 0n, serial, 0), page(tags, 0, 0n, serial, 1)];
  let granule = 0n;
  read.packets.forEach((packet, i) => {
    granule += BigInt(opusSamples(packet));
    const last = i === read.packets.length - 1;
    pages.push(page(packet, last ? 0x04 : 0, granule, serial, i + 2));
  });
  const out = new Uint8Array(pages.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of pages) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
