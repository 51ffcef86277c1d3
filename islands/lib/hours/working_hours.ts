/**
 * Weekly working hours as the browser edits them (seeds/001 sections 2 and 3): one entry per
 * weekday with weekday (Portuguese name, as stored), weekdayEn, startTime and endTime (HH:MM).
 * A day whose start equals its end is closed (00:00-00:00 by convention), like the server's
 * routing (server/queues/hours.ts) reads it. Shapes only: islands import nothing from server/.
 */
export type WorkingHoursEntry = {
  weekday: string;
  weekdayEn: string;
  startTime: string;
  endTime: string;
};

/** Monday first, as the product lists the week; `weekday` is the stored Portuguese name. */
export const WEEK: readonly { weekdayEn: string; weekday: string }[] = [
  { weekdayEn: "monday", weekday: "Segunda-feira" },
  { weekdayEn: "tuesday", weekday: "Terça-feira" },
  { weekdayEn: "wednesday", weekday: "Quarta-feira" },
  { weekdayEn: "thursday", weekday: "Quinta-feira" },
  { weekdayEn: "friday", weekday: "Sexta-feira" },
  { weekdayEn: "saturday", weekday: "Sábado" },
  { weekdayEn: "sunday", weekday: "Domingo" },
];

export const CLOSED = "00:00";

const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;

/** Defaults (seeds/001 section 3): Monday to Friday 08:00-18:00, Saturday 08:00-12:00, Sunday closed. */
export function defaultWeek(): WorkingHoursEntry[] {
  return WEEK.map(({ weekday, weekdayEn }) => {
    if (weekdayEn === "sunday") return { weekday, weekdayEn, startTime: CLOSED, endTime: CLOSED };
    if (weekdayEn === "saturday") {
      return { weekday, weekdayEn, startTime: "08:00", endTime: "12:00" };
    }
    return { weekday, weekdayEn, startTime: "08:00", endTime: "18:00" };
  });
}

/**
 * The full week to edit from what the server answered: no entries at all means the defaults
 * (which is what routing assumes then); a day missing from a saved list is closed (ditto).
 */
export function weekFrom(
  saved: readonly WorkingHoursEntry[] | null | undefined,
): WorkingHoursEntry[] {
  if (!saved || saved.length === 0) return defaultWeek();
  return WEEK.map(({ weekday, weekdayEn }) => {
    const found = saved.find((e) => e.weekdayEn?.toLowerCase() === weekdayEn);
    return found
      ? { weekday, weekdayEn, startTime: found.startTime, endTime: found.endTime }
      : { weekday, weekdayEn, startTime: CLOSED, endTime: CLOSED };
  });
}

/** Closed: equal, valid times (two emptied inputs are an error to show, not a closed day). */
export function isClosed(entry: Pick<WorkingHoursEntry, "startTime" | "endTime">): boolean {
  return entry.startTime === entry.endTime && TIME.test(entry.startTime);
}

/** Why a day cannot be saved, as an i18n key under "hours.errors", or null when it is fine. */
export type HoursProblem = "invalidStart" | "invalidEnd" | "endBeforeStart";

export function entryProblem(entry: WorkingHoursEntry): HoursProblem | null {
  if (!TIME.test(entry.startTime)) return "invalidStart";
  if (!TIME.test(entry.endTime)) return "invalidEnd";
  // Shifts over midnight are not representable (the server refuses them too).
  if (entry.startTime > entry.endTime) return "endBeforeStart";
  return null;
}

/** Problems by weekdayEn; empty when the week can be saved. */
export function weekProblems(week: readonly WorkingHoursEntry[]): Record<string, HoursProblem> {
  const problems: Record<string, HoursProblem> = {};
  for (const entry of week) {
    const problem = entryProblem(entry);
    if (problem) problems[entry.weekdayEn] = problem;
  }
  return problems;
}
