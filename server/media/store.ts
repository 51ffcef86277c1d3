import { isImageType, OCTET_STREAM } from "../../contract/media_types.ts";
import type { Config } from "../config.ts";
import { AppError } from "../errors.ts";

/**
 * Media files under DATA_DIR/media/<companyId>/<random name>. The stored key ("<companyId>/<uuid>.<ext>")
 * goes in messages.mediaUrl; files are served only through an authorised, company-checked route
 * (GET /api/messages/:id/media), never by path.
 */
export type MediaConfig = Pick<Config, "mediaDir" | "mediaMaxBytes">;

export type StoredMedia = { path: string; size: number; mimetype: string; filename: string };

/**
 * seeds/000 section 3 media types of a file; anything unknown is an `application`, and so is an
 * image other than png, jpeg, gif or webp (an SVG is a document: contract/media_types.ts).
 */
export function mediaTypeOf(mimetype: string): "image" | "audio" | "video" | "application" {
  const top = mimetype.split("/")[0]?.toLowerCase();
  if (top === "image") return isImageType(mimetype) ? "image" : "application";
  if (top === "audio" || top === "video") return top;
  return "application";
}

const EXTENSIONS: Record<string, string> = {
  "image/jpeg": "jpg",
  "image/png": "png",
  "image/gif": "gif",
  "image/webp": "webp",
  "audio/ogg": "ogg",
  "audio/mpeg": "mp3",
  "audio/mp4": "m4a",
  "audio/webm": "webm",
  "video/mp4": "mp4",
  "video/3gpp": "3gp",
  "video/webm": "webm",
  "application/pdf": "pdf",
  "text/plain": "txt",
};

const MIME_PATTERN = /^[a-z0-9][a-z0-9.+-]*\/[a-z0-9][a-z0-9.+-]*$/;

// Types a browser runs as a document (script on our origin if it were ever shown as one).
const ACTIVE =
  /^(text\/(html|xml|javascript|ecmascript|xsl)|application\/(xml|xhtml\+xml|javascript|ecmascript|x-javascript)|multipart\/|message\/)|\+xml$/;

/**
 * A MIME type we can store and trust in a header: lower-case, parameters dropped; whatever a
 * sender claims, an image other than png/jpeg/gif/webp (SVG) or a type a browser would run as a
 * document (HTML, XML, JavaScript) is stored as application/octet-stream, a download.
 */
export function cleanMimetype(mimetype: string | undefined): string {
  const base = (mimetype ?? "").split(";")[0].trim().toLowerCase();
  if (!MIME_PATTERN.test(base)) return OCTET_STREAM;
  if (base.startsWith("image/") && !isImageType(base)) return OCTET_STREAM;
  return ACTIVE.test(base) ? OCTET_STREAM : base;
}

const SIGNATURES: [number[], string][] = [
  [[0xff, 0xd8, 0xff], "image/jpeg"],
  [[0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], "image/png"],
  [[0x47, 0x49, 0x46, 0x38], "image/gif"],
  [[0x25, 0x50, 0x44, 0x46], "application/pdf"],
  [[0x4f, 0x67, 0x67, 0x53], "audio/ogg"],
  [[0x49, 0x44, 0x33], "audio/mpeg"],
  [[0x50, 0x4b, 0x03, 0x04], "application/zip"],
];

/**
 * The type a file's first bytes say it is, whatever its name or a sender claims (imported files,
 * announcement images); application/octet-stream when they say nothing known.
 */
export function typeFromContent(data: Uint8Array): string {
  const starts = (bytes: number[]) => bytes.every((b, i) => data[i] === b);
  for (const [bytes, type] of SIGNATURES) if (starts(bytes)) return type;
  const ascii = (at: number, text: string) =>
    [...text].every((ch, i) => data[at + i] === ch.charCodeAt(0));
  if (ascii(0, "RIFF") && ascii(8, "WEBP")) return "image/webp";
  if (ascii(4, "ftyp")) return "video/mp4";
  return OCTET_STREAM;
}

function extensionOf(mimetype: string, filename: string): string {
  const known = EXTENSIONS[mimetype];
  if (known) return known;
  const fromName = /\.([A-Za-z0-9]{1,8})$/.exec(filename)?.[1];
  return fromName ? fromName.toLowerCase() : "bin";
}

/** A display name without path parts or control characters. */
export function cleanFilename(filename: string | undefined, fallback = "file"): string {
  // deno-lint-ignore no-control-regex
  const base = (filename ?? "").split(/[\\/]/).pop()?.replace(/[\u0000-\u001f\u007f]/g, "")
    .trim();
  return (base && base.length > 0 ? base : fallback).slice(0, 200);
}

export function companyDir(config: MediaConfig, companyId: number): string {
  return `${config.mediaDir}/${companyId}`;
}

/**
 * Removes every stored file of a company (it was deleted): the sweep that follows the database
 * transaction. A missing folder is fine; anything else is the caller's to log.
 */
