import { guardTenancy, isPostgresUrl, openDatabase } from "../db/client.ts";
import { TenancyBreaches } from "../db/tenancy.ts";
import { migrateToLatest, migrationState } from "../db/migrate.ts";
import type { Database } from "../db/client.ts";
import { databasePathOf, takeBackup } from "./ops/backup.ts";
import { log } from "./log.ts";
import { attemptLimits, memoryCounters } from "./auth/rate_limit.ts";
import { dbQueryDuration } from "./metrics/registry.ts";
import { observeStatement } from "./metrics/db_statements.ts";
import { holdServerLock } from "./ops/data_lock.ts";
import { APP_VERSION } from "./ops/version.ts";
import { createMailer } from "./mail/mailer.ts";
import { loadSecrets } from "./auth/secrets.ts";
import type { Clock } from "./clock.ts";
import type { Config } from "./config.ts";
import type { AppDeps } from "./context.ts";
import { EventBus } from "./events/bus.ts";
import { Hub } from "./realtime/hub.ts";
import { type Connector, Outbound } from "./http/outbound_fetch.ts";
import { wireRealtime } from "./realtime/listeners.ts";
import { presenceWritten, wirePresence } from "./realtime/socket.ts";
import { wireDistribution } from "./distribution/service.ts";
import { webhookCapture, wireWebhooks } from "./webhooks/capture.ts";
import { wirePush } from "./push/capture.ts";
import { closePushThread } from "./push/encrypter.ts";
import { outgoingSettled, wireOutgoing } from "./events/outgoing.ts";
import { sealPlainSecrets } from "./webhooks/repository.ts";
import { type FirstStart, seedFirstStart } from "./seed.ts";
import { BotRegistry } from "./bots/registry.ts";
import { menuBot } from "./bots/menu.ts";
import { integrationBot } from "./bots/integration.ts";
import { webhookTurn } from "./bots/webhook.ts";
import { typebotTurn } from "./bots/typebot.ts";
import { dialogflowTurn } from "./bots/dialogflow.ts";
import { promptBot } from "./bots/prompt.ts";
import { ProviderRegistry } from "./whatsapp/providers/registry.ts";
import { registerBuiltInProviders } from "./whatsapp/providers/builtin.ts";
import { SessionManager } from "./whatsapp/sessions/manager.ts";
import { runHolderCall } from "./whatsapp/holder_calls.ts";
import { clearInstancePresence } from "./users/presence_repository.ts";
import { KeyedQueue } from "./whatsapp/keyed_queue.ts";
import { StorageHealth } from "./storage/health.ts";
import { SimulatorNetwork } from "./whatsapp/providers/simulator/network.ts";

/**
 * Builds every dependency of the app from a config: database (migrated), secrets, hub.
 * main.ts and the test helpers both come through here, so a test app is the real app.
 */
export type BuildOptions = {
  /** How outbound calls open TCP connections (a test's network; default Deno.connect). */
  connect?: Connector;
};

