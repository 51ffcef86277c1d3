import { getMimeType } from "hono/utils/mime";
import { AppError } from "../errors.ts";
import { cleanMimetype } from "../media/store.ts";
import { OCTET_STREAM } from "../../contract/media_types.ts";

/**
 * Which files an attendant may send (the message input's attachments and recorded audio).
 * An allow-list rather than a deny-list: pictures, audio, video, PDFs, office documents,
 * archives and plain text. Anything else (executables, HTML, SVG, unknown octet-streams) is
 * refused with 400 ERR_INVALID_MEDIA; more than MEDIA_MAX_BYTES is 413 ERR_MEDIA_TOO_LARGE.
 */
const ALLOWED = [
  /^image\/(jpeg|png|gif|webp)$/,
  /^audio\/(ogg|mpeg|mp3|mp4|aac|amr|webm|wav|x-wav|opus|x-m4a)$/,
  /^video\/(mp4|3gpp|webm|quicktime)$/,
  /^application\/(pdf|zip|x-zip-compressed|vnd\.rar|x-rar-compressed|x-7z-compressed|msword|rtf)$/,
  /^application\/(vnd\.ms-excel|vnd\.ms-powerpoint|vnd\.openxmlformats-officedocument\.[a-z.]+)$/,
  /^application\/vnd\.oasis\.opendocument\.[a-z.]+$/,
  /^text\/(plain|csv)$/,
];

export function isAllowedAttachment(mimetype: string): boolean {
  return ALLOWED.some((pattern) => pattern.test(mimetype));
}

/**
 * The file's type (declared, else from its name: a browser that does not know a type, or a blob
 * the page typed as a download (contract/media_types.ts), sends octet-stream), checked; throws
 * the clear codes above.
 */
export function checkAttachment(file: File, maxBytes: number): string {
  // Only "no type" goes by the name: a declared SVG named x.png stays an SVG, and is refused.
  const declared = file.type.split(";")[0].trim().toLowerCase();
  const mimetype = cleanMimetype(
    declared === "" || declared === OCTET_STREAM ? getMimeType(file.name) : declared,
  );
  if (file.size === 0) throw new AppError(400, "ERR_INVALID_MEDIA", "Arquivo vazio");
  if (!isAllowedAttachment(mimetype)) {
    throw new AppError(400, "ERR_INVALID_MEDIA", `Tipo de arquivo não permitido: ${mimetype}`);
  }
  if (file.size > maxBytes) {
    throw new AppError(413, "ERR_MEDIA_TOO_LARGE", "Arquivo maior que o limite permitido");
  }
  return mimetype;
}
