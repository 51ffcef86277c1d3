import { refreshAccessToken } from "./api.ts";
import { ApiError } from "./errors.ts";
import { safeBlob } from "./safe_blob.ts";
import { storedToken } from "./storage.ts";

/**
 * Downloads an API file with the bearer token (a plain link cannot carry it): fetch, blob, a
 * temporary object URL clicked as a download. The server's file name wins when it sends one.
 */
export async function downloadFile(path: string, fallbackName: string): Promise<void> {
  const get = (token: string | null) =>
    fetch(`/api${path}`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  let res = await get(storedToken());
  if (res.status === 403) res = await get(await refreshAccessToken(storedToken()));
  if (!res.ok) {
    const body = await res.json().catch(() => null) as { error?: string; message?: string } | null;
    throw new ApiError(res.status, body?.error ?? null, body?.message ?? "");
  }
  const disposition = res.headers.get("content-disposition") ?? "";
  const name = /filename="?([^";]+)"?/.exec(disposition)?.[1] ?? fallbackName;
  saveBlob(await safeBlob(res), name);
}

/** Saves a blob made in the page as a file: a temporary object URL clicked as a download. */
export function saveBlob(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
