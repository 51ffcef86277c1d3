import { qrDataUrl } from "../../qr_image.ts";
import type { Database } from "../../../db/client.ts";
import type { Whatsapp, WhatsappsTable } from "../../../db/schema.ts";
import type { Updateable } from "kysely";
import type { Clock } from "../../clock.ts";
import type { Config } from "../../config.ts";
import { notFound } from "../../errors.ts";
import { log } from "../../log.ts";
import type { EventBus } from "../../events/bus.ts";
import { type InboundDeps, InboundPipeline } from "../inbound/pipeline.ts";
import { StorageHealth } from "../../storage/health.ts";
import { HeldInbound } from "./held_inbound.ts";
import { HeldJournal } from "./held_journal.ts";
import { inboundMessages } from "../../metrics/registry.ts";
import type { BotRegistry } from "../../bots/registry.ts";
import { KeyedQueue } from "../keyed_queue.ts";
import { OutboxWorker } from "../outbox/worker.ts";
import type {
  DeliveryOutcome,
  Provider,
  ProviderContext,
  ProviderEvent,
  RunningProviders,
  SessionStatus,
} from "../providers/provider.ts";
import type { ProviderRegistry } from "../providers/registry.ts";
import {
  findWhatsapp,
  resetStaleSessions,
  setSessionState,
  whatsappsToRestore,
} from "../repository.ts";
import { storedMessageData } from "../../messages/repository.ts";
import { publishSession } from "../view.ts";
import { SessionLeases } from "./leases.ts";

export type SessionDeps = {
  config: Config;
  db: Database;
  events: EventBus;
  clock: Clock;
  providers: ProviderRegistry;
  bots: BotRegistry;
  /** Whether the data folder can be written (issue 34); its own when not given (tests). */
  storage?: StorageHealth;
};

/** What may be asked of a connection's session from any process (docs/scaling.md). */
export type SessionCommand =
  | { op: "start" | "newQr" | "disconnect"; companyId: number; whatsappId: number }
  | { op: "remove"; companyId: number; whatsappId: number; logout: boolean }
  | HolderCall;

/**
 * Something only the process that runs the session can answer (a pairing code, the simulator's
 * phones: server/whatsapp/holder_calls.ts), named, with JSON input; it answers JSON.
 */
export type HolderCall = {
  op: "call";
  name: string;
  companyId: number;
  whatsappId: number;
  input: unknown;
};

/** Carries a command to the process `holder` and answers its result (or its error). */
export interface SessionRelay {
  send(holder: string, command: SessionCommand): Promise<unknown>;
}

type Session = {
  whatsappId: number;
  companyId: number;
  provider?: Provider;
  status: SessionStatus;
};

/** How long logout may take when a connection is removed before we give up on the phone. */
const LOGOUT_TIMEOUT_MS = 5000;

/**
 * One session per connection (seeds/000 section 4 'Connection status'). Starting, restarting
 * and stopping a connection are serialised per connection; the provider's state events are
 * persisted on whatsapps (status, qrcode as a data URL, retries, number) and pushed on
 * `company-<id>-whatsappSession`; its message events go to the inbound pipeline.
 */
export class SessionManager implements RunningProviders {
  readonly providers: ProviderRegistry;
  readonly bots: BotRegistry;
  readonly outbox: OutboxWorker;
  readonly inbound: InboundPipeline;
  /** Inbound events acknowledged to WhatsApp that wait for storage to return (issue 34). */
  readonly held: HeldInbound;
  readonly #storage: StorageHealth;
  readonly #deps: InboundDeps;
  readonly #sessions = new Map<number, Session>();
  readonly #control = new KeyedQueue();
  readonly #state = new KeyedQueue();
  #closing = false;
  #relay?: SessionRelay;
  #callRunner?: (call: HolderCall) => Promise<unknown>;
  /** Set when several processes share the database (SESSION_LEASE_SECONDS): see leases.ts. */
  readonly leases?: SessionLeases;