export async function buildDeps(
  config: Config,
  clock: Clock,
  options: BuildOptions = {},
): Promise<{ deps: AppDeps; firstStart: FirstStart }> {
  // The data folder (database, media) is the service user's alone (issue 35), also when an
  // older release made it readable to others.
  await Deno.mkdir(config.dataDir, { recursive: true, mode: 0o700 });
  if (Deno.build.os !== "windows") await Deno.chmod(config.dataDir, 0o700);
  // Held while the process runs: `deno task restore` refuses to run under it (server/ops/).
  const dataLock = await holdServerLock(config);
  let db;
  try {
    db = await openDatabase(config.databaseUrl, config.databaseAuthToken, {
      onQuery: (seconds) => dbQueryDuration.observe(seconds),
      onStatement: observeStatement,
    });
    await backupBeforeMigrating(db, config, clock);
    await migrateToLatest(db, APP_VERSION);
  } catch (error) {
    dataLock?.close();
    throw error;
  }
  const firstStart = await seedFirstStart(db, config, clock);
  // After migrations and the first-start seed, which work on every company by nature.
  const tenancyBreaches = new TenancyBreaches();
  if (config.tenancyGuard === "strict") db = guardTenancy(db, tenancyBreaches);
  const secrets = await loadSecrets(db, config);
  // Webhook secrets written before they were sealed (issue 35): sealed once, here, because the
  // key is not known to migrations.
  const sealed = await sealPlainSecrets(db, secrets.data);
  if (sealed > 0) log.info("webhook signing secrets sealed", { count: sealed });
  const hub = new Hub();
  // Several processes (REDIS_URL): events reach every process's sockets through Redis. The
  // client loads only then (issue 33: one process pays nothing for it).
  const redis = config.redisUrl
    ? await (await import("./redis/wire.ts")).connectRedis(config, hub)
    : undefined;
  // Realtime hears the domain events first, then the webhooks (wireWebhooks below).
  const events = new EventBus({ crashOn: config.crashAfterCommit });
  wireRealtime(events, redis?.fanout ?? hub);
  const outbound = new Outbound({
    allowPrivate: config.integrationsAllowPrivateUrls,
    dnsServer: config.outboundDnsServer,
    connect: options.connect,
  });
  // WhatsApp providers by kind; an implementation plugs in with one register line.
  const providers = new ProviderRegistry();
  const simulator = new SimulatorNetwork();
  registerBuiltInProviders(providers, simulator, secrets.data);
  // Bots by kind (server/bots/README.md); queue integrations and AI prompts register here too.
  const bots = new BotRegistry().register(menuBot).register(
    integrationBot({ config, dataKey: secrets.data, outbound }, {
      webhook: webhookTurn,
      n8n: webhookTurn,
      typebot: typebotTurn,
      dialogflow: dialogflowTurn,
    }),
  ).register(promptBot({ config, dataKey: secrets.data }));
  const storage = new StorageHealth(config.dataDir, config.mediaDir);
  const sessions = new SessionManager({ config, db, events, clock, providers, bots, storage });
  if (redis) await (await import("./redis/wire.ts")).relaySessions(redis, config, sessions);
  const deps: AppDeps = {
    config,
    db,
    hub,
    redis,
    events,
    secrets,
    clock,
    attemptLimits: attemptLimits(config, redis?.counters ?? memoryCounters),
    counters: redis?.counters ?? memoryCounters,
    outbound,
    sessions,
    simulator,
    mailer: createMailer(config),
    afterAnswer: new KeyedQueue(),
    dataLock,
    tenancyBreaches,
    storage,
  };
  // No socket is open yet: rows this INSTANCE_ID left before a restart are gone (presence).
  await clearInstancePresence(db, config.instanceId, clock.now().toISOString());
  wirePresence(deps);
  // Pairing codes and the simulator's phones answer where the session runs (holder_calls.ts).
  sessions.setCallRunner((call) => runHolderCall(deps, call));
  const webhooks = wireWebhooks(deps);
  if (redis) await (await import("./redis/wire.ts")).shareWebhookChanges(redis, webhooks);
  const push = wirePush(deps);
  wireOutgoing(deps, { webhooks, push });
  wireDistribution(deps);
  return { deps, firstStart };
}

/**
 * An upgrade migrates at start; a database that already holds data is backed up first (into
 * BACKUP_DIR), so a migration that goes wrong can be undone with `deno task restore`. If that
 * backup fails, the start fails too: no migration runs without one.
 */
async function backupBeforeMigrating(db: Database, config: Config, clock: Clock) {
  if (!databasePathOf(config) && !isPostgresUrl(config.databaseUrl)) return;
  const { applied, pending } = await migrationState(db);
  if (applied === 0 || pending.length === 0) return;
  log.info("backing up before migrating", { pending });
  const backup = await takeBackup(config, clock, { thread: "worker" });
  log.info("backup before migrating written", { name: backup.name, size: backup.size });
}

/** Closes what buildDeps opened. */
export async function closeDeps(deps: AppDeps) {
  // Sessions first: in-flight sends and inbound messages finish while the database is open.
  await deps.sessions.closeAll();
  deps.hub.closeAll();
  // The closed sockets' presence rows are written before the database closes.
  await presenceWritten(deps.hub);
  await deps.afterAnswer.drain();
  await deps.redis?.link.close();
  // Events heard until now are written to the webhook queue before the database closes.
  await webhookCapture(deps.events)?.idle();
  await outgoingSettled(deps.events);
  closePushThread(deps);
  await deps.db.destroy();
  deps.mailer?.close();
  deps.dataLock?.close();
}
