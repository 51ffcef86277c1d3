import assert from "node:assert/strict";
import {
  defaultWeek,
  normaliseTime,
  tidyWeek,
  toEntries,
  weekFrom,
  weekProblems,
} from "../../contract/working_hours.ts";
import { queueProblems } from "../../islands/queues/queue_form.ts";
import { nextOptionNumber } from "../../islands/queues/OptionsTree.tsx";
import { sortQueues } from "../../islands/QueuesPage.tsx";
import { QUEUE_COLORS } from "../../contract/palette.ts";
import { defaultWorkingHours } from "../../server/queues/hours.ts";
import { workingHours } from "../../server/queues/hours_schema.ts";

Deno.test("working hours - the editor's defaults are the server's, and what it sends passes the server's rule", () => {
  const byDay = (list: { weekdayEn: string }[]) =>
    [...list].sort((a, b) => a.weekdayEn.localeCompare(b.weekdayEn));
  assert.deepEqual(byDay(defaultWeek()), byDay(defaultWorkingHours()));
  const week = weekFrom([]);
  assert.equal(week.length, 7);
  assert.deepEqual(week.filter((d) => !d.open).map((d) => d.weekdayEn), ["sunday"]);
  assert.equal(workingHours.safeParse(toEntries(week)).success, true);
});

Deno.test("working hours - saved weeks: equal times and missing days are closed; closed days are sent as 00:00", () => {
  const week = weekFrom([
    { weekday: "Segunda-feira", weekdayEn: "monday", startTime: "09:00", endTime: "17:00" },
    { weekday: "Terça-feira", weekdayEn: "tuesday", startTime: "10:00", endTime: "10:00" },
  ]);
  assert.deepEqual(week.filter((d) => d.open).map((d) => d.weekdayEn), ["monday"]);
  // A closed day keeps what was typed while closed, but is stored as closed.
  const edited = week.map((d) => d.weekdayEn === "tuesday" ? { ...d, startTime: "07:00" } : d);
  const sent = toEntries(edited);
  assert.deepEqual(sent.find((d) => d.weekdayEn === "tuesday"), {
    weekday: "Terça-feira",
    weekdayEn: "tuesday",
    startTime: "00:00",
    endTime: "00:00",
  });
  assert.equal(workingHours.safeParse(sent).success, true);
});

Deno.test("working hours - typed times are tidied when unambiguous and otherwise refused", () => {
  assert.equal(normaliseTime("9"), "09:00");
  assert.equal(normaliseTime("930"), "09:30");
  assert.equal(normaliseTime("0930"), "09:30");
  assert.equal(normaliseTime("9:30"), "09:30");
  assert.equal(normaliseTime("18h30"), "18:30");
  assert.equal(normaliseTime(" 17:45 "), "17:45");
  assert.equal(normaliseTime("abc"), "abc");

  const week = tidyWeek(weekFrom(null)).map((d) => {
    if (d.weekdayEn === "monday") return { ...d, startTime: "25:00" };
    if (d.weekdayEn === "tuesday") return { ...d, endTime: "" };
    if (d.weekdayEn === "wednesday") return { ...d, startTime: "18:00", endTime: "08:00" };
    if (d.weekdayEn === "thursday") return { ...d, startTime: "12:00", endTime: "12:00" };
    // A closed day is not checked.
    if (d.weekdayEn === "sunday") return { ...d, startTime: "xx" };
    return d;
  });
  assert.deepEqual(weekProblems(week), {
    monday: "invalidStart",
    tuesday: "invalidEnd",
    wednesday: "endBeforeStart",
    thursday: "endBeforeStart",
  });
});

Deno.test("queue form - name 2..50, colour required 3..9 and hex, order a whole number", () => {
  assert.deepEqual(queueProblems({ name: "", color: "", orderQueue: "" }), {
    name: "queues.errors.required",
    color: "queues.errors.required",
  });
  assert.deepEqual(queueProblems({ name: "A", color: "#1", orderQueue: "x" }), {
    name: "people.validation.tooShort",
    color: "people.validation.tooShort",
    orderQueue: "queues.errors.order",
  });
  assert.deepEqual(
    queueProblems({ name: "A".repeat(51), color: "#1234567890", orderQueue: "-1" }),
    {
      name: "people.validation.tooLong",
      color: "people.validation.tooLong",
      orderQueue: "queues.errors.order",
    },
  );
  assert.deepEqual(queueProblems({ name: "Suporte", color: "azul", orderQueue: "" }), {
    color: "queues.errors.invalidColor",
  });
  assert.deepEqual(queueProblems({ name: "Suporte", color: "#2196F3", orderQueue: "3" }), {});
  for (const color of QUEUE_COLORS) {
    assert.deepEqual(queueProblems({ name: "Ok", color, orderQueue: "" }), {}, color);
  }
});

Deno.test("options tree - the next option number follows the highest at that level", () => {
  assert.equal(nextOptionNumber([]), "1");
  assert.equal(nextOptionNumber([{ option: "1" }, { option: "2" }]), "3");
  assert.equal(nextOptionNumber([{ option: "10" }, { option: "2" }]), "11");
  assert.equal(nextOptionNumber([{ option: "a" }, { option: "b" }]), "3");
});

Deno.test("queues list - ordered like the server: orderQueue (empty last), then name", () => {
  const q = (id: number, name: string, orderQueue: number | null) =>
    ({ id, name, orderQueue }) as Parameters<typeof sortQueues>[0][number];
  assert.deepEqual(
    sortQueues([q(1, "b", null), q(2, "Z", 2), q(3, "a", null), q(4, "c", 1), q(5, "A", 2)])
      .map((x) => x.id),
    [4, 5, 2, 3, 1],
  );
});
