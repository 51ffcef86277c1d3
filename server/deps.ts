import { openDatabase } from "../db/client.ts";
import { migrateToLatest } from "../db/migrate.ts";
import { RateLimiter } from "./auth/rate_limit.ts";
import { dbQueryDuration } from "./metrics/registry.ts";
import { loadSecrets } from "./auth/secrets.ts";
import type { Clock } from "./clock.ts";
import type { Config } from "./config.ts";
import type { AppDeps } from "./context.ts";
import { Hub } from "./realtime/hub.ts";
import { wirePresence } from "./realtime/socket.ts";
import { type FirstStart, seedFirstStart } from "./seed.ts";
import { BotRegistry } from "./bots/registry.ts";
import { menuBot } from "./bots/menu.ts";
import { ProviderRegistry } from "./whatsapp/providers/registry.ts";
import { SessionManager } from "./whatsapp/sessions/manager.ts";
import { SimulatorNetwork } from "./whatsapp/providers/simulator/network.ts";
import { createBaileysProvider } from "./whatsapp/providers/baileys/provider.ts";

/**
 * Builds every dependency of the app from a config: database (migrated), secrets, hub.
 * main.ts and the test helpers both come through here, so a test app is the real app.
 */
export async function buildDeps(
  config: Config,
  clock: Clock,
): Promise<{ deps: AppDeps; firstStart: FirstStart }> {
  await Deno.mkdir(config.dataDir, { recursive: true });
  const db = await openDatabase(config.databaseUrl, config.databaseAuthToken, {
    onQuery: (seconds) => dbQueryDuration.observe(seconds),
  });
  await migrateToLatest(db);
  const firstStart = await seedFirstStart(db, config, clock);
  const secrets = await loadSecrets(db, config);
  const hub = new Hub();
  // WhatsApp providers by kind; an implementation plugs in with one register line.
  const providers = new ProviderRegistry();
  const simulator = new SimulatorNetwork();
  providers.register("simulator", (ctx, d) => simulator.createProvider(ctx, d));
  providers.register("beta", createBaileysProvider);
  // Bots by kind (server/bots/README.md); queue integrations and AI prompts register here too.
  const bots = new BotRegistry().register(menuBot);
  const sessions = new SessionManager({ config, db, hub, clock, providers, bots });
  const deps: AppDeps = {
    config,
    db,
    hub,
    secrets,
    clock,
    loginLimiter: new RateLimiter(config.loginMaxAttempts, config.loginWindowSeconds * 1000),
    sessions,
    simulator,
  };
  wirePresence(deps);
  return { deps, firstStart };
}

/** Closes what buildDeps opened. */
export async function closeDeps(deps: AppDeps) {
  // Sessions first: in-flight sends and inbound messages finish while the database is open.
  await deps.sessions.closeAll();
  deps.hub.closeAll();
  await deps.db.destroy();
}