  constructor(deps: SessionDeps) {
    this.providers = deps.providers;
    this.bots = deps.bots;
    this.#storage = deps.storage ?? new StorageHealth(deps.config.dataDir, deps.config.mediaDir);
    this.held = new HeldInbound(this.#storage);
    this.#deps = {
      config: deps.config,
      db: deps.db,
      events: deps.events,
      clock: deps.clock,
      sessions: this,
      bots: deps.bots,
      storage: this.#storage,
    };
    if (deps.config.sessionLeaseSeconds) {
      this.leases = new SessionLeases(
        deps.db,
        deps.clock,
        deps.config.instanceId,
        deps.config.sessionLeaseSeconds,
      );
    }
    this.outbox = new OutboxWorker(this.#deps);
    // What waited in the outbox while storage failed goes out as soon as it returns.
    this.#storage.onWritable(() => {
      for (const id of this.runningIds()) this.outbox.kick(id);
    });
    this.inbound = new InboundPipeline(this.#deps);
    this.#journal = this.#openJournal(deps.config);
  }

  readonly #journal: Promise<HeldJournal | undefined>;

  /**
   * Held events are journaled from the start (issue 43 item 5); what a gone process had held is
   * stored first (its journal is removed once its events are in ours).
   */
  async #openJournal(config: Config): Promise<HeldJournal | undefined> {
    try {
      const { journal, adopted } = await HeldJournal.open(config.dataDir, config.heldJournalBytes);
      this.held.useJournal(journal);
      for (const { whatsappId, companyId, event } of adopted) {
        void this.held.hold(
          whatsappId,
          () => this.inbound.handle({ id: whatsappId, companyId }, event),
          { companyId, event },
        ).catch((error) => log.error("a held event from before the restart failed", { error }));
      }
      // Theirs are removed only once their events are written in ours.
      await journal.written();
      await HeldJournal.removeOthers(config.dataDir);
      return journal;
    } catch (error) {
      log.error("held inbound journal unavailable: held events live in memory only", { error });
      return undefined;
    }
  }

  kickOutbox(whatsappId: number) {
    this.outbox.kick(whatsappId);
  }

  /** The running provider of a connection, whatever its state. */
  provider(whatsappId: number): Provider | undefined {
    return this.#sessions.get(whatsappId)?.provider;
  }

  /** The provider only while the connection is CONNECTED (able to send). */
  connectedProvider(whatsappId: number): Provider | undefined {
    const session = this.#sessions.get(whatsappId);
    return session?.status === "CONNECTED" ? session.provider : undefined;
  }

  /** Connections whose session runs in this process. */
  runningIds(): number[] {
    return [...this.#sessions.keys()];
  }

  /** This process lost the connection's lease: stop its session here, leaving its state alone. */
  drop(whatsappId: number): Promise<void> {
    const companyId = this.#sessions.get(whatsappId)?.companyId;
    return this.#control.run(String(whatsappId), () => this.#stop(companyId, whatsappId, false));
  }

  /** The company of a connection whose session runs in this process. */
  companyOf(whatsappId: number): number | undefined {
    return this.#sessions.get(whatsappId)?.companyId;
  }

  /** Sessions running in this process (metrics). */
  get runningCount(): number {
    return this.#sessions.size;
  }

  status(whatsappId: number): SessionStatus | undefined {
    return this.#sessions.get(whatsappId)?.status;
  }

  /** POST /whatsappsession/:id: starts (or restarts, "try again") the connection's session. */
  start(companyId: number, whatsappId: number): Promise<Whatsapp> {
    return this.#routed({ op: "start", companyId, whatsappId }) as Promise<Whatsapp>;
  }

  /** PUT /whatsappsession/:id: forgets the credentials and starts again (a new QR). */
  newQr(companyId: number, whatsappId: number): Promise<Whatsapp> {
    return this.#routed({ op: "newQr", companyId, whatsappId }) as Promise<Whatsapp>;
  }

  /** DELETE /whatsappsession/:id: logs out (unlinks the device); status DISCONNECTED. */
  disconnect(companyId: number, whatsappId: number): Promise<Whatsapp> {
    return this.#routed({ op: "disconnect", companyId, whatsappId }) as Promise<Whatsapp>;
  }

  /** Stops a connection's session; with `logout`, also unlinks it (used when it is deleted). */
  async remove(companyId: number, whatsappId: number, logout: boolean): Promise<void> {
    await this.#routed({ op: "remove", companyId, whatsappId, logout });
  }

  /**
   * Session commands run where the session runs: with a relay (REDIS_URL) a command for a
   * connection whose live lease another process holds goes to that process, which answers with
   * its result (server/redis/session_commands.ts); otherwise it runs here.
   */
  setRelay(relay: SessionRelay) {
    this.#relay = relay;
  }

  /** Runs holder calls in this process (set once by server/deps.ts: they need the app's deps). */
  setCallRunner(run: (call: HolderCall) => Promise<unknown>) {
    this.#callRunner = run;
  }

  /** A holder call, run where the connection's session runs (this process or the holder). */
  call(call: Omit<HolderCall, "op">): Promise<unknown> {
    return this.#routed({ op: "call", ...call });
  }

  async #routed(command: SessionCommand): Promise<unknown> {
    if (this.#relay && this.leases && !this.#sessions.has(command.whatsappId)) {
      const holder = await this.leases.liveHolder(command.companyId, command.whatsappId);
      if (holder !== undefined && holder !== this.leases.holder) {
        return await this.#relay.send(holder, command);
      }
    }
    return await this.runHere(command);
  }

  /** A session command, in this process (the relay calls it for commands sent to this one). */
  runHere(command: SessionCommand): Promise<unknown> {
    const { companyId, whatsappId } = command;
    switch (command.op) {
      case "call":
        if (!this.#callRunner) throw new Error("no holder call runner set");
        return this.#callRunner(command);
      case "start":
        return this.#control.run(String(whatsappId), async () => {
          const row = await this.#find(companyId, whatsappId);
          await this.#stop(companyId, whatsappId, false);
          return await this.#start(row);
        });
      case "newQr":
        return this.#control.run(String(whatsappId), async () => {
          const row = await this.#find(companyId, whatsappId);
          await this.#stop(companyId, whatsappId, true, row);
          return await this.#start(row);
        });
      case "disconnect":
        return this.#control.run(String(whatsappId), async () => {
          const row = await this.#find(companyId, whatsappId);
          await this.#stop(companyId, whatsappId, true, row);
          return await this.#setState(row.companyId, row.id, {
            status: "DISCONNECTED",
            qrcode: "",
          }) ?? row;
        });
      case "remove":
        return this.#control.run(String(whatsappId), async () => {
          const row = await findWhatsapp(this.#deps.db, companyId, whatsappId);
          await this.#stop(companyId, whatsappId, command.logout, row);
          return undefined;
        });
    }
  }

  /**
   * At boot: interrupted sends go back to pending, shown QR codes are stale, and connections
   * that were CONNECTED or OPENING are started again.
   */
  async restoreAll(): Promise<void> {
    const { db, events, clock } = this.#deps;
    // Under leases other processes may be sending and showing QR codes right now: recovery is
    // per connection, when its lease is taken (#start).
    if (!this.leases) {
      await this.outbox.recover();
      for (const row of await resetStaleSessions(db, clock.now().toISOString())) {
        publishSession(events, row);
      }
    }
    for (const row of await whatsappsToRestore(db)) {
      if (this.#closing) return;
      await this.start(row.companyId, row.id).catch((error) =>
        log.error("session restore failed", { whatsappId: row.id, error })
      );
    }
  }

  /** Shutdown: lets sends and inbound work finish, then stops every provider (keeps credentials). */
  async closeAll(): Promise<void> {
    this.#closing = true;
    await this.outbox.stop();
    await this.#control.drain();
    const sessions = [...this.#sessions.values()];
    this.#sessions.clear();
    await Promise.all(
      sessions.map((s) =>
        s.provider?.stop().catch((error) =>
          log.error("provider stop failed", { whatsappId: s.whatsappId, error })
        )
      ),
    );
    await this.inbound.drain();
    await this.#state.drain();
    (await this.#journal)?.close();
    // Handed over at once: the other processes need not wait for the leases to expire.
    await this.leases?.releaseAll().catch((error) => log.warn("leases not released", { error }));
  }

  async #find(companyId: number, whatsappId: number): Promise<Whatsapp> {
    const row = await findWhatsapp(this.#deps.db, companyId, whatsappId);
    if (!row) throw notFound("ERR_NO_WAPP_FOUND", "Conexão não encontrada");
    return row;
  }

  async #start(row: Whatsapp): Promise<Whatsapp> {
    if (this.#closing) return row;
    if (this.leases) {
      const lease = await this.leases.acquire(row.companyId, row.id);
      if (!lease.held) {
        log.info("connection runs in another process", { whatsappId: row.id });
        return row;
      }
      // Sends the previous holder left half done are resent under their WhatsApp ids.
      if (lease.takenOver) {
        await this.outbox.recover({ companyId: row.companyId, whatsappId: row.id });
      }
    }
    const opening =
      await this.#setState(row.companyId, row.id, { status: "OPENING", qrcode: "" }) ??
        row;
    const factory = await this.providers.factory(row.provider).catch((error) => {
      log.error("WhatsApp provider could not be loaded", { provider: row.provider, error });
      return undefined;
    });
    if (!factory) {
      log.error("WhatsApp provider not available: the connection cannot start", {
        whatsappId: row.id,
        companyId: row.companyId,
        provider: row.provider,
      });
      return await this.#setState(row.companyId, row.id, { status: "DISCONNECTED" }) ?? opening;
    }
    const session: Session = { whatsappId: row.id, companyId: row.companyId, status: "OPENING" };
    try {
      session.provider = factory(this.#context(session), this.#deps);
      this.#sessions.set(row.id, session);
      await session.provider.start();
    } catch (error) {
      log.error("WhatsApp session failed to start", { whatsappId: row.id, error });
      if (this.#sessions.get(row.id) === session) this.#sessions.delete(row.id);
      await session.provider?.stop().catch(() => {});
      return await this.#setState(row.companyId, row.id, { status: "DISCONNECTED", qrcode: "" }) ??
        opening;
    }
    return await findWhatsapp(this.#deps.db, row.companyId, row.id) ?? opening;
  }

  /**
   * Stops the running provider; with `logout` also forgets its credentials (even if not running).
   * `companyId` undefined: the session was not running here, so this process holds no lease on it.
   */
  async #stop(companyId: number | undefined, whatsappId: number, logout: boolean, row?: Whatsapp) {
    try {
      await this.#stopProvider(whatsappId, logout, row);
    } finally {
      if (companyId !== undefined) await this.leases?.release(companyId, whatsappId);
    }
  }

  async #stopProvider(whatsappId: number, logout: boolean, row?: Whatsapp) {
    const session = this.#sessions.get(whatsappId);
    this.#sessions.delete(whatsappId);
    let provider = session?.provider;
    if (!provider && logout && row) {
      // Credentials outlive a session (restart, crash): a fresh provider instance clears them.
      const idle: Session = { whatsappId, companyId: row.companyId, status: "DISCONNECTED" };
      try {
        const factory = await this.providers.factory(row.provider);
        provider = factory?.(this.#context(idle), this.#deps);
      } catch (error) {
        log.error("provider could not be created to log out", { whatsappId, error });
      }
    }
    if (!provider) return;
    try {
      if (logout) await withTimeout(provider.logout(), LOGOUT_TIMEOUT_MS);
    } catch (error) {
      log.warn("provider logout failed", { whatsappId, error });
    }
    try {
      await provider.stop();
    } catch (error) {
      log.warn("provider stop failed", { whatsappId, error });
    }
  }

  #context(session: Session): ProviderContext {
    const deliver = (event: ProviderEvent) => this.#dispatch(session, event);
    return {
      whatsappId: session.whatsappId,
      companyId: session.companyId,
      emit: (event) => {
        deliver(event).catch((error) =>
          this.#storage.report(error, "provider event") ?? log.error("provider event failed", {
            whatsappId: session.whatsappId,
            type: (event as { type?: unknown })?.type,
            error,
          })
        );
      },
      deliver,
      hold: (event, error) => {
        this.#storage.report(error, "inbound");
        return this.held.hold(session.whatsappId, () => this.#inbound(session, event), {
          companyId: session.companyId,
          event,
        });
      },
      getStoredMessage: (id) => this.#storedMessage(session, id),
    };
  }

  #dispatch(session: Session, event: ProviderEvent): Promise<DeliveryOutcome> {
    if (this.#closing) return Promise.resolve({ ignored: "shutting down" });
    const type = (event as { type?: unknown } | null)?.type;
    switch (type) {
      case "qr":
      case "pairingCode":
      case "status":
      case "connected":
      case "loggedOut":
        return this.#state.run(
          String(session.whatsappId),
          () => this.#onState(session, event),
        );
      case "message":
      case "ack":
      case "edit":
      case "revoke":
      case "failed":
      case "reaction":
      case "call":
      case "contact": {
        // Behind events held for storage (issue 34), so that a chat keeps its order.
        if (this.held.holds(session.whatsappId)) {
          return this.held.hold(session.whatsappId, () => this.#inbound(session, event), {
            companyId: session.companyId,
            event,
          });
        }
        return this.#inbound(session, event);
      }
      default:
        log.warn("malformed provider event ignored", { whatsappId: session.whatsappId, type });
        return Promise.resolve({ ignored: "malformed event" });
    }
  }

  #inbound(session: Session, event: ProviderEvent): Promise<DeliveryOutcome> {
    const handled = this.inbound.handle(
      { id: session.whatsappId, companyId: session.companyId },
      event,
    );
    return event.type === "message" ? countInbound(session.provider?.kind, handled) : handled;
  }

  async #onState(session: Session, event: ProviderEvent): Promise<DeliveryOutcome> {
    // Events of a provider that was stopped or replaced must not overwrite the current state.
    if (this.#sessions.get(session.whatsappId) !== session) return { ignored: "stale session" };
    const { companyId, whatsappId } = session;
    switch (event.type) {
      case "qr": {
        if (typeof event.qr !== "string" || event.qr.length === 0) {
          log.warn("malformed qr event ignored", { whatsappId });
          return { ignored: "malformed event" };
        }
        const image = await qrDataUrl(event.qr);
        if (this.#sessions.get(whatsappId) !== session) return { ignored: "stale session" };
        session.status = "qrcode";
        await this.#setState(companyId, whatsappId, { status: "qrcode", qrcode: image }, true);
        return {};
      }
      case "pairingCode": {
        session.status = "PAIRING";
        await this.#setState(
          companyId,
          whatsappId,
          { status: "PAIRING", qrcode: "" },
          false,
          event.code,
        );
        return {};
      }
      case "status": {
        const status = event.status;
        if (!STATUSES.has(status)) {
          log.warn("unknown session status ignored", { whatsappId, status });
          return { ignored: "malformed event" };
        }
        if (event.reason) log.info("session status", { whatsappId, status, reason: event.reason });
        session.status = status;
        await this.#setState(
          companyId,
          whatsappId,
          status === "qrcode" ? { status } : { status, qrcode: "" },
        );
        if (status === "CONNECTED") this.outbox.kick(whatsappId);
        return {};
      }
      case "connected": {
        session.status = "CONNECTED";
        await this.#setState(companyId, whatsappId, {
          status: "CONNECTED",
          qrcode: "",
          retries: 0,
          number: typeof event.number === "string" && event.number ? event.number : null,
        });
        log.info("WhatsApp connected", { whatsappId });
        this.outbox.kick(whatsappId);
        return {};
      }
      case "loggedOut": {
        log.info("WhatsApp logged out from the phone", { whatsappId });
        this.#sessions.delete(whatsappId);
        await session.provider?.stop().catch(() => {});
        await this.#setState(companyId, whatsappId, { status: "DISCONNECTED", qrcode: "" });
        return {};
      }
      default:
        return { ignored: "malformed event" };
    }
  }

  /** Persists and pushes the session state; `countRetry` adds one to retries (a new QR). */
  async #setState(
    companyId: number,
    whatsappId: number,
    patch: Omit<Updateable<WhatsappsTable>, "id" | "companyId">,
    countRetry = false,
    pairingCode?: string,
  ): Promise<Whatsapp | undefined> {
    const { db, events, clock } = this.#deps;
    const row = await setSessionState(
      db,
      companyId,
      whatsappId,
      patch,
      countRetry,
      clock.now().toISOString(),
    );
    if (row) publishSession(events, row, pairingCode);
    return row;
  }

  async #storedMessage(session: Session, id: string): Promise<unknown | undefined> {
    const dataJson = await storedMessageData(
      this.#deps.db,
      session.companyId,
      session.whatsappId,
      id,
    );
    if (!dataJson) return undefined;
    try {
      return JSON.parse(dataJson);
    } catch {
      return undefined;
    }
  }
}

const STATUSES = new Set<string>([
  "qrcode",
  "PAIRING",
  "OPENING",
  "CONNECTED",
  "DISCONNECTED",
  "TIMEOUT",
]);

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** Counts an inbound message by provider and what the pipeline did with it. */
function countInbound(
  provider: string | undefined,
  handled: Promise<DeliveryOutcome>,
): Promise<DeliveryOutcome> {
  const labels = (result: string) => ({ provider: provider ?? "unknown", result });
  return handled.then((outcome) => {
    const result = outcome.duplicate ? "duplicate" : outcome.ignored ? "ignored" : "stored";
    inboundMessages.inc(labels(result));
    return outcome;
  }, (error) => {
    inboundMessages.inc(labels("error"));
    throw error;
  });
}
