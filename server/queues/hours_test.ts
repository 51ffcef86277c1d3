import assert from "node:assert/strict";
import { defaultWorkingHours, isWithinHours } from "./hours.ts";

Deno.test("working hours - defaults are open weekdays 08-18, Saturday 08-12, closed Sunday", () => {
  const hours = defaultWorkingHours();
  // 2026-11-23 is a Monday; 12:00 UTC is 09:00 in São Paulo
  assert.equal(isWithinHours(hours, new Date("2026-11-23T12:00:00Z")), true);
  assert.equal(isWithinHours(hours, new Date("2026-11-23T10:59:00Z")), false); // 07:59
  assert.equal(isWithinHours(hours, new Date("2026-11-23T21:00:00Z")), false); // 18:00, end exclusive
  assert.equal(isWithinHours(hours, new Date("2026-11-28T14:00:00Z")), true); // Saturday 11:00
  assert.equal(isWithinHours(hours, new Date("2026-11-28T15:00:00Z")), false); // Saturday 12:00
  assert.equal(isWithinHours(hours, new Date("2026-11-29T15:00:00Z")), false); // Sunday
});
