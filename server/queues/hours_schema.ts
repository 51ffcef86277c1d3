import { z } from "zod";
import { TIME_PATTERN } from "./hours.ts";

const WEEKDAYS_EN = [
  "sunday",
  "monday",
  "tuesday",
  "wednesday",
  "thursday",
  "friday",
  "saturday",
] as const;

/**
 * One weekly working-hours entry (seeds/001 section 3). Times are HH:MM; a day is either
 * open from startTime to endTime (start before end, same day) or closed with 00:00-00:00
 * (equal times; isWithinHours treats any start = end as closed). Shifts over midnight are
 * not representable and are refused.
 */
export const workingHoursEntry = z.object({
  weekday: z.string().trim().min(1, "Required").max(30),
  weekdayEn: z.string().trim().toLowerCase().pipe(z.enum(WEEKDAYS_EN, "Invalid weekday")),
  startTime: z.string().regex(TIME_PATTERN, "Invalid time (HH:MM)"),
  endTime: z.string().regex(TIME_PATTERN, "Invalid time (HH:MM)"),
}).refine((e) => e.startTime <= e.endTime, {
  message: "startTime must not be after endTime",
  path: ["endTime"],
});

/** A week of entries, at most one per weekday. */
export const workingHours = z.array(workingHoursEntry).max(7).refine(
  (entries) => new Set(entries.map((e) => e.weekdayEn)).size === entries.length,
  "A weekday appears more than once",
);
