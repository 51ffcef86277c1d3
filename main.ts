import { systemClock } from "./server/clock.ts";
import { ConfigError, loadConfig } from "./server/config.ts";
import { buildDeps, closeDeps } from "./server/deps.ts";
import { createApp } from "./server/app.ts";
import { announceFirstStart } from "./server/seed.ts";
import { warnIfDataKeyInDatabase } from "./server/auth/secrets.ts";
import { log } from "./server/log.ts";
import { startJobs } from "./jobs/registry.ts";
import { SchemaTooNewError } from "./db/migrate.ts";

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

let built;
try {
  built = await buildDeps(config, systemClock);
} catch (error) {
  // An older release on a newer database: a message naming both, never a run on that schema.
  if (error instanceof SchemaTooNewError) {
    // deno-lint-ignore no-console
    console.error(error.message);
    Deno.exit(1);
  }
  throw error;
}
const { deps, firstStart } = built;
announceFirstStart(firstStart);
warnIfDataKeyInDatabase(config);
const app = createApp(deps);

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
// Every job, from one list (jobs/registry.ts); their state is in the database (DESIGN 'Jobs').
const stopJobs = startJobs(deps);

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  log.info("shutting down", { signal });
  // A tick in progress finishes its sends before the database closes.
  await stopJobs();
  // Open WebSockets count as in-flight requests for server.shutdown(): close them first, and
  // bound the wait so that a stuck client cannot keep the process from stopping.
  deps.hub.closeAll();
  await Promise.race([server.shutdown(), new Promise((resolve) => setTimeout(resolve, 10_000))]);
  await closeDeps(deps);
  Deno.exit(0);
}
Deno.addSignalListener("SIGTERM", () => shutdown("SIGTERM"));
Deno.addSignalListener("SIGINT", () => shutdown("SIGINT"));
