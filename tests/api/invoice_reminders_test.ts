import assert from "node:assert/strict";
import { hasError, parsePix } from "pix-utils";
import { createCompany, createTestApp, restartTestApp, type TestApp } from "../helpers/app.ts";
import { decodeQuotedPrintable, startFakeSmtp } from "../fakes/smtp.ts";
import { createDueInvoices } from "../../server/billing/service.ts";
import { dueReminders, sendInvoiceReminders } from "../../server/billing/reminders.ts";
import { claimReminder } from "../../server/billing/reminders_repository.ts";

/**
 * Issue 29 item 2: reminder mails to a company's admins when an invoice is created, 3 and 1 days
 * before its due date and once overdue, each sent once (unique invoice_reminders_once), across
 * restarts. The test clock starts at 2026-11-22T12:00Z.
 */

const PIX = {
  PIX_KEY: "pix@balcao.test",
  PIX_MERCHANT_NAME: "Balcão",
  PIX_MERCHANT_CITY: "São Paulo",
};

async function kindsOf(t: TestApp, invoiceId: number) {
  const rows = await t.deps.db.selectFrom("invoice_reminders").select(["kind", "sentAt"])
    .where("invoiceId", "=", invoiceId).where(
      "companyId",
      "in",
      (eb) => eb.selectFrom("invoices").select("companyId").where("id", "=", invoiceId),
    ).orderBy("id")
    .execute();
  return rows.map((r) => `${r.kind}${r.sentAt ? "" : " (skipped)"}`);
}

Deno.test("invoice reminders - which kinds a day sends: created, then the latest stage reached", () => {
  assert.deepEqual(dueReminders("2026-11-30", "2026-11-22"), { send: ["created"], skip: [] });
  assert.deepEqual(dueReminders("2026-11-30", "2026-11-27"), {
    send: ["created", "due_in_3"],
    skip: [],
  });
  assert.deepEqual(dueReminders("2026-11-30", "2026-11-30"), {
    send: ["created", "due_in_1"],
    skip: ["due_in_3"],
  });
  // The due date is the last day of use: overdue from the day after.
  assert.deepEqual(dueReminders("2026-11-30", "2026-12-01"), {
    send: ["created", "overdue"],
    skip: ["due_in_3", "due_in_1"],
  });
});

Deno.test("invoice reminders - each kind mailed once to the admins, with the Pix code; across restarts; not to a company switched off by hand", async () => {
  const smtp = startFakeSmtp();
  let t = await createTestApp({
    ...PIX,
    SMTP_URL: smtp.url(),
    SMTP_FROM: "Balcão <no-reply@balcao.test>",
  });
  try {
    const soon = await createCompany(t, "Soon", { dueDate: "2026-11-30", plan: { value: 49.9 } });
    const hand = await createCompany(t, "Hand", { dueDate: "2026-11-28" });
    await createCompany(t, "Later", { dueDate: "2027-03-01" });
    await createDueInvoices(t.deps);
    await t.deps.db.updateTable("companies").set({ status: 0 }).where("id", "=", hand.id)
      .execute();
    const invoice = await t.deps.db.selectFrom("invoices").selectAll()
      .where("companyId", "=", soon.id).executeTakeFirstOrThrow();

    assert.equal(await sendInvoiceReminders(t.deps), 1);
    const [created] = await smtp.received(1);
    assert.deepEqual(created.to, ["admin@soon.test"]);
    const text = decodeQuotedPrintable(created.data);
    assert.match(text, /Nova fatura dispon/);
    assert.match(text, /R\$ 49,90/);
    assert.match(text, /30\/11\/2026/);
    assert.match(text, /\/financeiro/);
    const code = text.match(/Pix copia e cola:\r?\n(.+)/)?.[1]?.trim();
    assert.ok(code, "the Pix copy-and-paste code is in the mail");
    assert.ok(!hasError(parsePix(code!)));
    // A second tick the same day sends nothing.
    assert.equal(await sendInvoiceReminders(t.deps), 0);

    t.clock.set("2026-11-27T12:00:00.000Z");
    assert.equal(await sendInvoiceReminders(t.deps), 1);
    t = await restartTestApp(t);
    assert.equal(await sendInvoiceReminders(t.deps), 0, "a restart sends nothing again");
    t.clock.set("2026-11-29T12:00:00.000Z");
    assert.equal(await sendInvoiceReminders(t.deps), 1);
    t.clock.set("2026-11-30T12:00:00.000Z");
    assert.equal(await sendInvoiceReminders(t.deps), 0);
    t.clock.set("2026-12-01T12:00:00.000Z");
    assert.equal(await sendInvoiceReminders(t.deps), 1);
    t = await restartTestApp(t);
    assert.equal(await sendInvoiceReminders(t.deps), 0);

    const mails = await smtp.received(4);
    assert.equal(smtp.mails.length, 4);
    // The body's first line is the subject's text.
    const subjects = mails.map((m) => decodeQuotedPrintable(m.data).split(/\r?\n\r?\n/)[1]);
    assert.match(subjects[1] ?? "", /vence em 3 dias/);
    assert.match(subjects[2] ?? "", /vence amanh/);
    assert.match(subjects[3] ?? "", /venceu em 30\/11\/2026/);
    assert.deepEqual(await kindsOf(t, invoice.id), [
      "created",
      "due_in_3",
      "due_in_1",
      "overdue",
    ]);
    // Nothing for the company switched off by hand; paid invoices are not reminded either.
    assert.ok(mails.every((m) => !m.to.includes("admin@hand.test")));
  } finally {
    await t.close();
    await smtp.close();
  }
});

