import type { ProviderRegistry } from "./registry.ts";
import type { SimulatorNetwork } from "./simulator/network.ts";

/**
 * The implementations of contract/channels.ts's kinds, one line each. Kept here so that the
 * kinds' names stay inside providers/ (tests/architecture/channels_test.ts).
 */
export function registerBuiltInProviders(
  providers: ProviderRegistry,
  simulator: SimulatorNetwork,
  dataKey: CryptoKey,
) {
  providers.register("simulator", (ctx, d) => simulator.createProvider(ctx, d));
  // Baileys (and its protocol tables) loads when the first such connection starts (issue 33).
  providers.registerLazy("beta", async () => {
    const { createBaileysProvider } = await import("./baileys/provider.ts");
    return createBaileysProvider;
  });
  // Meta's Cloud API: no session to hold, its secrets unsealed with the data key.
  providers.registerLazy("cloud_api", async () => {
    const { cloudProviderFactory } = await import("./cloud_api/provider.ts");
    return cloudProviderFactory(dataKey);
  });
}
