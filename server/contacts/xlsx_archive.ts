import { AppError } from "../errors.ts";

/**
 * An XLSX file is a zip archive. Before exceljs reads one (issue 35: an 8 MB file of a million
 * rows took 2 GB and 17 s), its central directory is read here and the archive rebuilt with only
 * what the import reads, in the order exceljs' streaming reader needs to stream the sheet instead
 * of unpacking it to a temporary file: the workbook's relationships, the workbook, the shared
 * strings (an empty table when the file has none), and the first worksheet. Those entries must
 * unpack to at most `maxUncompressed` bytes in all: the sizes the directory declares are checked
 * first, then the entries are inflated (and thrown away) to count what they really hold, so that
 * an archive that lies about its sizes is refused as quickly (a zip bomb). What passes still meets
 * the reader's row limit and the worker's memory limit (read_sheet.ts).
 */

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;

type Entry = {
  name: string;
  versionNeeded: number;
  flags: number;
  method: number;
  time: number;
  date: number;
  crc: number;
  compressedSize: number;
  size: number;
  data: Uint8Array;
};

/** XLSX files are zip archives ("PK\x03\x04"). */
export function isZip(bytes: Uint8Array): boolean {
  return bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04;
}

function invalid(): AppError {
  return new AppError(400, "ERR_VALIDATION", "Planilha XLSX inválida");
}

export function importTooLarge(message: string): AppError {
  return new AppError(413, "ERR_IMPORT_TOO_LARGE", message);
}

function endOfDirectory(view: DataView): number {
  // The record is 22 bytes plus a comment of up to 65,535.
  const last = view.byteLength - 22;
  for (let at = last; at >= 0 && at >= last - 0xffff; at--) {
    if (view.getUint32(at, true) === EOCD) return at;
  }
  throw invalid();
}

/** Every entry of the central directory, its data located through its local header. */
function entriesOf(bytes: Uint8Array): Entry[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.byteLength < 22) throw invalid();
  const end = endOfDirectory(view);
  const count = view.getUint16(end + 10, true);
  let at = view.getUint32(end + 16, true);
  // ZIP64 markers: no spreadsheet that fits the upload limit needs them.
  if (count === 0xffff || at === 0xffffffff) throw invalid();
  const entries: Entry[] = [];
  for (let i = 0; i < count; i++) {
    if (at + 46 > bytes.byteLength || view.getUint32(at, true) !== CENTRAL) throw invalid();
    const nameLength = view.getUint16(at + 28, true);
    const skip = nameLength + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
    const local = view.getUint32(at + 42, true);
    const compressedSize = view.getUint32(at + 20, true);
    if (local + 30 > bytes.byteLength || view.getUint32(local, true) !== LOCAL) throw invalid();
    const start = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true);
    if (start + compressedSize > bytes.byteLength) throw invalid();
    entries.push({
      name: new TextDecoder().decode(bytes.subarray(at + 46, at + 46 + nameLength)),
      versionNeeded: view.getUint16(at + 6, true),
      flags: view.getUint16(at + 8, true),
      method: view.getUint16(at + 10, true),
      time: view.getUint16(at + 12, true),
      date: view.getUint16(at + 14, true),
      crc: view.getUint32(at + 16, true),
      compressedSize,
      size: view.getUint32(at + 24, true),
      data: bytes.subarray(start, start + compressedSize),
    });
    at += 46 + skip;
  }
  return entries;
}

const EMPTY_STRINGS = new TextEncoder().encode(
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' +
    '<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="0" uniqueCount="0"/>',
);

/** CRC-32 (zip's), for the one entry written here: the empty shared strings table. */
function crc32(data: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of data) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return (crc ^ 0xffffffff) >>> 0;
}

function stored(name: string, data: Uint8Array): Entry {
  return {
    name,
    versionNeeded: 10,
    flags: 0,
    method: 0,
    time: 0,
    date: 0x21,
    crc: crc32(data),
    compressedSize: data.byteLength,
    size: data.byteLength,
    data,
  };
}

