import type { Context } from "hono";
import { extname, normalize } from "node:path";
import { fileURLToPath } from "node:url";
import type { IslandAssets, Manifest } from "../../contract/manifest.ts";
import { AppError } from "../../server/errors.ts";

/** static/ next to the code, whatever the working directory. */
export const STATIC_DIR = fileURLToPath(new URL("../../static/", import.meta.url));
const MANIFEST_PATH = `${STATIC_DIR}build/manifest.json`;

let cached: { mtime: number; manifest: Manifest } | null = null;

/**
 * The island bundles (static/build/manifest.json, written by `deno task build`). Re-read when the
 * file changes, so `deno task dev`'s rebuilds are served without a restart.
 */
export function loadManifest(): Manifest {
  let mtime: number;
  try {
    mtime = Deno.statSync(MANIFEST_PATH).mtime?.getTime() ?? 0;
  } catch {
    throw new AppError(
      500,
      "ERR_INTERNAL",
      "The page bundles are not built: run `deno task build` (or `deno task start`).",
    );
  }
  if (!cached || cached.mtime !== mtime) {
    cached = { mtime, manifest: JSON.parse(Deno.readTextFileSync(MANIFEST_PATH)) as Manifest };
  }
  return cached.manifest;
}

export function islandAssets(name: string): IslandAssets {
  const assets = loadManifest().islands[name];
  if (!assets) {
    throw new AppError(
      500,
      "ERR_INTERNAL",
      `No bundle for island "${name}": is there an islands/${name}.tsx and was the build run?`,
    );
  }
  return assets;
}

const TYPES: Record<string, string> = {
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".map": "application/json",
  ".json": "application/json",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".webp": "image/webp",
  ".ico": "image/x-icon",
  ".woff2": "font/woff2",
  ".mp3": "audio/mpeg",
  ".txt": "text/plain; charset=utf-8",
};

async function fileOrNull(path: string): Promise<Deno.FileInfo | null> {
  try {
    const info = await Deno.stat(path);
    return info.isFile ? info : null;
  } catch {
    return null;
  }
}

/**
 * GET /static/*: files under static/. Built bundles have hashed names and are cached for a year;
 * their gzipped copies (written at build time) are sent to browsers that accept gzip.
 */
export async function serveStatic(c: Context): Promise<Response | null> {
  let relative: string;
  try {
    relative = decodeURIComponent(c.req.path.slice("/static/".length));
  } catch {
    // A malformed percent-escape is the client's mistake (400), not a failure of ours to log.
    throw new AppError(400, "ERR_VALIDATION", "Caminho inválido");
  }
  const clean = normalize(relative);
  if (!clean || clean.startsWith("..") || clean.includes("\0") || clean.startsWith("/")) {
    return null;
  }
  const path = `${STATIC_DIR}${clean}`;
  const info = await fileOrNull(path);
  if (!info || clean.endsWith(".gz")) return null;
  const headers = new Headers({
    "content-type": TYPES[extname(clean).toLowerCase()] ?? "application/octet-stream",
    "x-content-type-options": "nosniff",
    "cache-control": clean.startsWith("build/") && clean !== "build/manifest.json"
      ? "public, max-age=31536000, immutable"
      : "public, max-age=300",
    vary: "accept-encoding",
  });
  let file = path;
  let size = info.size;
  if (/\bgzip\b/.test(c.req.header("accept-encoding") ?? "")) {
    const zipped = await fileOrNull(`${path}.gz`);
    if (zipped) {
      file = `${path}.gz`;
      size = zipped.size;
      headers.set("content-encoding", "gzip");
    }
  }
  headers.set("content-length", String(size));
  if (c.req.method === "HEAD") return new Response(null, { headers });
  const handle = await Deno.open(file, { read: true });
  return new Response(handle.readable, { headers });
}
