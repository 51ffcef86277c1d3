/**
 * Weekly working hours as the browser edits them (seeds/001 sections 2 and 3): one entry per
 * weekday with weekday (Portuguese name, as stored), weekdayEn, startTime and endTime (HH:MM).
 * A day whose start equals its end is closed (00:00-00:00 by convention), as the server's routing
 * (server/queues/hours.ts) reads it. Shapes only: islands import nothing from server/.
 */
export type WorkingHoursEntry = {
  weekday: string;
  weekdayEn: string;
  startTime: string;
  endTime: string;
};

/**
 * A day in the editor: open or closed is its own switch while editing (times typed equal for a
 * moment must not close the day under the user's fingers); see toEntries for what is sent.
 */
export type EditableDay = WorkingHoursEntry & { open: boolean };

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

/** Hours a day gets when it is switched from closed to open. */
export const OPENING = { startTime: "08:00", endTime: "18:00" };

export const TIME_OF_DAY = /^([01]\d|2[0-3]):[0-5]\d$/;

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
): EditableDay[] {
  const source = saved && saved.length > 0 ? saved : defaultWeek();
  return WEEK.map(({ weekday, weekdayEn }) => {
    const found = source.find((e) => e.weekdayEn?.toLowerCase() === weekdayEn);
    if (!found || found.startTime === found.endTime) {
      return { weekday, weekdayEn, startTime: CLOSED, endTime: CLOSED, open: false };
    }
    return { weekday, weekdayEn, startTime: found.startTime, endTime: found.endTime, open: true };
  });
}

/** What the API stores: closed days as 00:00-00:00. */
export function toEntries(week: readonly EditableDay[]): WorkingHoursEntry[] {
  return week.map(({ weekday, weekdayEn, startTime, endTime, open }) =>
    open
      ? { weekday, weekdayEn, startTime, endTime }
      : { weekday, weekdayEn, startTime: CLOSED, endTime: CLOSED }
  );
}

/**
 * Tidies what was typed into HH:MM when it is unambiguous ("9" -> "09:00", "930" -> "09:30",
 * "9:30" -> "09:30"); anything else is left as typed for the validation to point at.
 */
export function normaliseTime(raw: string): string {
  const value = raw.trim().replace(/[hH.]/, ":");
  if (/^\d{1,2}$/.test(value)) return `${value.padStart(2, "0")}:00`;
  if (/^\d{3,4}$/.test(value)) {
    const digits = value.padStart(4, "0");
    return `${digits.slice(0, 2)}:${digits.slice(2)}`;
  }
  const match = /^(\d{1,2}):(\d{2})$/.exec(value);
  if (match) return `${match[1].padStart(2, "0")}:${match[2]}`;
  return value;
}

/** Why a day cannot be saved (an i18n key under "hours.errors"), or null when it is fine. */
export type HoursProblem = "invalidStart" | "invalidEnd" | "endBeforeStart";

export function dayProblem(day: EditableDay): HoursProblem | null {
  if (!day.open) return null;
  if (!TIME_OF_DAY.test(day.startTime)) return "invalidStart";
  if (!TIME_OF_DAY.test(day.endTime)) return "invalidEnd";
  // An open day ends after it starts; shifts over midnight are not representable (the server
  // refuses them too), and equal times would mean closed.
  if (day.startTime >= day.endTime) return "endBeforeStart";
  return null;
}

/** Problems by weekdayEn; empty when the week can be saved. */
export function weekProblems(week: readonly EditableDay[]): Record<string, HoursProblem> {
  const problems: Record<string, HoursProblem> = {};
  for (const day of week) {
    const problem = dayProblem(day);
    if (problem) problems[day.weekdayEn] = problem;
  }
  return problems;
}

/** The week with every typed time tidied (see normaliseTime), as checked and sent on save. */
export function tidyWeek(week: readonly EditableDay[]): EditableDay[] {
  return week.map((d) => ({
    ...d,
    startTime: normaliseTime(d.startTime),
    endTime: normaliseTime(d.endTime),
  }));
}