/** A zip of `entries` in this order, sizes in the local headers (no data descriptors). */
function zipOf(entries: Entry[]): Uint8Array {
  const encoder = new TextEncoder();
  const names = entries.map((e) => encoder.encode(e.name));
  const localSize = entries.reduce((n, e, i) => n + 30 + names[i].length + e.data.byteLength, 0);
  const centralSize = names.reduce((n, name) => n + 46 + name.length, 0);
  const out = new Uint8Array(localSize + centralSize + 22);
  const view = new DataView(out.buffer);
  const common = (at: number, e: Entry) => {
    view.setUint16(at, e.versionNeeded, true);
    view.setUint16(at + 2, e.flags & ~0x08, true);
    view.setUint16(at + 4, e.method, true);
    view.setUint16(at + 6, e.time, true);
    view.setUint16(at + 8, e.date, true);
    view.setUint32(at + 10, e.crc, true);
    view.setUint32(at + 14, e.compressedSize, true);
    view.setUint32(at + 18, e.size, true);
  };
  const offsets: number[] = [];
  let at = 0;
  entries.forEach((e, i) => {
    offsets.push(at);
    view.setUint32(at, LOCAL, true);
    common(at + 4, e);
    view.setUint16(at + 26, names[i].length, true);
    out.set(names[i], at + 30);
    out.set(e.data, at + 30 + names[i].length);
    at += 30 + names[i].length + e.data.byteLength;
  });
  const central = at;
  entries.forEach((e, i) => {
    view.setUint32(at, CENTRAL, true);
    view.setUint16(at + 4, 20, true);
    common(at + 6, e);
    view.setUint16(at + 28, names[i].length, true);
    view.setUint32(at + 42, offsets[i], true);
    out.set(names[i], at + 46);
    at += 46 + names[i].length;
  });
  view.setUint32(at, EOCD, true);
  view.setUint16(at + 8, entries.length, true);
  view.setUint16(at + 10, entries.length, true);
  view.setUint32(at + 12, at - central, true);
  view.setUint32(at + 16, central, true);
  return out;
}

function uncompressedTooLarge(bytes: number, max: number): AppError {
  return importTooLarge(
    `A planilha tem ${Math.ceil(bytes / 1024 / 1024)} MB descompactada; o limite é ` +
      `${Math.floor(max / 1024 / 1024)} MB`,
  );
}

/**
 * The compressed bytes in 4 KB pieces: deflate unpacks at most about 1,000 times its input, so no
 * piece of output is larger than 4 MB (one piece of a bomb's input would unpack whole).
 */
function slices(data: Uint8Array): ReadableStream<BufferSource> {
  let at = 0;
  return new ReadableStream({
    pull(controller) {
      if (at >= data.byteLength) return controller.close();
      controller.enqueue(data.slice(at, at += 4096) as BufferSource);
    },
  });
}

/** Inflates the entries, counting bytes; a refusal as soon as they pass `max`. */
async function assertUnpacksWithin(entries: Entry[], max: number) {
  let total = 0;
  for (const entry of entries) {
    if (entry.method === 0) {
      total += entry.data.byteLength;
      if (total > max) throw uncompressedTooLarge(total, max);
      continue;
    }
    const reader = slices(entry.data).pipeThrough(new DecompressionStream("deflate-raw"))
      .getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        total += value.byteLength;
        if (total > max) throw uncompressedTooLarge(total, max);
      }
    } catch (error) {
      if (error instanceof AppError) throw error;
      throw invalid();
    } finally {
      await reader.cancel().catch(() => {});
    }
  }
}

/**
 * The archive exceljs reads for an import (see above), or a refusal: 400 ERR_VALIDATION for what
 * is not a readable workbook, 413 ERR_IMPORT_TOO_LARGE past `maxUncompressed` bytes unpacked.
 */
export async function importableWorkbook(
  bytes: Uint8Array,
  maxUncompressed: number,
): Promise<Uint8Array> {
  const kept = keptEntries(bytes, maxUncompressed);
  await assertUnpacksWithin(kept, maxUncompressed);
  return zipOf(kept);
}

/**
 * The entries an import reads, their declared sizes checked: no inflating, so the server runs it
 * before it starts a reader (read_sheet.ts) to refuse the plainly oversized at once.
 */
export function keptEntries(bytes: Uint8Array, maxUncompressed: number): Entry[] {
  const entries = entriesOf(bytes);
  const named = new Map(entries.map((e) => [e.name, e]));
  const sheets = entries.map((e) => ({ e, n: /^xl\/worksheets\/sheet(\d+)\.xml$/.exec(e.name) }))
    .filter((s) => s.n).sort((a, b) => Number(a.n![1]) - Number(b.n![1]));
  const workbook = named.get("xl/workbook.xml");
  const rels = named.get("xl/_rels/workbook.xml.rels");
  if (!workbook || !rels || sheets.length === 0) throw invalid();
  const strings = named.get("xl/sharedStrings.xml") ??
    stored("xl/sharedStrings.xml", EMPTY_STRINGS);
  const kept = [rels, workbook, strings, sheets[0].e];
  // Encrypted entries (flag bit 0) and methods other than stored and deflate are not Excel's.
  if (kept.some((e) => (e.flags & 1) !== 0 || (e.method !== 0 && e.method !== 8))) throw invalid();
  const declared = kept.reduce((sum, e) => sum + e.size, 0);
  if (declared > maxUncompressed) throw uncompressedTooLarge(declared, maxUncompressed);
  return kept;
}
