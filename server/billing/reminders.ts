import type { ReminderKind } from "../../db/schema.ts";
import { isoDate } from "../clock.ts";
import type { AppDeps } from "../context.ts";
import { log } from "../log.ts";
import type { Mailer } from "../mail/mailer.ts";
import { staticPixCode } from "./pix.ts";
import { addDays } from "./recurrence.ts";
import * as repo from "./reminders_repository.ts";

/**
 * Invoice reminders by email (issue 29 item 2), to the company's admins: when an invoice is
 * created, 3 days and 1 day before its due date, and once it is overdue (the day after the due
 * date, the last day the company may use). Each kind is sent once per invoice: the row claimed
 * in invoice_reminders before the mail goes (unique invoice_reminders_once (companyId, invoiceId,
 * kind)) stops a second mail of that kind, whatever ticks twice, runs in two processes or restarts.
 * A tick that finds several kinds due (the job did not run for days) sends `created` and the
 * latest stage only: the earlier stages are claimed without a mail, so no pile of late reminders.
 * A failed send releases its claim: the next tick tries again. Without SMTP_URL it does nothing.
 */
export const REMINDER_TEXTS: Record<ReminderKind, (due: string) => string> = {
  created: (due) => `Nova fatura disponível, com vencimento em ${due}`,
  due_in_3: (due) => `Sua fatura vence em 3 dias (${due})`,
  due_in_1: (due) => `Sua fatura vence amanhã (${due})`,
  overdue: (due) => `Sua fatura venceu em ${due}`,
};

const STAGES: { kind: ReminderKind; from: (dueDate: string) => string }[] = [
  { kind: "due_in_3", from: (d) => addDays(d, -3) },
  { kind: "due_in_1", from: (d) => addDays(d, -1) },
  { kind: "overdue", from: (d) => addDays(d, 1) },
];

/** Which kinds are due today for an invoice: `created`, and the latest stage whose day came. */
export function dueReminders(dueDate: string, today: string): {
  send: ReminderKind[];
  skip: ReminderKind[];
} {
  const reached = STAGES.filter((s) => today >= s.from(dueDate)).map((s) => s.kind);
  const latest = reached.at(-1);
  return {
    send: latest ? ["created", latest] : ["created"],
    skip: reached.slice(0, -1),
  };
}

function ddmmyyyy(date: string): string {
  return `${date.slice(8, 10)}/${date.slice(5, 7)}/${date.slice(0, 4)}`;
}

function money(value: number): string {
  return `R$ ${value.toFixed(2).replace(".", ",")}`;
}

/** The Pix copy-and-paste code of the invoice, when the provider supports one without a charge. */
async function pixCode(deps: AppDeps, invoice: repo.OpenInvoice): Promise<string | null> {
  if (invoice.pixPayload) return invoice.pixPayload;
  const billing = deps.config.billing;
  if (billing.provider !== "static" || !billing.pixKey) return null;
  try {
    return await staticPixCode({
      pixKey: billing.pixKey,
      merchantName: billing.pixMerchantName,
      merchantCity: billing.pixMerchantCity,
      amount: invoice.value,
      txid: `FATURA${invoice.id}`,
      info: `Fatura ${invoice.id}`,
    });
  } catch {
    return null;
  }
}

async function reminderMail(deps: AppDeps, invoice: repo.OpenInvoice, kind: ReminderKind) {
  const due = ddmmyyyy(invoice.dueDate);
  const subject = `${REMINDER_TEXTS[kind](due)} - ${invoice.companyName}`;
  const pix = await pixCode(deps, invoice);
  const lines = [
    `${REMINDER_TEXTS[kind](due)}.`,
    "",
    `Fatura ${invoice.id}: ${invoice.detail}`,
    `Valor: ${money(invoice.value)}`,
    `Vencimento: ${due}`,
    "",
    `Pague em ${deps.config.publicUrl}/financeiro`,
    ...(pix ? ["", "Pix copia e cola:", pix] : []),
  ];
  return { subject, text: lines.join("\n") };
}

/**
 * How long a claim to send holds: past it, a mail still unsent (its process died between the
 * claim and the send) is claimed and sent by the next tick. At least once, then: a death after
 * the mail server took it and before `sentAt` was written sends it twice.
 */
const CLAIM_MS = 10 * 60_000;

async function sendOne(
  deps: AppDeps,
  mailer: Mailer,
  invoice: repo.OpenInvoice,
  kind: ReminderKind,
  to: string[],
): Promise<boolean> {
  const key = { companyId: invoice.companyId, invoiceId: invoice.id, kind };
  const now = deps.clock.now().toISOString();
  const until = new Date(deps.clock.now().getTime() + CLAIM_MS).toISOString();
  if (!await repo.claimReminder(deps.db, { ...key, now, until })) return false;
  try {
    const mail = await reminderMail(deps, invoice, kind);
    await mailer.send({ to: to.join(", "), ...mail });
  } catch (error) {
    log.error("invoice reminder failed", { ...key, error });
    await repo.releaseReminder(deps.db, invoice.companyId, invoice.id, kind);
    return false;
  }
  await repo.markReminderSent(deps.db, invoice.companyId, invoice.id, kind, now);
  return true;
}

/** One tick of the `invoice_reminders` job: the reminders due now. Returns how many were sent. */
export async function sendInvoiceReminders(deps: AppDeps): Promise<number> {
  const mailer = deps.mailer;
  if (!mailer) return 0;
  const today = isoDate(deps.clock.now());
  let sent = 0;
  const scanAt = deps.clock.now().toISOString();
  for (const invoice of await repo.openInvoicesWithReminders(deps.db, scanAt)) {
    const claimed = new Set(invoice.sent?.split(",") ?? []);
    const { send, skip } = dueReminders(invoice.dueDate.slice(0, 10), today);
    if (send.every((k) => claimed.has(k))) continue;
    const to = await repo.adminEmails(deps.db, invoice.companyId);
    if (to.length === 0) continue;
    const now = deps.clock.now().toISOString();
    for (const kind of skip) {
      if (claimed.has(kind)) continue;
      // Passed while the job was not running: claimed without a mail (sentAt stays null).
      await repo.claimReminder(deps.db, { ...keyOf(invoice), kind, now });
    }
    for (const kind of send) {
      if (!claimed.has(kind) && await sendOne(deps, mailer, invoice, kind, to)) sent++;
    }
  }
  if (sent) log.info("invoice reminders sent", { count: sent });
  return sent;
}

function keyOf(invoice: repo.OpenInvoice) {
  return { companyId: invoice.companyId, invoiceId: invoice.id };
}
