import assert from "node:assert/strict";
import {
  defaultFilter,
  formatMinutes,
  queryOf,
  starsOf,
  switchType,
} from "../../islands/dashboard/dashboard_filter.ts";
import { addTask, deleteTask, editTask, parseTasks } from "../../islands/todo/tasks.ts";
import { check, email, length, LIMITS } from "../../contract/validation.ts";

Deno.test("dashboard filter - defaults to the first day of the month to today", () => {
  const f = defaultFilter(new Date(2026, 10, 22, 9, 30));
  assert.deepEqual(f, { type: "date", dateFrom: "2026-11-01", dateTo: "2026-11-22", days: null });
  assert.deepEqual(queryOf(f), { date_from: "2026-11-01", date_to: "2026-11-22" });
});

Deno.test("dashboard filter - choosing a type clears the other; nothing set means no query", () => {
  const byPeriod = switchType(defaultFilter(new Date(2026, 0, 5)), "period");
  assert.deepEqual(byPeriod, { type: "period", dateFrom: "", dateTo: "", days: null });
  assert.equal(queryOf(byPeriod), null);
  assert.deepEqual(queryOf({ ...byPeriod, days: 15 }), { days: "15" });
  const byDate = switchType({ ...byPeriod, days: 15 }, "date");
  assert.equal(byDate.days, null);
  assert.equal(queryOf(byDate), null);
  assert.equal(queryOf({ ...byDate, dateFrom: "2026-02-30", dateTo: "2026-03-01" }), null);
});

Deno.test("dashboard format - minutes as hours and minutes, ratings as 0..3 stars", () => {
  assert.equal(formatMinutes(0), "0min");
  assert.equal(formatMinutes(0.5), "30s");
  assert.equal(formatMinutes(12.4), "12min");
  assert.equal(formatMinutes(65), "1h 05min");
  assert.equal(formatMinutes(60 * 26 + 1), "26h 01min");
  assert.deepEqual([0, 0.4, 1.5, 2.49, 3, 7].map(starsOf), [0, 0, 2, 2, 3, 3]);
});

Deno.test("to-do tasks - blank text ignored, edits stamp updatedAt, unreadable storage is empty", () => {
  const t0 = new Date("2026-11-22T10:00:00Z");
  const t1 = new Date("2026-11-22T11:00:00Z");
  let list = addTask([], "  Ligar  ", t0, "a");
  assert.deepEqual(list, [{
    id: "a",
    text: "Ligar",
    createdAt: t0.toISOString(),
    updatedAt: t0.toISOString(),
  }]);
  assert.equal(addTask(list, "   ", t0, "b"), list);
  assert.equal(editTask(list, "a", " ", t1), list);
  list = editTask(list, "a", "Ligar de novo", t1);
  assert.equal(list[0].text, "Ligar de novo");
  assert.equal(list[0].updatedAt, t1.toISOString());
  assert.equal(list[0].createdAt, t0.toISOString());
  assert.deepEqual(deleteTask(list, "a"), []);
  assert.deepEqual(parseTasks("not json"), []);
  assert.deepEqual(parseTasks('{"a":1}'), []);
  assert.equal(parseTasks(JSON.stringify(list))[0].text, "Ligar de novo");
});

Deno.test("people forms - the rules of seeds/000 section 5", () => {
  const rules = {
    name: length(LIMITS.name),
    email: email(true),
    password: length(LIMITS.password, false),
  };
  assert.deepEqual(check({ name: "J", email: "x", password: "" }, rules), {
    name: "people.validation.tooShort",
    email: "people.validation.invalidEmail",
  });
  assert.deepEqual(check({ name: "", email: "", password: "abc" }, rules), {
    name: "people.validation.required",
    email: "people.validation.required",
    password: "people.validation.tooShort",
  });
  assert.deepEqual(check({ name: "x".repeat(51), email: "a@b.co", password: "12345" }, rules), {
    name: "people.validation.tooLong",
  });
});
