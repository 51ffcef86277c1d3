import { signal } from "@preact/signals-react";
import { useSignals } from "@preact/signals-react/runtime";
import { api, endSession } from "./api.ts";
import { rememberUser } from "./session_storage.ts";
import { clearSession, SESSION_USER_CACHE } from "./storage.ts";
import type { SessionUser } from "../../contract/types.ts";

/**
 * The signed-in user of this page, loaded by the shell from GET /api/auth/me. Inside
 * `<AppShell>` children render only once it is known, so `useSessionUser()` is never null there.
 */
export const sessionUser = signal<SessionUser | null>(null);

/** Cached per tab so that the menu appears at once on the next page, before /auth/me answers. */
const CACHE_KEY = SESSION_USER_CACHE;

export function cachedUser(): SessionUser | null {
  try {
    const raw = globalThis.sessionStorage?.getItem(CACHE_KEY);
    return raw ? JSON.parse(raw) as SessionUser : null;
  } catch {
    return null;
  }
}

export function setSessionUser(user: SessionUser) {
  sessionUser.value = user;
  rememberUser(user);
  try {
    globalThis.sessionStorage?.setItem(CACHE_KEY, JSON.stringify(user));
  } catch {
    // only a cache
  }
}

/** Loads the user from the server (a 401 ends the session through the api client). */
export async function loadSession(): Promise<SessionUser> {
  const user = await api.get<SessionUser>("/auth/me", { quiet: true });
  setSessionUser(user);
  return user;
}

/** Reads the user and re-renders the component when it changes. */
export function useSessionUser(): SessionUser | null {
  useSignals();
  return sessionUser.value;
}

/** Inside AppShell's children: the user, known to be loaded. */
export function useUser(): SessionUser {
  const user = useSessionUser();
  if (!user) throw new Error("useUser() outside <AppShell>: the session is not loaded yet");
  return user;
}

/** Company admin (profiles compare case-insensitively, seeds/000 section 6). */
export function isAdmin(user: SessionUser | null): boolean {
  return user?.profile.toLowerCase() === "admin";
}

/** Whole days left until the company's due date (negative when past), null without one. */
export function daysUntil(dueDate: string | null, now = new Date()): number | null {
  if (!dueDate) return null;
  const due = Date.UTC(
    Number(dueDate.slice(0, 4)),
    Number(dueDate.slice(5, 7)) - 1,
    Number(dueDate.slice(8, 10)),
  );
  const today = Date.UTC(now.getFullYear(), now.getMonth(), now.getDate());
  return Math.round((due - today) / 86_400_000);
}

/** Ends the session on the server and in the browser, then shows the login page. */
export async function logout() {
  try {
    await api.delete("/auth/logout", { quiet: true });
  } catch {
    // Logged out locally anyway: the token is forgotten below.
  }
  try {
    globalThis.sessionStorage?.removeItem(CACHE_KEY);
  } catch {
    // only a cache
  }
  sessionUser.value = null;
  clearSession();
  endSession();
}

/** Forgets the cached user (used when another login ends this session). */
export function forgetCachedUser() {
  try {
    globalThis.sessionStorage?.removeItem(CACHE_KEY);
  } catch {
    // only a cache
  }
}
