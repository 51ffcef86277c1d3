/**
 * Large or hostile XLSX files for the import tests, written directly as zip archives (exceljs
 * would take minutes and gigabytes to write a million rows, which is the point of the tests):
 * parts are deflated as a stream, so a part of hundreds of megabytes is never held whole.
 */

const TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

function crc32(crc: number, data: Uint8Array): number {
  let c = crc ^ 0xffffffff;
  for (const byte of data) c = TABLE[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

type Part = {
  name: string;
  /** The part's text, in pieces (a generator of a million rows, say). */
  chunks: Iterable<string>;
  /** A size to declare instead of the real one: an archive that lies about what it unpacks to. */
  declaredSize?: number;
};

async function deflated(part: Part) {
  const encoder = new TextEncoder();
  const stream = new CompressionStream("deflate-raw");
  const writer = stream.writable.getWriter();
  let crc = 0;
  let size = 0;
  const written = (async () => {
    for (const chunk of part.chunks) {
      const bytes = encoder.encode(chunk);
      // The CRC of a lying part is left 0: nothing on the reading side checks it.
      if (part.declaredSize === undefined) crc = crc32(crc, bytes);
      size += bytes.byteLength;
      await writer.write(bytes);
    }
    await writer.close();
  })();
  const data = new Uint8Array(await new Response(stream.readable).arrayBuffer());
  await written;
  return { name: encoder.encode(part.name), data, crc, size: part.declaredSize ?? size };
}

async function zipOf(parts: Part[]): Promise<Uint8Array> {
  const entries = await Promise.all(parts.map(deflated));
  const local = entries.reduce((n, e) => n + 30 + e.name.length + e.data.length, 0);
  const central = entries.reduce((n, e) => n + 46 + e.name.length, 0);
  const out = new Uint8Array(local + central + 22);
  const view = new DataView(out.buffer);
  const header = (at: number, e: (typeof entries)[number]) => {
    view.setUint16(at, 20, true);
    view.setUint16(at + 4, 8, true); // deflate
    view.setUint32(at + 10, e.crc, true);
    view.setUint32(at + 14, e.data.length, true);
    view.setUint32(at + 18, e.size, true);
    view.setUint16(at + 22, e.name.length, true);
  };
  let at = 0;
  const offsets = entries.map((e) => {
    const offset = at;
    view.setUint32(at, 0x04034b50, true);
    header(at + 4, e);
    out.set(e.name, at + 30);
    out.set(e.data, at + 30 + e.name.length);
    at += 30 + e.name.length + e.data.length;
    return offset;
  });
  const start = at;
  entries.forEach((e, i) => {
    view.setUint32(at, 0x02014b50, true);
    view.setUint16(at + 4, 20, true);
    header(at + 6, e);
    view.setUint32(at + 42, offsets[i], true);
    out.set(e.name, at + 46);
    at += 46 + e.name.length;
  });
  view.setUint32(at, 0x06054b50, true);
  view.setUint16(at + 8, entries.length, true);
  view.setUint16(at + 10, entries.length, true);
  view.setUint32(at + 12, at - start, true);
  view.setUint32(at + 16, start, true);
  return out;
}

const MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main";
const RELS = "http://schemas.openxmlformats.org/package/2006/relationships";
const DOC = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";

/** A workbook of one sheet whose XML is `sheetData` (row elements) and, maybe, shared strings. */
export function workbook(
  sheetData: Iterable<string>,
  options: { sharedStrings?: Part["chunks"]; declaredSize?: number } = {},
): Promise<Uint8Array> {
  const parts: Part[] = [
    {
      name: "[Content_Types].xml",
      chunks: [
        `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
        `<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>` +
        `<Default Extension="xml" ContentType="application/xml"/></Types>`,
      ],
    },
    {
      name: "_rels/.rels",
      chunks: [
        `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="${RELS}">` +
        `<Relationship Id="rId1" Type="${DOC}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
      ],
    },
    {
      name: "xl/_rels/workbook.xml.rels",
      chunks: [
        `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="${RELS}">` +
        `<Relationship Id="rId1" Type="${DOC}/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`,
      ],
    },
    {
      name: "xl/workbook.xml",
      chunks: [
        `<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="${MAIN}" xmlns:r="${DOC}">` +
        `<sheets><sheet name="contatos" sheetId="1" r:id="rId1"/></sheets></workbook>`,
      ],
    },
    {
      name: "xl/worksheets/sheet1.xml",
      chunks: (function* () {
        yield `<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="${MAIN}"><sheetData>`;
        yield* sheetData;
        yield `</sheetData></worksheet>`;
      })(),
      declaredSize: options.declaredSize,
    },
  ];
  if (options.sharedStrings) {
    parts.push({
      name: "xl/sharedStrings.xml",
      chunks: options.sharedStrings,
      declaredSize: options.declaredSize,
    });
  }
  return zipOf(parts);
}

/** `count` contact rows under a name/number header, 10,000 rows to a chunk. */
export function* contactRows(count: number): Generator<string> {
  yield `<row r="1"><c r="A1" t="inlineStr"><is><t>name</t></is></c>` +
    `<c r="B1" t="inlineStr"><is><t>number</t></is></c></row>`;
  for (let start = 2; start <= count + 1; start += 10_000) {
    let chunk = "";
    for (let r = start; r < Math.min(start + 10_000, count + 2); r++) {
      chunk += `<row r="${r}"><c r="A${r}" t="inlineStr"><is><t>Cliente ${r}</t></is></c>` +
        `<c r="B${r}"><v>55119${String(r).padStart(8, "0")}</v></c></row>`;
    }
    yield chunk;
  }
}

/** `count` rows of one number each: the cheapest million-row sheet to write (6 MB). */
export function* numberRows(count: number): Generator<string> {
  yield `<row r="1"><c r="A1" t="inlineStr"><is><t>number</t></is></c></row>`;
  for (let start = 2; start <= count + 1; start += 10_000) {
    let chunk = "";
    for (let r = start; r < Math.min(start + 10_000, count + 2); r++) {
      chunk += `<row r="${r}"><c r="A${r}"><v>${r}</v></c></row>`;
    }
    yield chunk;
  }
}
