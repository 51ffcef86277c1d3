import assert from "node:assert/strict";
import { addDays, addMonths, advancedDueDate, recurrenceMonths } from "./recurrence.ts";
import { invoiceDisplay } from "../../islands/billing/rules.ts";

Deno.test("recurrence - months per recurrence; unset or unknown is MENSAL", () => {
  assert.deepEqual(
    ["MENSAL", "BIMESTRAL", "TRIMESTRAL", "SEMESTRAL", "ANUAL", null, "XPTO"].map(
      recurrenceMonths,
    ),
    [1, 2, 3, 6, 12, 1, 1],
  );
});

Deno.test("recurrence - month arithmetic keeps the day or takes the month's last", () => {
  assert.equal(addMonths("2026-01-31", 1), "2026-02-28");
  assert.equal(addMonths("2028-01-31", 1), "2028-02-29");
  assert.equal(addMonths("2026-12-15", 12), "2027-12-15");
  assert.equal(addMonths("2026-08-31", 6), "2027-02-28");
  assert.equal(addDays("2026-12-28", 10), "2027-01-07");
});

Deno.test("recurrence - a payment extends from the later of today and the old due date", () => {
  assert.equal(advancedDueDate("2027-01-10", "MENSAL", "2026-12-20"), "2027-02-10");
  assert.equal(advancedDueDate("2026-12-01", "MENSAL", "2026-12-20"), "2027-01-20");
  assert.equal(advancedDueDate("2026-12-20T00:00:00.000Z", "ANUAL", "2026-12-20"), "2027-12-20");
  assert.equal(advancedDueDate(null, "TRIMESTRAL", "2026-12-20"), "2027-03-20");
});

Deno.test("invoice display - Pago if paid, Vencido when past due and unpaid, else Em Aberto", () => {
  assert.equal(invoiceDisplay({ status: "paid", dueDate: "2020-01-01" }, "2026-11-24"), "paid");
  assert.equal(invoiceDisplay({ status: "open", dueDate: "2026-11-23" }, "2026-11-24"), "overdue");
  assert.equal(invoiceDisplay({ status: "open", dueDate: "2026-11-24" }, "2026-11-24"), "open");
});
