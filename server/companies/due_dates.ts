import type { Database } from "../../db/client.ts";
import { isoDate } from "../clock.ts";
import { RECURRENCE_MONTHS } from "../../islands/lib/platform_types.ts";

/** YYYY-MM-DD `days` after `from` (UTC). */
export function addDays(from: Date, days: number): string {
  const d = new Date(from);
  d.setUTCDate(d.getUTCDate() + days);
  return isoDate(d);
}

/**
 * `date` (YYYY-MM-DD) plus whole months, clamped to the month's last day: 2026-01-31 + 1 month is
 * 2026-02-28, not March.
 */
export function addMonths(date: string, months: number): string {
  const y = Number(date.slice(0, 4));
  const m = Number(date.slice(5, 7)) - 1 + months;
  const d = Number(date.slice(8, 10));
  const last = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
  return isoDate(new Date(Date.UTC(y, m, Math.min(d, last))));
}

/** Months a recurrence advances by; an unknown or missing one is monthly. */
export function recurrenceMonths(recurrence: string | null): number {
  return RECURRENCE_MONTHS[recurrence as keyof typeof RECURRENCE_MONTHS] ?? 1;
}

/**
 * An invoice was paid: the company's due date moves one recurrence ahead of its current due date
 * (or of today, when it has none), and the due-date job's marks are cleared: a company that job
 * blocked is switched on again. Runs in the caller's transaction (the billing issue marks the
 * invoice paid in the same one). Returns the new due date.
 */
export async function advanceDueDate(
  trx: Database,
  companyId: number,
  now: Date,
): Promise<string | undefined> {
  const company = await trx.selectFrom("companies").select(["dueDate", "recurrence", "blockedAt"])
    .where("id", "=", companyId).executeTakeFirst();
  if (!company) return undefined;
  const from = company.dueDate?.slice(0, 10) ?? isoDate(now);
  const dueDate = addMonths(from, recurrenceMonths(company.recurrence));
  await trx.updateTable("companies").set({
    dueDate,
    overdueSince: null,
    blockedAt: null,
    ...(company.blockedAt !== null ? { status: 1 } : {}),
    updatedAt: now.toISOString(),
  }).where("id", "=", companyId).execute();
  return dueDate;
}

/** What one run of the due-date job changed. */
export type DueDateRun = { markedOverdue: number[]; blocked: number[] };

/**
 * The daily due-date pass (jobs/due_dates.ts). Idempotent, its state in the rows:
 * - a company past its due date gets overdueSince = today, once (`overdueSince IS NULL`);
 * - one overdue for more than `graceDays` is switched off (status 0) and gets blockedAt, once
 *   (`blockedAt IS NULL`; a company switched off by hand is left alone).
 * The platform's own company (a super user's) is never blocked. A second run the same day finds
 * nothing to do; a restart resumes from the rows.
 */
export async function runDueDates(
  db: Database,
  now: Date,
  graceDays: number,
): Promise<DueDateRun> {
  const today = isoDate(now);
  const lastAllowed = addDays(now, -graceDays);
  const stamp = now.toISOString();
  return await db.transaction().execute(async (trx) => {
    const platform = trx.selectFrom("users").select("companyId").where("super", "=", 1);
    const marked = await trx.updateTable("companies").set({ overdueSince: today, updatedAt: stamp })
      .where("dueDate", "is not", null).where("dueDate", "<", today)
      .where("overdueSince", "is", null).returning("id").execute();
    const blocked = await trx.updateTable("companies").set({
      status: 0,
      blockedAt: stamp,
      updatedAt: stamp,
    }).where("overdueSince", "is not", null).where("blockedAt", "is", null)
      .where("status", "=", 1).where("dueDate", "<", lastAllowed)
      .where("id", "not in", platform).returning("id").execute();
    return { markedOverdue: marked.map((r) => r.id), blocked: blocked.map((r) => r.id) };
  });
}
