import type { ProviderContext } from "../provider.ts";
import type { ProviderDeps } from "../registry.ts";
import { type PhoneNetwork, SimulatorProvider } from "./provider.ts";

/**
 * The built-in phone network (DESIGN 'WhatsApp': simulator). Each started simulator connection
 * registers its provider here, so that the /api/simulator routes can act as the phones around it:
 * scan its QR, deliver messages, edit, revoke, call and read.
 *
 * Linked devices and everything a connection sent are in the database (simulator_sessions,
 * simulator_sent), so a restart keeps them; only timers and rejected-call notes live here.
 */
export class SimulatorNetwork implements PhoneNetwork {
  /** Delay between the acks of a sent message: 1 (sent), then 2 (delivered), then 3 (read). */
  ackDelayMs = 300;
  readonly #phones = new Map<number, SimulatorProvider>();
  /** Profile pictures the simulated contacts chose (by JID), answered to profilePictureUrl. */
  readonly avatars = new Map<string, string>();

  /** The provider factory registered under kind "simulator". */
  createProvider(ctx: ProviderContext, deps: ProviderDeps): SimulatorProvider {
    return new SimulatorProvider(ctx, deps, this);
  }

  /** The running simulator session of a connection, if started. */
  phone(whatsappId: number): SimulatorProvider | undefined {
    return this.#phones.get(whatsappId);
  }

  attach(provider: SimulatorProvider) {
    this.#phones.set(provider.whatsappId, provider);
  }

  detach(provider: SimulatorProvider) {
    if (this.#phones.get(provider.whatsappId) === provider) {
      this.#phones.delete(provider.whatsappId);
    }
  }
}
