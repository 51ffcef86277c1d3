import { Cron } from "croner";
import { suspendCompany } from "../server/companies/service.ts";
import { runDueDates } from "../server/companies/due_dates.ts";
import type { AppDeps } from "../server/context.ts";
import { log } from "../server/log.ts";
import { countedJob } from "../server/metrics/registry.ts";

/**
 * The daily due-date pass (issue 11): marks overdue companies and, after DUE_DATE_GRACE_DAYS,
 * switches them off (sockets closed, connections stopped). It runs at start and every day at
 * 03:00 UTC. Its state is in companies.overdueSince / blockedAt (migration 0070): each mark is
 * written once (`IS NULL` in the UPDATE), so a tick that runs twice, or a restart mid-way, does
 * no harm. If the process dies between the commit and the suspension, its sessions died with it
 * and the restart does not bring back connections of inactive companies (whatsappsToRestore),
 * while login and every request already refuse the company.
 */
export async function dueDateTick(deps: AppDeps) {
  const run = await runDueDates(deps.db, deps.clock.now(), deps.config.dueDateGraceDays);
  for (const companyId of run.blocked) await suspendCompany(deps, companyId);
  if (run.markedOverdue.length || run.blocked.length) log.info("due dates", run);
  return run;
}

export function startDueDateJob(deps: AppDeps): () => Promise<void> {
  const tick = async () => {
    await countedJob("due_dates", () => dueDateTick(deps)).catch((error) =>
      log.error("due-date tick failed", { error })
    );
  };
  const job = new Cron("0 0 3 * * *", { protect: true, catch: true, timezone: "UTC" }, tick);
  const first = tick();
  return async () => {
    job.stop();
    await first;
    while (job.isBusy()) await new Promise((resolve) => setTimeout(resolve, 50));
  };
}
