import type { Database } from "../../db/client.ts";
import { crossCompany } from "../../db/tenancy.ts";
import type { Invoice, ReminderKind } from "../../db/schema.ts";
import { inReais } from "../../contract/money.ts";

/** SQL of the invoice reminders (server/billing/reminders.ts). */

export type OpenInvoice = Invoice & { companyName: string; sent: string | null };

/**
 * Every company's open invoices with the kinds already claimed (comma-separated), bar companies a
 * super user switched off by hand (status 0 without the due-date job's blockedAt): they are off,
 * not late. Across companies on purpose: the job's scan; one open invoice per company and period.
 */
export async function openInvoicesWithReminders(
  db: Database,
  now: string,
): Promise<OpenInvoice[]> {
  const rows = await crossCompany(db).selectFrom("invoices")
    .innerJoin("companies", "companies.id", "invoices.companyId")
    .where("invoices.status", "=", "open")
    .where((eb) =>
      eb.or([eb("companies.status", "=", 1), eb("companies.blockedAt", "is not", null)])
    )
    .selectAll("invoices").select("companies.name as companyName")
    .select((eb) =>
      eb.selectFrom("invoice_reminders as r").whereRef("r.invoiceId", "=", "invoices.id")
        .whereRef("r.companyId", "=", "invoices.companyId")
        // A claim whose lease ran out unsent (its process died) is due again.
        .where((w) =>
          w.or([
            w("r.sentAt", "is not", null),
            w("r.claimedUntil", "is", null),
            w("r.claimedUntil", ">=", now),
          ])
        )
        .select((e) => e.fn<string>("group_concat", ["r.kind"]).as("k")).as("sent")
    )
    .orderBy("invoices.id").execute();
  return rows.map((row) => inReais(row)) as OpenInvoice[];
}

/**
 * Claims a reminder before its mail is sent; false when it was claimed before (unique
 * invoice_reminders_once (companyId, invoiceId, kind): each kind is sent once).
 */
export async function claimReminder(
  db: Database,
  row: {
    companyId: number;
    invoiceId: number;
    kind: ReminderKind;
    now: string;
    /** Set: a claim to send, held until then; unset: a stage skipped for good. */
    until?: string;
  },
): Promise<boolean> {
  const result = await db.insertInto("invoice_reminders").values({
    companyId: row.companyId,
    invoiceId: row.invoiceId,
    kind: row.kind,
    createdAt: row.now,
    sentAt: null,
    claimedUntil: row.until ?? null,
  }).onConflict((oc) =>
    oc.columns(["companyId", "invoiceId", "kind"])
      .doUpdateSet({ claimedUntil: row.until ?? null, createdAt: row.now })
      // Only a claim to send whose lease ran out unsent is taken over.
      .where("invoice_reminders.sentAt", "is", null)
      .where("invoice_reminders.claimedUntil", "is not", null)
      .where("invoice_reminders.claimedUntil", "<", row.now)
  ).executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0;
}

export async function markReminderSent(
  db: Database,
  companyId: number,
  invoiceId: number,
  kind: ReminderKind,
  now: string,
) {
  await db.updateTable("invoice_reminders").set({ sentAt: now, claimedUntil: null })
    .where("companyId", "=", companyId)
    .where("invoiceId", "=", invoiceId).where("kind", "=", kind).execute();
}

/** A send failed: the claim goes, so the next tick tries this reminder again. */
export async function releaseReminder(
  db: Database,
  companyId: number,
  invoiceId: number,
  kind: ReminderKind,
) {
  await db.deleteFrom("invoice_reminders").where("companyId", "=", companyId)
    .where("invoiceId", "=", invoiceId).where("kind", "=", kind).where("sentAt", "is", null)
    .execute();
}

/** The company's admins' addresses (the profile, compared case-insensitively). */
export async function adminEmails(db: Database, companyId: number): Promise<string[]> {
  const rows = await db.selectFrom("users").select("email").where("companyId", "=", companyId)
    .where((eb) => eb(eb.fn("lower", ["profile"]), "=", "admin")).orderBy("id").execute();
  return rows.map((r) => r.email);
}
