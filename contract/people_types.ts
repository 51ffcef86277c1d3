/** API shapes of the people pages (routes/api/contacts.ts, users.ts, dashboard.ts). */
import type { QueueRef } from "./types.ts";

export type ExtraInfo = { id?: number; name: string; value: string };

export type Contact = {
  id: number;
  uuid: string;
  name: string;
  number: string;
  email: string;
  profilePicUrl: string;
  isGroup: boolean;
  whatsappId: number | null;
  extraInfo?: ExtraInfo[];
  /** GET /api/contacts/:id only: the contact answered a campaign with an opt-out word (issue 13). */
  campaignOptOut?: { word: string; at: string } | null;
  createdAt: string;
  updatedAt: string;
};

export type ContactPage = { contacts: Contact[]; count: number; hasMore: boolean };

/** POST /api/contacts/import (server/contacts/import.ts). */
export type ImportReport = {
  total: number;
  created: number;
  updated: number;
  unchanged: number;
  skipped: { row: number; reason: string; code: string }[];
};

export type UserRow = {
  id: number;
  name: string;
  email: string;
  profile: "admin" | "user";
  super: boolean;
  companyId: number;
  whatsappId: number | null;
  whatsapp: { id: number; name: string } | null;
  allTicket: "enable" | "disable";
  online: boolean;
  /** Issue 26: open tickets distribution gives them at most (null: unlimited). */
  maxOpenTickets: number | null;
  /** Issue 26: the queues (among `queues`) the user supervises: they hear their breaches. */
  supervisedQueueIds: number[];
  /** Issue 26: the user's daily hours for distribution (HH:MM; null: any time). */
  startWork: string | null;
  endWork: string | null;
  queues: QueueRef[];
  /** Two-factor sign-in is on (issue 30): an admin may reset it. */
  twoFactor?: boolean;
  createdAt: string;
  updatedAt: string;
};

export type UserPage = { users: UserRow[]; count: number; hasMore: boolean };

export type ConnectionOption = { id: number; name: string; isDefault?: boolean };

/** GET /api/dashboard (server/dashboard/service.ts): durations in minutes. */
export type DashboardAnswer = {
  range: { from: string; to: string; timeZone: string };
  counters: {
    supportPending: number;
    supportHappening: number;
    supportFinished: number;
    leads: number;
    avgSupportTime: number;
    avgWaitTime: number;
  };
  attendants: {
    id: number;
    name: string;
    rating: number;
    avgSupportTime: number;
    finished: number;
    online: boolean;
  }[];
  hourly: { hour: number; count: number }[];
};
