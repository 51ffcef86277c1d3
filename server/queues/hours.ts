/**
 * Weekly working hours (seeds/001 section 3): entries of weekday (pt name), weekdayEn,
 * startTime and endTime as HH:MM. "00:00"-"00:00" means closed that day.
 */
export type WorkingHoursEntry = {
  weekday: string;
  weekdayEn: string;
  startTime: string;
  endTime: string;
};

const WEEKDAYS: [string, string][] = [
  ["Domingo", "sunday"],
  ["Segunda-feira", "monday"],
  ["Terça-feira", "tuesday"],
  ["Quarta-feira", "wednesday"],
  ["Quinta-feira", "thursday"],
  ["Sexta-feira", "friday"],
  ["Sábado", "saturday"],
];

/** Defaults: Monday to Friday 08:00-18:00, Saturday 08:00-12:00, Sunday closed. */
export function defaultWorkingHours(): WorkingHoursEntry[] {
  const order = [1, 2, 3, 4, 5, 6, 0];
  return order.map((d) => {
    const [weekday, weekdayEn] = WEEKDAYS[d];
    if (d === 0) return { weekday, weekdayEn, startTime: "00:00", endTime: "00:00" };
    if (d === 6) return { weekday, weekdayEn, startTime: "08:00", endTime: "12:00" };
    return { weekday, weekdayEn, startTime: "08:00", endTime: "18:00" };
  });
}

export const TIME_PATTERN = /^([01]\d|2[0-3]):[0-5]\d$/;

function minutes(hhmm: string): number {
  const [h, m] = hhmm.split(":").map(Number);
  return h * 60 + m;
}

/**
 * Is `at` inside the hours? Times are wall-clock in `timeZone` (default America/Sao_Paulo,
 * the product's market). A day missing from the list counts as closed.
 */
export function isWithinHours(
  hours: readonly WorkingHoursEntry[],
  at: Date,
  timeZone = "America/Sao_Paulo",
): boolean {
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone,
    weekday: "long",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  }).formatToParts(at);
  const weekdayEn = parts.find((p) => p.type === "weekday")!.value.toLowerCase();
  const now = Number(parts.find((p) => p.type === "hour")!.value) * 60 +
    Number(parts.find((p) => p.type === "minute")!.value);
  const entry = hours.find((h) => h.weekdayEn.toLowerCase() === weekdayEn);
  if (!entry || !TIME_PATTERN.test(entry.startTime) || !TIME_PATTERN.test(entry.endTime)) {
    return false;
  }
  const start = minutes(entry.startTime);
  const end = minutes(entry.endTime);
  if (start === end) return false;
  return now >= start && now < end;
}

/** Parses the JSON text stored in queues.schedules / companies.schedules. */
export function parseWorkingHours(json: string | null | undefined): WorkingHoursEntry[] {
  if (!json) return [];
  try {
    const value = JSON.parse(json);
    return Array.isArray(value) ? value : [];
  } catch {
    return [];
  }
}
