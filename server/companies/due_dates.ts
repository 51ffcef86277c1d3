import type { Database } from "../../db/client.ts";
import { isoDate } from "../clock.ts";
import type { AppDeps } from "../context.ts";
import { log } from "../log.ts";
import { suspendCompany } from "./service.ts";
import { addDays, advancedDueDate } from "../billing/recurrence.ts";
import { blockOverdue, dueDateOf, markOverdue, updateCompanyRow } from "./repository.ts";

/**
 * An invoice was paid: the company's due date moves one recurrence ahead (billing's rule,
 * server/billing/recurrence.ts: from the later of today and the old due date), and the due-date
 * job's marks are cleared: a company that job blocked is switched on again. Runs in the caller's
 * transaction (payInvoice marks the invoice paid in the same one). Returns the new due date.
 */
export async function advanceDueDate(
  trx: Database,
  companyId: number,
  now: Date,
): Promise<string | undefined> {
  const company = await dueDateOf(trx, companyId);
  if (!company) return undefined;
  const dueDate = advancedDueDate(company.dueDate, company.recurrence, isoDate(now));
  await updateCompanyRow(trx, companyId, {
    dueDate,
    overdueSince: null,
    blockedAt: null,
    ...(company.blockedAt !== null ? { status: 1 } : {}),
    updatedAt: now.toISOString(),
  });
  return dueDate;
}

/** What one run of the due-date job changed. */
export type DueDateRun = { markedOverdue: number[]; blocked: number[] };

/**
 * The daily due-date pass (the `due_dates` job: dueDateTick below). Idempotent, its state in the
 * rows:
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
  const lastAllowed = addDays(today, -graceDays);
  const stamp = now.toISOString();
  return await db.transaction().execute(async (trx) => ({
    markedOverdue: await markOverdue(trx, today, stamp),
    blocked: await blockOverdue(trx, lastAllowed, stamp),
  }));
}

/**
 * One tick of the `due_dates` job (at start and daily at 03:00 UTC): marks and blocks (above), then
 * switches the blocked companies off (sockets closed, connections stopped). If the process dies
 * between the commit and the suspension, its sessions died with it and the restart does not bring
 * back connections of inactive companies (whatsappsToRestore), while login and every request
 * already refuse the company.
 */
export async function dueDateTick(deps: AppDeps): Promise<DueDateRun> {
  const run = await runDueDates(deps.db, deps.clock.now(), deps.config.dueDateGraceDays);
  for (const companyId of run.blocked) await suspendCompany(deps, companyId);
  if (run.markedOverdue.length || run.blocked.length) log.info("due dates", run);
  return run;
}
