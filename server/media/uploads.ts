import { getMimeType } from "hono/utils/mime";
import { join } from "node:path";
import { AppError } from "../errors.ts";

/**
 * Files uploaded for a company (queue and queue-option media): DATA_DIR/media/<companyId>/ with
 * a random name, so that a name never collides or escapes the folder, and the original name kept
 * in the database for display. Paths stored in rows are relative to DATA_DIR.
 */
export type StoredUpload = { path: string; name: string; size: number };

function safeExtension(name: string): string {
  const match = /\.([A-Za-z0-9]{1,10})$/.exec(name);
  return match ? `.${match[1].toLowerCase()}` : "";
}

/** The original name as shown to people: no folders, no control characters, at most 200 chars. */
export function displayName(name: string): string {
  // deno-lint-ignore no-control-regex
  const base = name.split(/[\\/]/).pop()?.replace(/[\u0000-\u001f\u007f]/g, "").trim() ?? "";
  return (base || "file").slice(-200);
}

export async function saveUpload(
  dataDir: string,
  companyId: number,
  file: File,
  maxBytes: number,
): Promise<StoredUpload> {
  if (file.size === 0) throw new AppError(400, "ERR_INVALID_MEDIA", "Arquivo vazio");
  if (file.size > maxBytes) throw new AppError(413, "ERR_MEDIA_TOO_LARGE", "Arquivo muito grande");
  const relative = join("media", String(companyId), crypto.randomUUID() + safeExtension(file.name));
  await Deno.mkdir(join(dataDir, "media", String(companyId)), { recursive: true });
  await Deno.writeFile(join(dataDir, relative), file.stream());
  return { path: relative, name: displayName(file.name), size: file.size };
}

/** The absolute path of a stored upload, refusing anything outside the company's folder. */
export function uploadPath(dataDir: string, companyId: number, relative: string): string {
  const prefix = join("media", String(companyId)) + "/";
  if (!relative.startsWith(prefix) || relative.includes("..")) {
    throw new AppError(404, "ERR_NO_MEDIA_FOUND", "Media not found");
  }
  return join(dataDir, relative);
}

/** Removes a stored upload; a file already gone is fine (the row is what matters). */
export async function removeUpload(dataDir: string, companyId: number, relative: string | null) {
  if (!relative) return;
  try {
    await Deno.remove(uploadPath(dataDir, companyId, relative));
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
}

/** Reads the multipart field `file` of a request body; 400 when it is missing. */
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

/** Answers a stored file, typed by its display name's extension; 404 if it is gone from disk. */
export async function fileResponse(path: string, name: string): Promise<Response> {
  let file: Deno.FsFile;
  try {
    file = await Deno.open(path, { read: true });
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) {
      throw new AppError(404, "ERR_NO_MEDIA_FOUND", "Media not found");
    }
    throw error;
  }
  const { size } = await file.stat();
  return new Response(file.readable, {
    headers: {
      "content-type": getMimeType(name) ?? "application/octet-stream",
      "content-length": String(size),
      "content-disposition": `inline; filename*=UTF-8''${encodeURIComponent(name)}`,
      "x-content-type-options": "nosniff",
      // An uploaded SVG or HTML opened directly must not run scripts on our origin.
      "content-security-policy": "default-src 'none'; img-src 'self'; media-src 'self'; sandbox",
    },
  });
}
