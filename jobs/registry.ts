import { pruneAuditLogs } from "../server/audit/service.ts";
import { processPendingWebhooks } from "../server/whatsapp/providers/cloud_api/service.ts";
import { syncDueTemplates } from "../server/whatsapp/providers/cloud_api/templates.ts";
import { Cron } from "croner";
import { inBackground } from "../db/priority.ts";
import { sendInvoiceReminders } from "../server/billing/reminders.ts";
import { reconcileCharges } from "../server/billing/confirmation.ts";
import { createDueInvoices } from "../server/billing/service.ts";
import { dispatchTick } from "../server/campaigns/dispatcher.ts";
import { checkPendingNumbers } from "../server/campaigns/number_check.ts";
import { dueDateTick } from "../server/companies/due_dates.ts";
import { distributionTick } from "../server/distribution/tick.ts";
import type { AppDeps } from "../server/context.ts";
import { log } from "../server/log.ts";
import { countedJob } from "../server/metrics/registry.ts";
import { takeScheduledBackup } from "../server/ops/backup.ts";
import { sweepOrphanMedia } from "../server/media/sweep.ts";
import { retryPendingMedia } from "../server/whatsapp/inbound/pending_media.ts";
import { PING_INTERVAL_MS } from "../server/realtime/events.ts";
import { pingMembers } from "../server/realtime/socket.ts";
import { scheduleTick } from "../server/schedules/sending.ts";
import { PRESENCE_REFRESH_MS, presenceTick } from "../server/users/presence.ts";
import { expireInactiveTickets } from "../server/tickets/inactive.ts";
import { webhookCapture } from "../server/webhooks/capture.ts";
import { deliverAllDue } from "../server/webhooks/delivery.ts";
import { pushCapture } from "../server/push/capture.ts";
import { assistTick } from "../server/assist/jobs.ts";
import { sendDuePushes } from "../server/push/send.ts";
import { recoverOutgoing } from "../server/events/outgoing.ts";
import { leaseIntervalMs, leaseTick } from "../server/whatsapp/sessions/lease_loop.ts";

/**
 * Every background job of the process, in one list (DESIGN 'Jobs'). A job is a thin tick: the
 * work is a service function whose state is in the database, so a tick that runs twice, or a
 * restart in the middle, does no harm (each service says which unique key or guarded UPDATE stops
 * which duplicate). main.ts starts them all with `startJobs` and stops them in one loop.
 *
 * How a job runs (`startJobs`):
 * - one tick at a time: a timer firing while a tick runs is skipped (the next one comes), while a
 *   `wake` during a tick asks for one more right after it (nothing queued is left waiting);
 * - each tick is counted, and a failure counted and logged (balcao_job_runs_total{job},
 *   balcao_job_failures_total{job}); the next tick tries again;
 * - while the data folder cannot be written (deps.storage, issue 34) a tick is skipped: the state's
 *   one log line says so, the tick only probes the storage, and the jobs resume by themselves at
 *   the first tick after a probe write works; a tick failing for lack of space starts that state
 *   instead of logging a failure per tick;
 * - stopping aborts the tick's signal, stops the timers, lets `drain` finish what may still wake
 *   the job, and waits for the running tick (a tick in progress finishes its sends before the
 *   database closes).
 */
export type Job = {
  /** The metrics label and the logs' name. */
  name: string;
  /** When it ticks: a croner pattern (seconds first) or every `ms`; undefined leaves it off. */
  every: (deps: AppDeps) => { cron: string; timezone?: "UTC" } | { ms: number } | undefined;
  /** Also once at start (a restart after a missed daily tick catches up). */
  atStart?: boolean;
  tick: (deps: AppDeps, signal: AbortSignal) => unknown;
  /** Runs right after `tick` in the same turn (never alongside it), counted under its own name. */
  then?: { name: string; tick: (deps: AppDeps, signal: AbortSignal) => unknown };
  /** Wires what asks for a tick at once (a webhook delivery queued). */
  wake?: (deps: AppDeps, run: () => void) => void;
  /** Runs on while storage fails (it writes nothing: pings). */
  writesNothing?: true;
  /** Awaited on stop before the running tick: work that may still wake the job. */
  drain?: (deps: AppDeps) => Promise<void>;
};

const DAILY_03_UTC = { cron: "0 0 3 * * *", timezone: "UTC" } as const;

