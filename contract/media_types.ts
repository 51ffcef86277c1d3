/**
 * Which media types a page may show (issue 35, finding 2), for the server (what is stored, what
 * is served inline) and the browser (the type of a blob it makes). Only png, jpeg, gif and webp
 * are images: an SVG is a document that runs script, so it, and every type outside these lists,
 * is a download (`application/octet-stream`). Audio and video are played by the page's players,
 * never rendered as a document.
 */
export const OCTET_STREAM = "application/octet-stream";

const IMAGES = new Set(["image/png", "image/jpeg", "image/gif", "image/webp"]);
const AUDIO = /^audio\/(ogg|mpeg|mp3|mp4|aac|amr|webm|wav|x-wav|opus|x-m4a)$/;
const VIDEO = /^video\/(mp4|3gpp|webm|quicktime)$/;

/** The type without parameters, lower case ("Image/PNG; x=1" → "image/png"). */
function baseOf(mimetype: string): string {
  return mimetype.split(";")[0].trim().toLowerCase();
}

export function isImageType(mimetype: string): boolean {
  return IMAGES.has(baseOf(mimetype));
}

/** An image, audio or video type the page shows in its own elements (inline). */
export function isInlineType(mimetype: string): boolean {
  const base = baseOf(mimetype);
  return IMAGES.has(base) || AUDIO.test(base) || VIDEO.test(base);
}

/** The type to serve or to give a blob: the inline type itself, anything else a download. */
export function servedType(mimetype: string | null | undefined): string {
  return mimetype && isInlineType(mimetype) ? baseOf(mimetype) : OCTET_STREAM;
}
