import assert from "node:assert/strict";
import { addWorkingMinutes, defaultWorkingHours, isWithinHours } from "./hours.ts";

/** These cases read São Paulo's clock (UTC-3); other zones: tests/api/company_zone_test.ts. */
const SP = "America/Sao_Paulo";

Deno.test("working hours - defaults are open weekdays 08-18, Saturday 08-12, closed Sunday", () => {
  const hours = defaultWorkingHours();
  // 2026-11-23 is a Monday; 12:00 UTC is 09:00 in São Paulo
  assert.equal(isWithinHours(hours, new Date("2026-11-23T12:00:00Z"), SP), true);
  assert.equal(isWithinHours(hours, new Date("2026-11-23T10:59:00Z"), SP), false); // 07:59
  assert.equal(isWithinHours(hours, new Date("2026-11-23T21:00:00Z"), SP), false); // 18:00, end exclusive
  assert.equal(isWithinHours(hours, new Date("2026-11-28T14:00:00Z"), SP), true); // Saturday 11:00
  assert.equal(isWithinHours(hours, new Date("2026-11-28T15:00:00Z"), SP), false); // Saturday 12:00
  assert.equal(isWithinHours(hours, new Date("2026-11-29T15:00:00Z"), SP), false); // Sunday
});

Deno.test("working minutes - a target counts only the queue's open hours", () => {
  const hours = defaultWorkingHours();
  const at = (iso: string, minutes: number) =>
    addWorkingMinutes(new Date(iso), minutes, hours, SP).toISOString();
  // Monday 09:00 in São Paulo + 30 min: same morning.
  assert.equal(at("2026-11-23T12:00:00Z", 30), "2026-11-23T12:30:00.000Z");
  // Monday 17:50 + 30 min: 10 min today, 20 min from Tuesday 08:00.
  assert.equal(at("2026-11-23T20:50:00Z", 30), "2026-11-24T11:20:00.000Z");
  // Saturday 11:30 + 60 min: 30 min Saturday, Sunday closed, 30 min from Monday 08:00.
  assert.equal(at("2026-11-28T14:30:00Z", 60), "2026-11-30T11:30:00.000Z");
  // Sunday (closed) 12:00 + 15 min: Monday 08:15.
  assert.equal(at("2026-11-22T15:00:00Z", 15), "2026-11-23T11:15:00.000Z");
  // No open day at all: every minute counts.
  assert.equal(
    addWorkingMinutes(new Date("2026-11-22T15:00:00Z"), 15, [], SP).toISOString(),
    "2026-11-22T15:15:00.000Z",
  );
});