export const JOBS: readonly Job[] = [
  // Due schedules go to the outbox; then the provider's later refusals are recorded. Twice is
  // harmless: each send is the outbox row and ENVIADA in one transaction, read as PENDENTE.
  { name: "schedules", every: () => ({ cron: "*/30 * * * * *" }), tick: scheduleTick },
  // Cloud API webhook posts stored but not processed (a restart after the 200); twice is
  // harmless: messages are known by (connection, id), a post is done once processedAt is set.
  {
    name: "cloud_webhooks",
    every: () => ({ cron: "15 * * * * *" }),
    atStart: true,
    tick: processPendingWebhooks,
  },
  // Cloud API templates, each connection hourly (whatsapp_cloud.templatesSyncedAt is the state; a
  // failed sync keeps it, so the next tick retries). Twice is harmless: the list is replaced whole
  // under the unique key whatsapp_cloud_templates_key (companyId, whatsappId, name, language).
  {
    name: "cloud_templates",
    every: () => ({ cron: "30 */5 * * * *" }),
    atStart: true,
    tick: syncDueTemplates,
  },
  // Overdue companies marked, then blocked after DUE_DATE_GRACE_DAYS; each mark once (`IS NULL`).
  { name: "due_dates", every: () => DAILY_03_UTC, atStart: true, tick: dueDateTick },
  // The invoice of each period; unique invoices_period (companyId, dueDate) stops a second one.
  { name: "invoices", every: () => DAILY_03_UTC, atStart: true, tick: createDueInvoices },
  // Invoice reminders by email (created, 3 and 1 days before, overdue), hourly and at start; the
  // claim's unique key invoice_reminders_once (companyId, invoiceId, kind) sends each kind once.
  {
    name: "invoice_reminders",
    every: () => ({ cron: "0 5 * * * *", timezone: "UTC" }),
    atStart: true,
    tick: sendInvoiceReminders,
  },
  // Audit rows past AUDIT_RETENTION_DAYS (issue 30); deleting by age twice deletes nothing more.
  { name: "audit_retention", every: () => DAILY_03_UTC, atStart: true, tick: pruneAuditLogs },
  // Charges whose payment webhook was lost; payInvoice pays only an open invoice.
  {
    name: "reconcile",
    every: () => ({ cron: "0 */10 * * * *", timezone: "UTC" }),
    tick: reconcileCharges,
  },
  // The campaign dispatcher, then the background WhatsApp check of contact-list numbers (after
  // it, never alongside: both ask the same providers). Each shipping row is claimed by a guarded
  // UPDATE before its outbox rows are written; unique (campaignId, number) stops a second row.
  {
    name: "campaigns",
    every: () => ({ cron: "* * * * * *" }),
    tick: dispatchTick,
    then: { name: "contact_list_check", tick: checkPendingNumbers },
  },
  // The bot phase's time limits: hand-over to people, closing inactive tickets; each change is
  // one UPDATE guarded by the status and updatedAt that were read.
  {
    name: "inactive_tickets",
    every: () => ({ cron: "*/30 * * * * *" }),
    tick: expireInactiveTickets,
  },
  // Issue 26: untouched tickets of attendants offline too long go back and out again (takeBack
  // guarded by the user and distributedAt read), waiting tickets given out (giveTicket guarded by
  // status, user and capacity), breaches recorded once (slaBreachedAt IS NULL in the UPDATE).
  {
    name: "distribution",
    every: () => ({ cron: "*/20 * * * * *" }),
    tick: distributionTick,
  },
  // The webhook delivery queue: every 5 s for retries falling due, and at once on a new event. A
  // row is claimed before it is sent; unique (webhookId, eventId) stops a second delivery row.
  {
    name: "webhooks",
    every: () => ({ cron: "*/5 * * * * *" }),
    atStart: true,
    tick: deliverAllDue,
    wake: (deps, run) => webhookCapture(deps.events)?.onQueued(run),
    drain: async (deps) => await webhookCapture(deps.events)?.idle(),
  },
  // Issue 43 item 2(c): outgoing events (webhooks, pushes) noted with their change but never
  // queued, because the process that committed died first. Each note is claimed (a lease) before
  // it is rebuilt; the unique outgoing_events_once (eventKey), and the queues' own keys under it,
  // make a twice-run tick or N processes queue each event once.
  {
    name: "outgoing",
    every: () => ({ cron: "*/10 * * * * *" }),
    atStart: true,
    tick: recoverOutgoing,
  },
  // Web Push (issue 42): at once when pushes are queued, and every 5 s for retries. Each row is
  // claimed by a guarded UPDATE (pending -> sending) before it is sent; the unique
  // push_deliveries_once (subscriptionId, eventKey) stops a second row for one fact and device.
  {
    name: "push",
    every: () => ({ cron: "*/5 * * * * *" }),
    atStart: true,
    tick: sendDuePushes,
    wake: (deps, run) => pushCapture(deps.events)?.onQueued(run),
    drain: async (deps) => await pushCapture(deps.events)?.idle(),
  },
  // Issue 48: the attendant's assistant (transcriptions, summaries on transfer and reopen), every
  // 5 s and at once on a contact's voice note or a ticket change. Rows of assist_jobs are made by
  // triggers with the fact; each is claimed by an UPDATE guarded by the status and runAfter read,
  // and the unique assist_jobs_once (companyId, kind, targetId, reason) stops a doubled
  // transcription.
  {
    name: "assist",
    every: () => ({ cron: "*/5 * * * * *" }),
    atStart: true,
    tick: assistTick,
    wake: (deps, run) => {
      deps.events.on("message.created", (e) => {
        if (!e.message.fromMe && e.message.mediaType === "audio") run();
      });
      deps.events.on("ticket.updated", (e) => {
        if (
          e.before && (e.before.userId !== e.ticket.userId || e.before.status !== e.ticket.status)
        ) run();
      });
    },
  },
  // BACKUP_CRON (none when unset); VACUUM INTO on the database thread, never over a file. Each
  // backup is named by its tick's moment (to the second: every process on the data folder ticks
  // at the same moments) and the first tick to reserve that name writes it, so a tick that runs
  // twice, here or in another process, writes one backup.
  {
    name: "backup",
    every: (deps) => deps.config.backupCron ? { cron: deps.config.backupCron } : undefined,
    tick: (deps) =>
      takeScheduledBackup(
        deps.config,
        new Date(Math.floor(deps.clock.now().getTime() / 1000) * 1000),
      ),
  },
  // Inbound media kept pending while storage failed (issue 34), downloaded again and stored; the
  // row is settled by an UPDATE guarded by mediaPending = 1, so a second tick stores nothing more.
  {
    name: "media_retry",
    every: () => ({ cron: "*/10 * * * * *" }),
    tick: (deps) => retryPendingMedia(deps),
    wake: (deps, run) => deps.storage.onWritable(run),
  },
  // Media files no row points to, older than an hour (issue 34): at start and daily. Only a file
  // that no row names is removed, so a second run finds nothing more to do.
  { name: "media_sweep", every: () => DAILY_03_UTC, atStart: true, tick: sweepOrphanMedia },
  // Several processes on one database (SESSION_LEASE_SECONDS): renew, hand over, take over.
  {
    name: "leases",
    every: (deps) => {
      const ms = leaseIntervalMs(deps.sessions);
      return ms === undefined ? undefined : { ms };
    },
    tick: (deps, signal) => leaseTick(deps.sessions, signal),
  },
  // Who has a socket open, per process (issue 43): this process's rows refreshed, dead ones'
  // swept; the primary key (companyId, userId, instanceId) keeps one row per user and process.
  {
    name: "presence",
    every: () => ({ ms: PRESENCE_REFRESH_MS }),
    tick: presenceTick,
  },
  // Sockets that stopped answering are closed; the others are pinged.
  {
    name: "heartbeat",
    every: () => ({ ms: PING_INTERVAL_MS }),
    tick: (deps) => pingMembers(deps.hub),
    writesNothing: true,
  },
];

