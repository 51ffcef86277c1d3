import type { Database } from "../../../db/client.ts";
import type { Clock } from "../../clock.ts";
import type { Config } from "../../config.ts";
import type { Provider, ProviderContext, ProviderKind } from "./provider.ts";

/** What a provider factory may use besides its context: storage for auth state, config, time. */
export type ProviderDeps = { config: Config; db: Database; clock: Clock };

export type ProviderFactory = (ctx: ProviderContext, deps: ProviderDeps) => Provider;

/**
 * Provider implementations by kind (a connection's `provider` column). Built in buildDeps and
 * handed to the session manager; an implementation plugs in with one line there:
 * `providers.register("beta", createBaileysProvider)`.
 */
export class ProviderRegistry {
  readonly #factories = new Map<string, ProviderFactory>();

  register(kind: ProviderKind, factory: ProviderFactory): void {
    this.#factories.set(kind, factory);
  }

  has(kind: string): boolean {
    return this.#factories.has(kind);
  }

  /** The factory for a kind, or undefined when no implementation is registered for it. */
  factory(kind: string): ProviderFactory | undefined {
    return this.#factories.get(kind);
  }
}
