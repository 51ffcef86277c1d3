/**
 * Browser storage keys (seeds/000 section 3: token, companyId, userId, companyDueDate, cshow,
 * volume, tasks, sign-message option; seeds/002 section 2.11: preferredTheme). One place, so
 * that every island reads and clears the same names.
 */
export const STORAGE = {
  token: "token",
  /** When (this browser's clock, ms) the stored token arrived: see socket.ts tokenStale. */
  tokenReceivedAt: "tokenReceivedAt",
  companyId: "companyId",
  userId: "userId",
  /** The user's roles, space-separated (contract/policy.ts): the head script's page rule. */
  roles: "roles",
  companyDueDate: "companyDueDate",
  /** Present (any value) when the company has campaigns enabled: shows the campaign routes. */
  cshow: "cshow",
  volume: "volume",
  preferredTheme: "preferredTheme",
  tasks: "tasks",
  signMessage: "signMessage",
} as const;

/** Keys that belong to a session: removed at logout, on a 401 and when another login ends it. */
const SESSION_KEYS = [
  STORAGE.token,
  STORAGE.tokenReceivedAt,
  STORAGE.companyId,
  STORAGE.userId,
  STORAGE.roles,
  STORAGE.companyDueDate,
  STORAGE.cshow,
] as const;

/** Cookie the server reads to render pages in the chosen language (pt when absent). */
export const LANGUAGE_COOKIE = "lang";

function store(): Storage | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    // Storage can be disabled by the browser's privacy settings.
    return null;
  }
}

export function readStorage(key: string): string | null {
  return store()?.getItem(key) ?? null;
}

export function writeStorage(key: string, value: string) {
  try {
    store()?.setItem(key, value);
  } catch {
    // Quota exceeded or storage disabled: the value is only a preference.
  }
}

export function removeStorage(key: string) {
  store()?.removeItem(key);
}

export function storedToken(): string | null {
  return readStorage(STORAGE.token);
}

/** The tab's copy of the signed-in user (islands/lib/session.ts), shown before /auth/me answers. */
export const SESSION_USER_CACHE = "balcao.sessionUser";

/** Forgets the session (not the preferences: theme, volume, language stay). */
export function clearSession() {
  for (const key of SESSION_KEYS) removeStorage(key);
  try {
    globalThis.sessionStorage?.removeItem(SESSION_USER_CACHE);
  } catch {
    // storage disabled: nothing cached
  }
}

/** Volume for notification sounds, 0..1 in steps of 0.1 (seeds/000 section 9); default 1. */
export function storedVolume(): number {
  const raw = readStorage(STORAGE.volume);
  const value = raw === null ? 1 : Number(raw);
  if (!Number.isFinite(value)) return 1;
  return Math.min(1, Math.max(0, Math.round(value * 10) / 10));
}
