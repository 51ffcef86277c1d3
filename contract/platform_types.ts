import type { WorkingHoursEntry } from "./working_hours.ts";

/**
 * API shapes of platform administration (issue 11: companies, plans, help videos, signup),
 * declared once here: the server's views import them, the settings tabs, /helps and /signup read
 * them.
 */

/** Where a successful signup lands: /login?signup=ok shows the success text (seeds/001). */
export const SIGNUP_DONE_QUERY = "signup=ok";

/** Recurrences a company's due date advances by (seeds/001 section 9), in months. */
export const RECURRENCE_MONTHS = {
  MENSAL: 1,
  BIMESTRAL: 2,
  TRIMESTRAL: 3,
  SEMESTRAL: 6,
  ANUAL: 12,
} as const;
export type Recurrence = keyof typeof RECURRENCE_MONTHS;
export const RECURRENCES = Object.keys(RECURRENCE_MONTHS) as Recurrence[];

/** A plan as the Planos tab and /plans/list answer it (seeds/001 section 3 'Plan'). */
export type PlanView = {
  id: number;
  name: string;
  /** BRL per month. */
  value: number;
  /** 0 means no limit. */
  users: number;
  connections: number;
  queues: number;
  useCampaigns: boolean;
  useSchedules: boolean;
  useInternalChat: boolean;
  useExternalApi: boolean;
  useKanban: boolean;
  useOpenAi: boolean;
  useIntegrations: boolean;
  /** Issue 48: the attendant's assistant (transcripts, summaries, suggested replies). */
  useAssist: boolean;
};

export const PLAN_SWITCHES = [
  "useCampaigns",
  "useSchedules",
  "useInternalChat",
  "useExternalApi",
  "useKanban",
  "useOpenAi",
  "useIntegrations",
  "useAssist",
] as const satisfies readonly (keyof PlanView)[];

/** A company (seeds/001 section 3 'Company'); campaignsEnabled is its setting of that name. */
export type CompanyView = {
  id: number;
  name: string;
  email: string | null;
  phone: string | null;
  planId: number | null;
  plan: { id: number; name: string } | null;
  status: boolean;
  campaignsEnabled: boolean;
  dueDate: string | null;
  recurrence: string | null;
  /**
   * Weekly working hours for scheduleType "company". A company that never saved any shows the
   * defaults (Mon-Fri 08-18, Sat 08-12, Sun closed), which is also what routing should assume.
   */
  schedules: WorkingHoursEntry[];
  billingName: string | null;
  addressZipCode: string | null;
  addressStreet: string | null;
  addressState: string | null;
  addressCity: string | null;
  addressDistrict: string | null;
  createdAt: string;
  updatedAt: string;
};

/** A help video (seeds/001 section 3 'Help'); `video` is a YouTube video id. */
export type HelpView = { id: number; title: string; description: string; video: string };

const YOUTUBE_ID = /^[A-Za-z0-9_-]{11}$/;

/**
 * The YouTube video id of what an admin pasted: an id, or a watch / youtu.be / embed / shorts URL.
 * Null when none can be found.
 */
export function youtubeId(input: string): string | null {
  const text = input.trim();
  if (YOUTUBE_ID.test(text)) return text;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return null;
  }
  const host = url.hostname.replace(/^(www\.|m\.)/, "");
  let candidate: string | null = null;
  if (host === "youtu.be") candidate = url.pathname.split("/")[1] ?? null;
  else if (host === "youtube.com" || host === "youtube-nocookie.com") {
    const parts = url.pathname.split("/").filter(Boolean);
    if (parts[0] === "watch") candidate = url.searchParams.get("v");
    else if (["embed", "shorts", "live", "v"].includes(parts[0] ?? "")) {
      candidate = parts[1] ?? null;
    }
  }
  return candidate && YOUTUBE_ID.test(candidate) ? candidate : null;
}

/** The thumbnail of a help card (YouTube's public still image). */
export function youtubeThumbnail(id: string): string {
  return `https://img.youtube.com/vi/${encodeURIComponent(id)}/mqdefault.jpg`;
}

/** Whole days from `today` to `dueDate` (both YYYY-MM-DD); negative when past. */
export function daysLeft(dueDate: string, today: string): number {
  const day = (d: string) => Date.UTC(+d.slice(0, 4), +d.slice(5, 7) - 1, +d.slice(8, 10));
  return Math.round((day(dueDate) - day(today)) / 86_400_000);
}

/**
 * The companies table's row colour (seeds/001 section 9): yellow at exactly 5 days left; orange
 * from 3 days overdue to 4 days left; red at exactly 4 days overdue. Other days are uncoloured,
 * exactly as the specification lists them.
 */
export function dueDateTone(
  dueDate: string | null,
  today: string,
): "yellow" | "orange" | "red" | null {
  if (!dueDate) return null;
  const days = daysLeft(dueDate.slice(0, 10), today);
  if (days === 5) return "yellow";
  if (days >= -3 && days <= 4) return "orange";
  if (days === -4) return "red";
  return null;
}
