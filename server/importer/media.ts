import { type MediaConfig, saveMedia } from "../media/store.ts";

/**
 * A message's file from the source's media folder (its `public/`), stored with our rules
 * (issue 47): a random safe name in the company's folder, the type read from the file's first
 * bytes (the source's name and declared type are not trusted), the size limit of uploads. A file
 * that is not there is reported, never fatal.
 */
export type CopiedMedia = { path: string; mimetype: string; name: string };

const SIGNATURES: [number[], string, number?][] = [
  [[0xff, 0xd8, 0xff], "image/jpeg"],
  [[0x89, 0x50, 0x4e, 0x47], "image/png"],
  [[0x47, 0x49, 0x46, 0x38], "image/gif"],
  [[0x25, 0x50, 0x44, 0x46], "application/pdf"],
  [[0x4f, 0x67, 0x67, 0x53], "audio/ogg"],
  [[0x49, 0x44, 0x33], "audio/mpeg"],
  [[0x50, 0x4b, 0x03, 0x04], "application/zip"],
];

/** The type a file's content says it is; application/octet-stream when it says nothing known. */
export function typeFromContent(data: Uint8Array): string {
  const starts = (bytes: number[], at = 0) => bytes.every((b, i) => data[at + i] === b);
  for (const [bytes, type] of SIGNATURES) if (starts(bytes)) return type;
  const ascii = (at: number, text: string) =>
    [...text].every((ch, i) => data[at + i] === ch.charCodeAt(0));
  if (ascii(0, "RIFF") && ascii(8, "WEBP")) return "image/webp";
  if (ascii(4, "ftyp")) return "video/mp4";
  return "application/octet-stream";
}

/** The file's path inside `dir`, or null when the name would leave it. */
export function insideFolder(dir: string, name: string): string | null {
  const clean = name.replace(/^\/+/, "");
  if (clean === "" || clean.split("/").some((part) => part === ".." || part === "")) return null;
  return `${dir.replace(/\/+$/, "")}/${clean}`;
}

export async function copyMedia(
  config: MediaConfig,
  dir: string,
  companyId: number,
  mediaUrl: string,
  sourceCompanyId: unknown,
): Promise<CopiedMedia | "missing"> {
  // whaticket-community keeps files at public/<name>; the SaaS line at public/company<id>/<name>
  // in later versions: both are tried.
  const name = mediaUrl.replace(/^https?:\/\/[^/]+\/public\//, "");
  const candidates = [name];
  if (sourceCompanyId !== null && sourceCompanyId !== undefined) {
    candidates.push(`company${sourceCompanyId}/${name}`);
  }
  for (const candidate of candidates) {
    const path = insideFolder(dir, candidate);
    if (!path) continue;
    let data: Uint8Array;
    try {
      data = await Deno.readFile(path);
    } catch {
      continue;
    }
    const mimetype = typeFromContent(data);
    const base = candidate.split("/").at(-1)!.replace(/^\d{10,}-/, "");
    const stored = await saveMedia(config, companyId, data, { mimetype, filename: base });
    return { path: stored.path, mimetype: stored.mimetype, name: stored.filename };
  }
  return "missing";
}
