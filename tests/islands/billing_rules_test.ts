import assert from "node:assert/strict";
import { cpfCnpjDigits, invoiceDisplay } from "../../contract/billing_rules.ts";

Deno.test("invoice display - Pago if paid, Vencido when past due and unpaid, else Em Aberto", () => {
  assert.equal(invoiceDisplay({ status: "paid", dueDate: "2020-01-01" }, "2026-11-24"), "paid");
  assert.equal(invoiceDisplay({ status: "open", dueDate: "2026-11-23" }, "2026-11-24"), "overdue");
  assert.equal(invoiceDisplay({ status: "open", dueDate: "2026-11-24" }, "2026-11-24"), "open");
});

Deno.test("checkout - CPF or CNPJ digits, punctuation allowed; empty is none, else invalid", () => {
  assert.equal(cpfCnpjDigits("123.456.789-09"), "12345678909");
  assert.equal(cpfCnpjDigits("12.345.678/0001-95"), "12345678000195");
  assert.equal(cpfCnpjDigits(" "), "");
  assert.equal(cpfCnpjDigits("1234"), null);
});