type Running = { stop: () => Promise<void> };

function startJob(deps: AppDeps, job: Job): Running | undefined {
  const when = job.every(deps);
  if (!when) return undefined;
  const controller = new AbortController();
  const { signal } = controller;
  const step = async (name: string, tick: NonNullable<Job["then"]>["tick"]) => {
    // Paused while storage fails: the tick becomes a probe, the work waits for the next one.
    if (!job.writesNothing && await deps.storage.probe() !== "ok") return;
    // Background lane (db/priority.ts): a tick's transactions let the interactive ones go first.
    await countedJob(name, () => inBackground(async () => await tick(deps, signal))).catch(
      (error) => {
        if (!deps.storage.report(error, `job ${name}`)) {
          log.error("job failed", { job: name, error });
        }
      },
    );
  };
  let running: Promise<void> | undefined;
  let again = false;
  const run = (coalesce: boolean) => {
    if (signal.aborted) return;
    if (running) {
      if (coalesce) again = true;
      return;
    }
    running = (async () => {
      do {
        again = false;
        await step(job.name, job.tick);
        if (job.then && !signal.aborted) await step(job.then.name, job.then.tick);
      } while (again && !signal.aborted);
    })().finally(() => running = undefined);
  };
  let stopTimer: () => void;
  if ("cron" in when) {
    const cron = new Cron(when.cron, { timezone: when.timezone }, () => run(false));
    stopTimer = () => cron.stop();
  } else {
    const interval = setInterval(() => run(false), when.ms);
    stopTimer = () => clearInterval(interval);
  }
  job.wake?.(deps, () => run(true));
  if (job.atStart) run(false);
  return {
    stop: async () => {
      controller.abort();
      stopTimer();
      await job.drain?.(deps);
      await running;
    },
  };
}

/**
 * Starts the jobs (all of JOBS unless told otherwise); the returned function stops them all and
 * waits for the ticks in progress.
 */
export function startJobs(deps: AppDeps, jobs: readonly Job[] = JOBS): () => Promise<void> {
  const started = jobs.map((job) => startJob(deps, job))
    .filter((r): r is Running => r !== undefined);
  return async () => {
    await Promise.all(started.map((r) => r.stop()));
  };
}
