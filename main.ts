import { systemClock } from "./server/clock.ts";
import { ConfigError, loadConfig } from "./server/config.ts";
import { buildDeps, closeDeps } from "./server/deps.ts";
import { createApp } from "./server/app.ts";
import { startHeartbeat } from "./server/realtime/socket.ts";
import { announceFirstStart } from "./server/seed.ts";
import { warnIfDataKeyInDatabase } from "./server/auth/secrets.ts";
import { log } from "./server/log.ts";
import { startScheduleJob } from "./jobs/schedules.ts";
import { startDueDateJob } from "./jobs/due_dates.ts";
import { startInvoiceJobs } from "./jobs/invoices.ts";
import { startCampaignJob } from "./jobs/campaigns.ts";
import { startInactiveTicketsJob } from "./jobs/inactive_tickets.ts";
import { startWebhookJob } from "./jobs/webhooks.ts";
import { startBackupJob } from "./jobs/backups.ts";
import { startLeaseLoop } from "./server/whatsapp/sessions/lease_loop.ts";

// Wiring only (DESIGN 'One process'): config -> db -> hub -> app -> serve; SIGTERM closes in order.
let config;
try {
  config = loadConfig(Deno.env.toObject());
} catch (error) {
  if (error instanceof ConfigError) {
    // deno-lint-ignore no-console
    console.error(error.message);
    Deno.exit(1);
  }
  throw error;
}

const { deps, firstStart } = await buildDeps(config, systemClock);
announceFirstStart(firstStart);
warnIfDataKeyInDatabase(config);
const app = createApp(deps);
const stopHeartbeat = startHeartbeat(deps.hub);

const server = Deno.serve(
  {
    port: config.port,
    hostname: config.host,
    onListen: ({ port }) =>
      log.info("listening", { url: `http://localhost:${port}`, publicUrl: config.publicUrl }),
  },
  (request, info) => app.fetch(request, { remoteAddr: info.remoteAddr.hostname }),
);

// WhatsApp sessions that were connected come back once the app can serve their events;
// closeDeps (on SIGTERM) stops them after in-flight sends and messages are written.
deps.sessions.restoreAll().catch((error) => log.error("session restore failed", { error }));
// Jobs tick on croner; their state is in the database (DESIGN 'Jobs').
const stopSchedules = startScheduleJob(deps);
const stopDueDates = startDueDateJob(deps);
const stopInvoices = startInvoiceJobs(deps);
const stopCampaigns = startCampaignJob(deps);
const stopInactiveTickets = startInactiveTicketsJob(deps);
const stopWebhooks = startWebhookJob(deps);
const stopBackups = startBackupJob(deps);
// Several processes on one database (SESSION_LEASE_SECONDS): renew, hand over, take over.
const stopLeases = startLeaseLoop(deps.sessions);

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  log.info("shutting down", { signal });
  stopHeartbeat();
  // A tick in progress finishes its sends before the database closes.
  await stopSchedules();
  await stopDueDates();
  await stopInvoices();
  await stopCampaigns();
  await stopInactiveTickets();
  await stopWebhooks();
  await stopBackups();
  await stopLeases();
  // Open WebSockets count as in-flight requests for server.shutdown(): close them first, and
  // bound the wait so that a stuck client cannot keep the process from stopping.
  deps.hub.closeAll();
  await Promise.race([server.shutdown(), new Promise((resolve) => setTimeout(resolve, 10_000))]);
  await closeDeps(deps);
  Deno.exit(0);
}
Deno.addSignalListener("SIGTERM", () => shutdown("SIGTERM"));
Deno.addSignalListener("SIGINT", () => shutdown("SIGINT"));
