import { Cron } from "croner";
import { reconcileCharges } from "../server/billing/confirmation.ts";
import { addDays } from "../server/billing/recurrence.ts";
import { ensureCurrentInvoice } from "../server/billing/service.ts";
import { isoDate } from "../server/clock.ts";
import type { AppDeps } from "../server/context.ts";
import { log } from "../server/log.ts";
import { countedJob } from "../server/metrics/registry.ts";

/**
 * Invoices (issue 12 point 1). Once a day, and once at start (a restart after a missed tick
 * catches up), every active company whose due date is within INVOICE_DAYS_AHEAD days gets the
 * invoice of that due date. The state is the invoices table itself: its unique key
 * invoices_period (companyId, dueDate) stops the duplicate, so a tick that runs twice, two ticks
 * at once or a restart mid-tick never make a second invoice for a period. After a payment the
 * company's due date moves and the next period's invoice comes when that date draws near.
 */
export async function createDueInvoices(deps: AppDeps): Promise<number[]> {
  const horizon = addDays(isoDate(deps.clock.now()), deps.config.billing.invoiceDaysAhead);
  const companies = await deps.db.selectFrom("companies")
    .select(["id", "dueDate", "planId", "recurrence"])
    .where("status", "=", 1).where("planId", "is not", null)
    .where("dueDate", "is not", null).where("dueDate", "<=", `${horizon}\uffff`)
    .orderBy("id").execute();
  const created: number[] = [];
  for (const company of companies) {
    try {
      const result = await ensureCurrentInvoice(deps, company);
      if (result?.created) created.push(result.invoice.id);
    } catch (error) {
      log.error("invoice creation failed", { companyId: company.id, error });
    }
  }
  if (created.length) log.info("invoices created", { count: created.length });
  return created;
}

/**
 * Starts the daily invoice tick (03:00 UTC, and once now) and the provider reconciliation
 * (every 10 minutes: charges whose webhook was lost). Returns a function that stops both and
 * waits for a running tick.
 */
export function startInvoiceJobs(deps: AppDeps): () => Promise<void> {
  const options = { protect: true, catch: true, timezone: "UTC" };
  const daily = new Cron("0 0 3 * * *", options, async () => {
    await countedJob("invoices", () => createDueInvoices(deps)).catch((error) =>
      log.error("invoice tick failed", { error })
    );
  });
  const reconcile = new Cron("0 */10 * * * *", options, async () => {
    await countedJob("reconcile", () => reconcileCharges(deps)).catch((error) =>
      log.error("reconcile tick failed", { error })
    );
  });
  daily.trigger();
  return async () => {
    daily.stop();
    reconcile.stop();
    while (daily.isBusy() || reconcile.isBusy()) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
}
