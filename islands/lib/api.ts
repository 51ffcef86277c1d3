import { ApiError } from "./errors.ts";
import { clearSession, storedToken } from "./storage.ts";
import { rememberSession } from "./session_storage.ts";
import { toast } from "./toast.ts";
import { type LoginAnswer, SESSION_ENDED_QUERY } from "../../contract/types.ts";
import { safeBlob } from "./safe_blob.ts";

/**
 * The browser's client for /api (seeds/000 sections 4 'Session' and 8):
 * - every request carries the bearer token kept in localStorage;
 * - a 401 clears the stored token and company and goes to /login;
 * - a 403 triggers one POST /api/auth/refresh_token (cookie) and one retry;
 * - a failure shows a toast (translated code, else message, else a generic text) unless `quiet`,
 *   and rejects with an ApiError so the caller can react (e.g. show field errors).
 *
 *   const { tickets, hasMore } = await api.get<TicketList>("/tickets", { query: { pageNumber: 1 } });
 *   await api.put(`/users/${id}`, { name }, { quiet: true });
 */
export type Query = Record<
  string,
  string | number | boolean | null | undefined | (string | number)[]
>;

export type RequestOptions = {
  query?: Query;
  /** No error toast (the caller shows the error, or the call is optional). */
  quiet?: boolean;
  /** false: no bearer, and a 401/403 is an answer like any other (login, signup). */
  auth?: boolean;
  signal?: AbortSignal;
  headers?: Record<string, string>;
};

const LOGIN_PATH = "/login";

export function apiUrl(path: string, query?: Query): string {
  const url = `/api${path.startsWith("/") ? path : `/${path}`}`;
  if (!query) return url;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) params.set(key, JSON.stringify(value));
    else params.set(key, String(value));
  }
  const qs = params.toString();
  return qs ? `${url}?${qs}` : url;
}

let refreshing: Promise<string | null> | null = null;
/** The server said this session was ended from another device: the login page says so. */
let endedElsewhere = false;
const ENDED_ELSEWHERE = "ERR_SESSION_ENDED_ELSEWHERE";

/**
 * Gets a new access token with the refresh cookie. Concurrent callers (and other tabs, through a
 * Web Lock) share one refresh: the server rotates the cookie on use and treats a second use of
 * the old one as theft, so two parallel refreshes would end the session.
 */
export function refreshAccessToken(staleToken: string | null): Promise<string | null> {
  refreshing ??= (async () => {
    const run = async (): Promise<string | null> => {
      const current = storedToken();
      // Another tab or request refreshed while we waited for the lock.
      if (current && current !== staleToken) return current;
      const res = await fetch("/api/auth/refresh_token", {
        method: "POST",
        credentials: "same-origin",
      });
      if (!res.ok) {
        endedElsewhere ||= (await errorOf(res)).code === ENDED_ELSEWHERE;
        return null;
      }
      const answer = await res.json() as LoginAnswer;
      rememberSession(answer);
      return answer.token;
    };
    const locks = globalThis.navigator?.locks;
    return locks ? await locks.request("balcao-token-refresh", run) : await run();
  })().catch(() => null).finally(() => {
    refreshing = null;
  });
  return refreshing;
}

/** The session is over: forget it and go to the login page. */
export function endSession() {
  clearSession();
  if (!globalThis.location || location.pathname === LOGIN_PATH) return;
  location.assign(endedElsewhere ? `${LOGIN_PATH}?${SESSION_ENDED_QUERY}` : LOGIN_PATH);
}

function send(
  method: string,
  path: string,
  body: unknown,
  options: RequestOptions,
  token: string | null,
): Promise<Response> {
  const headers: Record<string, string> = { accept: "application/json", ...options.headers };
  if (token && options.auth !== false) headers.authorization = `Bearer ${token}`;
  let payload: BodyInit | undefined;
  if (body instanceof FormData || body instanceof Blob) {
    payload = body;
  } else if (body !== undefined) {
    headers["content-type"] = "application/json";
    payload = JSON.stringify(body);
  }
  return fetch(apiUrl(path, options.query), {
    method,
    headers,
    body: payload,
    credentials: "same-origin",
    signal: options.signal,
  });
}

async function errorOf(res: Response): Promise<ApiError> {
  let body: unknown = null;
  try {
    body = await res.json();
  } catch {
    // not JSON (a proxy's error page): keep the status only
  }
  if (body && typeof body === "object" && "error" in body) {
    const b = body as { error: unknown; message?: unknown; fields?: unknown };
    return new ApiError(
      res.status,
      typeof b.error === "string" ? b.error : null,
      typeof b.message === "string" ? b.message : "",
      (b.fields && typeof b.fields === "object" ? b.fields : {}) as Record<string, string[]>,
      body,
    );
  }
  if (typeof body === "string") return new ApiError(res.status, null, body, {}, body);
  return new ApiError(res.status, null, "", {}, body);
}

async function request<T>(
  method: string,
  path: string,
  body: unknown,
  options: RequestOptions = {},
): Promise<T> {
  const authenticated = options.auth !== false;
  let token = authenticated ? storedToken() : null;
  let res: Response;
  try {
    res = await send(method, path, body, options, token);
    if (res.status === 403 && authenticated) {
      token = await refreshAccessToken(token);
      if (token === null) {
        endSession();
        throw new ApiError(401, "ERR_SESSION_EXPIRED", "Session expired");
      }
      res = await send(method, path, body, options, token);
    }
  } catch (error) {
    if (error instanceof ApiError) throw error;
    if (error instanceof DOMException && error.name === "AbortError") throw error;
    if (!options.quiet) toast.error(error);
    throw error;
  }
  if (res.status === 401 && authenticated) {
    const error = await errorOf(res);
    endedElsewhere ||= error.code === ENDED_ELSEWHERE;
    endSession();
    throw error;
  }
  if (!res.ok) {
    const error = await errorOf(res);
    // Issue 29: the company is late and this session may only pay.
    if (
      error.code === "ERR_SUBSCRIPTION_OVERDUE" &&
      !["/financeiro", "/subscription"].includes(location.pathname)
    ) {
      location.assign("/financeiro");
    }
    if (!options.quiet) toast.error(error);
    throw error;
  }
  if (res.status === 204) return undefined as T;
  const type = res.headers.get("content-type") ?? "";
  if (type.includes("application/json")) return await res.json() as T;
  if (type.startsWith("text/")) return await res.text() as T;
  return await safeBlob(res) as T;
}

export const api = {
  get: <T>(path: string, options?: RequestOptions) => request<T>("GET", path, undefined, options),
  post: <T>(path: string, body?: unknown, options?: RequestOptions) =>
    request<T>("POST", path, body, options),
  put: <T>(path: string, body?: unknown, options?: RequestOptions) =>
    request<T>("PUT", path, body, options),
  patch: <T>(path: string, body?: unknown, options?: RequestOptions) =>
    request<T>("PATCH", path, body, options),
  delete: <T>(path: string, options?: RequestOptions) =>
    request<T>("DELETE", path, undefined, options),
};
