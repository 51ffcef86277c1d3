import { useEffect, useState } from "react";
import { refreshAccessToken } from "../lib/api.ts";
import { safeBlob } from "../lib/safe_blob.ts";
import { storedToken } from "../lib/storage.ts";

/**
 * Message media comes from an authorised route (GET /api/messages/:id/media) that needs the
 * bearer token, so a plain <img src> cannot load it: it is fetched as a blob and shown through
 * an object URL (seeds/000 section 7: 'Media is fetched as a binary blob by its URL').
 */
export async function fetchMedia(url: string, signal?: AbortSignal): Promise<Blob> {
  const get = (token: string | null) =>
    fetch(url, {
      headers: token ? { authorization: `Bearer ${token}` } : {},
      credentials: "same-origin",
      signal,
    });
  let token = storedToken();
  let res = await get(token);
  if (res.status === 403) {
    // An expired access token (the api client's rule: one refresh, one retry).
    token = await refreshAccessToken(token);
    if (token) res = await get(token);
  }
  if (!res.ok) throw new Error(`media ${res.status}`);
  return await safeBlob(res);
}

export type MediaState = { url: string | null; error: boolean; loading: boolean };

/** An object URL for the media while the component lives (revoked afterwards). */
export function useMediaUrl(src: string | null, enabled = true): MediaState {
  const [state, setState] = useState<MediaState>({ url: null, error: false, loading: !!src });
  useEffect(() => {
    if (!src || !enabled) return;
    const controller = new AbortController();
    let objectUrl: string | null = null;
    setState({ url: null, error: false, loading: true });
    fetchMedia(src, controller.signal)
      .then((blob) => {
        objectUrl = URL.createObjectURL(blob);
        setState({ url: objectUrl, error: false, loading: false });
      })
      .catch((error) => {
        if (error instanceof DOMException && error.name === "AbortError") return;
        setState({ url: null, error: true, loading: false });
      });
    return () => {
      controller.abort();
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [src, enabled]);
  return state;
}

/** Downloads a media file under its name (documents). */
export async function downloadMedia(src: string, name: string) {
  const blob = await fetchMedia(src);
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
