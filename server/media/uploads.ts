import { getMimeType } from "hono/utils/mime";
import { isInlineType, servedType } from "../../contract/media_types.ts";
import type { AppDeps } from "../context.ts";
import { AppError, notFound } from "../errors.ts";
import { deleteMedia, openMedia, saveMedia, type StoredMedia } from "./store.ts";

/**
 * Files an admin attaches to queues and queue options (seeds/001 section 7 media-upload). They
 * go through the media store (server/media/store.ts), so rows hold the same kind of key as
 * messages ("<companyId>/<uuid>.<ext>") and the inbound pipeline can send them as it sends any
 * stored media.
 */

/** The multipart field `file` of a parsed body; 400 when it is missing. */
export function fileField(body: Record<string, unknown>, field = "file"): File {
  const value = body[field];
  const file = Array.isArray(value) ? value[0] : value;
  if (!(file instanceof File)) {
    throw new AppError(400, "ERR_VALIDATION", `Envie um arquivo no campo "${field}"`, {
      fields: { [field]: ["Required"] },
    });
  }
  return file;
}

/** Stores an uploaded file for the company; empty files are refused. */
export async function storeUpload(
  deps: AppDeps,
  companyId: number,
  file: File,
): Promise<StoredMedia> {
  if (file.size === 0) throw new AppError(400, "ERR_INVALID_MEDIA", "Arquivo vazio");
  if (file.size > deps.config.mediaMaxBytes) {
    throw new AppError(413, "ERR_MEDIA_TOO_LARGE", "Arquivo maior que o limite permitido");
  }
  const bytes = new Uint8Array(await file.arrayBuffer());
  return await saveMedia(deps.config, companyId, bytes, {
    mimetype: file.type || getMimeType(file.name),
    filename: file.name,
  });
}

/** Removes a stored upload if there is one (a file already gone is fine). */
export async function removeUpload(deps: AppDeps, companyId: number, path: string | null) {
  if (path) await deleteMedia(deps.config, companyId, path);
}

/**
 * A stored file as an answer, the one way files leave the server: images (png, jpeg, gif, webp),
 * audio and video the page plays are inline with their type; anything else (an SVG, HTML, a type
 * stored before issue 35) is `application/octet-stream` as an attachment. Never sniffed, and
 * sandboxed should a browser render it anyway.
 */
export function fileResponse(
  opened: { file: Deno.FsFile; size: number },
  mimetype: string | null | undefined,
  name: string,
): Response {
  const disposition = mimetype && isInlineType(mimetype) ? "inline" : "attachment";
  return new Response(opened.file.readable, {
    headers: {
      "content-type": servedType(mimetype),
      "content-length": String(opened.size),
      "content-disposition": `${disposition}; filename*=UTF-8''${encodeURIComponent(name)}`,
      "x-content-type-options": "nosniff",
      "content-security-policy": "default-src 'none'; sandbox",
      "cache-control": "private, max-age=3600",
    },
  });
}

/** Answers a stored upload, typed by its display name; 404 ERR_NO_MEDIA_FOUND when it is gone. */
export async function uploadResponse(
  deps: AppDeps,
  companyId: number,
  path: string,
  name: string,
): Promise<Response> {
  const opened = await openMedia(deps.config, companyId, path);
  if (!opened) throw notFound("ERR_NO_MEDIA_FOUND", "Mídia não encontrada");
  return fileResponse(opened, getMimeType(name), name);
}
