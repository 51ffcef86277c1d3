/**
 * API shapes the browser code relies on. Islands import nothing from server/ or db/ (DESIGN
 * 'Boundaries'), so an answer's shape is declared here (or in its area's types file) and the
 * server imports it for its view (server/auth/service.ts PlanFlags, server/users/service.ts
 * UserView): the two cannot drift apart without a type error.
 */
import type { Restriction } from "./policy.ts";

export type PlanFlags = {
  id: number;
  name: string;
  users: number;
  connections: number;
  queues: number;
  useCampaigns: boolean;
  useKanban: boolean;
  useOpenAi: boolean;
  useIntegrations: boolean;
  useSchedules: boolean;
  useInternalChat: boolean;
  useExternalApi: boolean;
  /** Issue 48: the attendant's assistant. */
  useAssist: boolean;
};

export type QueueRef = { id: number; name: string; color: string };

/** The signed-in user (POST /api/auth/login, GET /api/auth/me; seeds/000 section 7). */
export type SessionUser = {
  id: number;
  name: string;
  email: string;
  profile: string;
  super: boolean;
  companyId: number;
  whatsappId: number | null;
  allTicket: string;
  online: boolean;
  queues: QueueRef[];
  /** Issue 26: the queues the user supervises (they hear those queues' breaches: the bell). */
  supervisedQueueIds?: number[];
  /** Two-factor sign-in (issue 30): on, and whether this session must turn it on first. */
  twoFactor?: { enabled: boolean; mustEnable: boolean };
  /**
   * Issue 50 item 17: how many of the user's tickets were taken back while they were offline and
   * not yet seen. The shell's notice asks GET /api/tickets/taken-back only when there are some.
   */
  takenBack?: number;
  company: {
    id: number;
    name: string;
    dueDate: string | null;
    /** Issue 50: no invoice paid yet, so the period up to dueDate is the free trial. */
    trial?: boolean;
    settings: { key: string; value: string }[];
    plan: PlanFlags | null;
  };
  /** Issue 29: "billing" while the company is late (its admin may only pay). */
  restricted?: Restriction;
};

/** A late company's admin's login also has `restricted` and the specification's `message`. */
/**
 * The login page's query after a session was ended from another device (issue 50 item 14): the
 * page says so instead of showing a bare form.
 */
export const SESSION_ENDED_QUERY = "ended=elsewhere";

export type LoginAnswer = {
  token: string;
  user: SessionUser;
  restricted?: Restriction;
  message?: string;
};

/** POST /api/auth/login for a user with two-factor on: the code is asked for next. */
export type TwoFactorChallenge = { twoFactorRequired: true; challenge: string };

/** Every API error body (DESIGN 'HTTP surface'). */
export type ApiErrorBody = {
  error: string;
  message?: string;
  fields?: Record<string, string[]>;
};

/** Connection states (seeds/000 section 3). */
export type ConnectionStatus =
  | "qrcode"
  | "PAIRING"
  | "DISCONNECTED"
  | "TIMEOUT"
  | "OPENING"
  | "CONNECTED"
  | "connected";

/** The fields of a connection the shell needs (GET /api/whatsapp/). */
export type ConnectionSummary = { id: number; name: string; status: string };

/** A realtime message: `{ event: "company-<id>-<channel>", data }` (server/realtime/events.ts). */
export type SocketMessage = { event: string; data?: unknown };

/**
 * GET /api/storage (issue 34): the data folder's state and free space, for the admins' banner.
 * `low`: free space under STORAGE_WARN_BYTES or STORAGE_WARN_PERCENT of the disk.
 */
export type StorageStatus = {
  state: "ok" | "full" | "unavailable";
  freeBytes: number;
  totalBytes: number;
  low: boolean;
};
