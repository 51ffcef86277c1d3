import { wallClock } from "./time_zone.ts";

/**
 * A schedule as the API answers it (seeds/001 section 3 'Schedule'), declared once here: the
 * server's view (server/schedules/repository.ts), the /schedules page and the schedule dialog.
 *
 * Status (seeds/001 section 4): PENDENTE waits for sendAt, AGENDADA is being sent by the job,
 * ENVIADA was sent (sentAt), ERRO failed; `errorCode` says why (a code of the error catalogue:
 * no connection, invalid number, the provider's refusal), and a failed one can be retried.
 */
export type ScheduleStatus = "PENDENTE" | "AGENDADA" | "ENVIADA" | "ERRO";

export type ScheduleView = {
  id: number;
  body: string;
  contactId: number;
  contact: { id: number; name: string; number: string } | null;
  ticketId: number | null;
  userId: number | null;
  user: { id: number; name: string } | null;
  sendAt: string;
  sentAt: string | null;
  status: ScheduleStatus;
  errorCode: string | null;
  mediaName: string | null;
  mediaUrl: string | null;
  /** Issue 45: the approved template sent instead of `body` (a connection with the window). */
  template: { name: string; language: string; parameters: string[] } | null;
  companyId: number;
  createdAt: string;
  updatedAt: string;
};

/** seeds/001 section 9: the list shows the body cut at 25 characters. */
export const SCHEDULE_BODY_SHOWN = 25;

const pad = (n: number) => String(n).padStart(2, "0");

/**
 * seeds/001 section 9: schedule dates as DD/MM/YYYY HH:mm:ss, on the company's clock (its zone,
 * contract/time_zone.ts; issue 24 item 6), not the browser's.
 */
export function formatScheduleDate(iso: string, timeZone: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return "";
  const w = wallClock(d, timeZone);
  return `${pad(w.day)}/${pad(w.month)}/${w.year} ${pad(w.hour)}:${pad(w.minute)}:${pad(w.second)}`;
}

/** The body as the list shows it: at most 25 characters, an ellipsis when cut. */
export function shortBody(body: string): string {
  return body.length > SCHEDULE_BODY_SHOWN ? `${body.slice(0, SCHEDULE_BODY_SHOWN)}…` : body;
}