Deno.test("invoice reminders - a job that did not run for days sends the latest stage only; none without SMTP", async () => {
  const smtp = startFakeSmtp();
  const t = await createTestApp({ SMTP_URL: smtp.url() });
  try {
    const late = await createCompany(t, "Late", { dueDate: "2026-11-24" });
    await createDueInvoices(t.deps);
    const invoice = await t.deps.db.selectFrom("invoices").select("id")
      .where("companyId", "=", late.id).executeTakeFirstOrThrow();
    t.clock.set("2026-11-26T12:00:00.000Z");
    assert.equal(await sendInvoiceReminders(t.deps), 2);
    assert.deepEqual(await kindsOf(t, invoice.id), [
      "due_in_3 (skipped)",
      "due_in_1 (skipped)",
      "created",
      "overdue",
    ]);
    const mails = await smtp.received(2);
    // Static provider without PIX_KEY: no Pix code in the mail.
    assert.ok(mails.every((m) => !decodeQuotedPrintable(m.data).includes("Pix copia e cola")));
  } finally {
    await t.close();
    await smtp.close();
  }
  const noMail = await createTestApp();
  try {
    await createCompany(noMail, "Soon", { dueDate: "2026-11-25" });
    await createDueInvoices(noMail.deps);
    assert.equal(await sendInvoiceReminders(noMail.deps), 0);
  } finally {
    await noMail.close();
  }
});

Deno.test("invoice reminders - a claim whose process died before the mail went out is mailed by a later tick, once", async () => {
  const smtp = startFakeSmtp();
  const t = await createTestApp({
    ...PIX,
    SMTP_URL: smtp.url(),
    SMTP_FROM: "no-reply@balcao.test",
  });
  try {
    const company = await createCompany(t, "Cut", { dueDate: "2026-11-30" });
    await createDueInvoices(t.deps);
    const invoice = await t.deps.db.selectFrom("invoices").selectAll()
      .where("companyId", "=", company.id).executeTakeFirstOrThrow();
    // What a process that died between its claim and its mail leaves: the claim, unsent.
    const claimedAt = t.clock.now();
    assert.ok(
      await claimReminder(t.deps.db, {
        companyId: company.id,
        invoiceId: invoice.id,
        kind: "created",
        now: claimedAt.toISOString(),
        until: new Date(claimedAt.getTime() + 10 * 60_000).toISOString(),
      }),
    );
    // While its lease runs, nobody else mails it.
    assert.equal(await sendInvoiceReminders(t.deps), 0);
    t.clock.set(new Date(claimedAt.getTime() + 11 * 60_000).toISOString());
    assert.equal(await sendInvoiceReminders(t.deps), 1, "the stale claim is taken and mailed");
    const [mail] = await smtp.received(1);
    assert.match(decodeQuotedPrintable(mail.data), /Nova fatura dispon/);
    assert.deepEqual(await kindsOf(t, invoice.id), ["created"]);
    t.clock.set(new Date(claimedAt.getTime() + 30 * 60_000).toISOString());
    assert.equal(await sendInvoiceReminders(t.deps), 0, "sent: never again");
    assert.equal(smtp.mails.length, 1);
  } finally {
    await t.close();
    await smtp.close();
  }
});
