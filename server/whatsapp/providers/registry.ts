import type { Database } from "../../../db/client.ts";
import type { Clock } from "../../clock.ts";
import type { Config } from "../../config.ts";
import type { Provider, ProviderContext, ProviderKind } from "./provider.ts";

/** What a provider factory may use besides its context: storage for auth state, config, time. */
export type ProviderDeps = { config: Config; db: Database; clock: Clock };

export type ProviderFactory = (ctx: ProviderContext, deps: ProviderDeps) => Provider;
/** Imports an implementation when a connection of its kind first starts (issue 33: Baileys and
 * its protocol tables cost memory that a process without such a connection need not pay). */
export type ProviderLoader = () => Promise<ProviderFactory>;

/**
 * Provider implementations by kind (a connection's `provider` column). Built in buildDeps and
 * handed to the session manager; an implementation plugs in with one line there:
 * `providers.register("simulator", factory)`, or `providers.registerLazy("beta", loader)` for one
 * whose module loads at its first use.
 */
export class ProviderRegistry {
  readonly #factories = new Map<string, ProviderFactory>();
  readonly #loaders = new Map<string, ProviderLoader>();
  readonly #loading = new Map<string, Promise<ProviderFactory>>();

  register(kind: ProviderKind, factory: ProviderFactory): void {
    this.#factories.set(kind, factory);
  }

  registerLazy(kind: ProviderKind, load: ProviderLoader): void {
    this.#loaders.set(kind, load);
  }

  has(kind: string): boolean {
    return this.#factories.has(kind) || this.#loaders.has(kind);
  }

  /** The factory for a kind (loading its module the first time), or undefined when none is registered. */
  async factory(kind: string): Promise<ProviderFactory | undefined> {
    const ready = this.#factories.get(kind);
    if (ready) return ready;
    const load = this.#loaders.get(kind);
    if (!load) return undefined;
    // One import for concurrent first starts; a failed import is retried by the next start.
    let loading = this.#loading.get(kind);
    if (!loading) {
      loading = load();
      this.#loading.set(kind, loading);
    }
    try {
      const factory = await loading;
      this.#factories.set(kind, factory);
      return factory;
    } finally {
      this.#loading.delete(kind);
    }
  }
}