export async function removeCompanyMedia(config: MediaConfig, companyId: number) {
  try {
    await Deno.remove(companyDir(config, companyId), { recursive: true });
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
}

/** The file of a stored key, only if the key belongs to the company and has no path tricks. */
function fileOf(config: MediaConfig, companyId: number, path: string): string | undefined {
  const match = /^(\d+)\/([A-Za-z0-9-]+\.[a-z0-9]{1,8})$/.exec(path);
  if (!match || Number(match[1]) !== companyId) return undefined;
  return `${companyDir(config, companyId)}/${match[2]}`;
}

/** Saves bytes under a random name; refuses more than MEDIA_MAX_BYTES (413 ERR_MEDIA_TOO_LARGE). */
export async function saveMedia(
  config: MediaConfig,
  companyId: number,
  data: Uint8Array,
  meta: { mimetype?: string; filename?: string },
): Promise<StoredMedia> {
  if (data.byteLength > config.mediaMaxBytes) {
    throw new AppError(413, "ERR_MEDIA_TOO_LARGE", "Arquivo maior que o limite permitido");
  }
  const mimetype = cleanMimetype(meta.mimetype);
  const filename = cleanFilename(
    meta.filename,
    `${mediaTypeOf(mimetype)}.${extensionOf(mimetype, "")}`,
  );
  const name = `${crypto.randomUUID()}.${extensionOf(mimetype, filename)}`;
  // Owner-only (issue 35): contacts' photos and documents.
  await Deno.mkdir(companyDir(config, companyId), { recursive: true, mode: 0o700 });
  await writeInPlace(
    `${companyDir(config, companyId)}/${name}`,
    (temp) => Deno.writeFile(temp, data, { createNew: true, mode: 0o600 }),
  );
  return { path: `${companyId}/${name}`, size: data.byteLength, mimetype, filename };
}

/** Partial files are named so; the start-up sweep removes those left by a crash (issue 34). */
export const PARTIAL_PREFIX = ".partial-";

/**
 * Writes a file under a temporary name and renames it into place (issue 34): a stored key never
 * names half a file, and a write that fails (disk full, folder unwritable) removes its partial.
 */
async function writeInPlace(target: string, write: (temp: string) => Promise<void>) {
  const dir = target.slice(0, target.lastIndexOf("/"));
  const temp = `${dir}/${PARTIAL_PREFIX}${crypto.randomUUID()}`;
  try {
    await write(temp);
    await Deno.rename(temp, target);
  } catch (error) {
    await Deno.remove(temp).catch(() => {});
    throw error;
  }
}

/** The bytes of a stored key of this company; undefined when missing or not the company's. */
export async function readMedia(
  config: MediaConfig,
  companyId: number,
  path: string,
): Promise<Uint8Array | undefined> {
  const file = fileOf(config, companyId, path);
  if (!file) return undefined;
  try {
    return await Deno.readFile(file);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw error;
  }
}

/** An open file (for streaming a large download); the caller's response closes it. */
export async function openMedia(
  config: MediaConfig,
  companyId: number,
  path: string,
): Promise<{ file: Deno.FsFile; size: number } | undefined> {
  const target = fileOf(config, companyId, path);
  if (!target) return undefined;
  try {
    const file = await Deno.open(target, { read: true });
    const { size } = await file.stat();
    return { file, size };
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw error;
  }
}

/** Removes a stored file; a missing one is not an error. */
export async function deleteMedia(config: MediaConfig, companyId: number, path: string) {
  const file = fileOf(config, companyId, path);
  if (!file) return;
  await Deno.remove(file).catch((error) => {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  });
}

/** Whether a stored key exists and belongs to the company. */
export async function mediaExists(
  config: MediaConfig,
  companyId: number,
  path: string,
): Promise<boolean> {
  const file = fileOf(config, companyId, path);
  if (!file) return false;
  try {
    return (await Deno.stat(file)).isFile;
  } catch {
    return false;
  }
}

/**
 * A second key for the bytes of a stored file of this company (a hard link, or a copy where the
 * file system has no links); undefined when the source is missing or not the company's. Messages
 * that send an admin's file (a queue's or option's media) own such a key, so replacing or
 * removing the admin's file later never breaks a message still in the outbox or in the history.
 */
export async function linkMedia(
  config: MediaConfig,
  companyId: number,
  path: string,
): Promise<string | undefined> {
  const source = fileOf(config, companyId, path);
  if (!source) return undefined;
  const extension = path.slice(path.lastIndexOf(".") + 1);
  const name = `${crypto.randomUUID()}.${extension}`;
  const target = `${companyDir(config, companyId)}/${name}`;
  try {
    await Deno.link(source, target);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    try {
      await writeInPlace(target, async (temp) => {
        await Deno.copyFile(source, temp);
        await Deno.chmod(temp, 0o600);
      });
    } catch (copyError) {
      if (copyError instanceof Deno.errors.NotFound) return undefined;
      throw copyError;
    }
  }
  return `${companyId}/${name}`;
}
