import type { OutboxRow } from "../../../db/schema.ts";
import type { Database } from "../../../db/client.ts";
import { log } from "../../log.ts";
import { noteOutgoing } from "../../events/outgoing_repository.ts";
import { outboundMessages } from "../../metrics/registry.ts";
import { readMedia } from "../../media/store.ts";
import { loadTicketView, messageViews } from "../../tickets/view_repository.ts";
import { findMessage } from "../../messages/repository.ts";
import type { OutboxDeps } from "./outbox.ts";
import {
  claimRow,
  markRowFailed,
  markRowSent,
  messageSendFailed,
  messageSent,
  pendingRows,
  recoverSending,
  releaseForRetry,
  undoReaction,
} from "./outbox_repository.ts";
import { type Provider, ProviderSendError, type SentMessage } from "../providers/provider.ts";

/** Attempts before a transiently failing send is given up (ERR_SENDING_WAPP_MSG). */
export const MAX_ATTEMPTS = 8;
const BATCH = 50;

type Outcome = "sent" | "retry" | "failed" | "skipped";
/** An outbox row's reaction (0740): the emoji, and what the message showed before it. */
type Reaction = { emoji: string; previous: string | null };

/**
 * Sends outbox rows, in id order per connection, one at a time per connection.
 *
 * Exactly once: a row is claimed (status 'sending', a fresh claimId, attempts+1) before the
 * provider call, and marked 'sent' only by the claim that sent it. Rows found 'sending' at boot
 * were interrupted mid-send; `recover()` puts them back to 'pending' and they are sent again
 * under the SAME WhatsApp id, which the provider treats as the same message (the simulator by
 * its unique (connection, id) key, WhatsApp by message id), so nothing is delivered twice.
 *
 * Ordering: a row waiting out a retry delay holds back later rows of the same chat only.
 */
export class OutboxWorker {
  /** Base of the exponential retry delay (1 s, 2 s, 4 s ... capped at a minute). */
  retryBaseMs = 1000;
  readonly #running = new Map<number, Promise<void>>();
  readonly #again = new Set<number>();
  readonly #retryAt = new Map<number, number>();
  readonly #firstSeen = new Map<number, number>();
  readonly #timers = new Map<number, ReturnType<typeof setTimeout>>();
  #stopped = false;

  constructor(private readonly deps: OutboxDeps) {}

  /**
   * Rows left 'sending' by a stopped process go back to 'pending' (see the class comment): all of
   * them at boot, or one connection's when this process takes its lease over from another.
   */
  async recover(connection?: { companyId: number; whatsappId: number }): Promise<number> {
    const now = this.deps.clock.now().toISOString();
    const count = await recoverSending(this.deps.db, now, connection);
    if (count > 0) log.info("outbox: resuming interrupted sends", { count });
    return count;
  }

  /** Something may be due on this connection (a new row, a reconnect): run its loop. */
  kick(whatsappId: number): void {
    if (this.#stopped) return;
    if (this.#running.has(whatsappId)) {
      this.#again.add(whatsappId);
      return;
    }
    const run = this.#loop(whatsappId).catch((error) => {
      // Storage failing (issue 34): its one line is written there; the loop runs again when
      // storage returns (SessionManager kicks every connection then).
      if (!this.deps.storage?.report(error, "outbox")) {
        log.error("outbox loop failed", { whatsappId, error });
      }
    }).finally(() => {
      this.#running.delete(whatsappId);
      if (this.#again.delete(whatsappId)) this.kick(whatsappId);
    });
    this.#running.set(whatsappId, run);
  }

  /** Lets in-flight sends finish and stops scheduling new ones. */
  async stop(): Promise<void> {
    this.#stopped = true;
    for (const timer of this.#timers.values()) clearTimeout(timer);
    this.#timers.clear();
    while (this.#running.size > 0) await Promise.all([...this.#running.values()]);
  }

  /** Resolves when nothing is being sent right now (tests and shutdown). */
  async idle(): Promise<void> {
    while (this.#running.size > 0) await Promise.all([...this.#running.values()]);
  }

  async #loop(whatsappId: number): Promise<void> {
    while (!this.#stopped) {
      const provider = this.deps.sessions.connectedProvider(whatsappId);
      const companyId = this.deps.sessions.companyOf(whatsappId);
      // sent on reconnect: the session kicks us when connected
      if (!provider || companyId === undefined) return;
      // A throttled number (its network said so) waits whole: nothing is claimed, no attempt spent.
      const pause = (await provider.pausedFor?.()) ?? 0;
      if (pause > 0) {
        this.#schedule(whatsappId, pause);
        return;
      }
      const rows = await pendingRows(this.deps.db, companyId, whatsappId, BATCH);
      if (rows.length === 0) return;
      const held = new Set<string>();
      let progressed = false;
      let earliest = Infinity;
      for (const row of rows) {
        if (this.#stopped) return;
        if (held.has(row.toJid)) continue;
        const due = Math.max(this.#retryAt.get(row.id) ?? 0, this.#spacedUntil(row));
        if (due > Date.now()) {
          held.add(row.toJid);
          earliest = Math.min(earliest, due);
          continue;
        }
        const outcome = await this.#send(row, provider);
        if (outcome !== "skipped") {
          outboundMessages.inc({ provider: provider.kind, result: outcome });
        }
        if (outcome === "retry") {
          held.add(row.toJid);
          earliest = Math.min(earliest, this.#retryAt.get(row.id) ?? Infinity);
        } else if (outcome !== "skipped") {
          progressed = true;
        }
        if (!this.deps.sessions.connectedProvider(whatsappId)) return;
      }
      if (!progressed) {
        if (earliest < Infinity) this.#schedule(whatsappId, earliest - Date.now());
        return;
      }
    }
  }

  /**
   * A bot may space its replies (typebotDelayMessage): such a row is written due `offset` ms
   * after it was created (nextAttemptAt - createdAt). It goes out that long after this worker
   * first saw it, measured on the real clock, and holds back the rest of its chat meanwhile.
   * Only differences of the row's own stamps count, so a test clock changes nothing.
   */
  #spacedUntil(row: OutboxRow): number {
    if (row.attempts > 0) return 0;
    const offset = Math.min(Date.parse(row.nextAttemptAt) - Date.parse(row.createdAt), 60_000);
    if (!(offset > 0)) return 0;
    let seen = this.#firstSeen.get(row.id);
    if (seen === undefined) {
      seen = Date.now();
      this.#firstSeen.set(row.id, seen);
    }
    return seen + offset;
  }

  #schedule(whatsappId: number, delayMs: number) {
    if (this.#stopped || this.#timers.has(whatsappId)) return;
    const timer = setTimeout(() => {
      this.#timers.delete(whatsappId);
      this.kick(whatsappId);
    }, Math.max(0, delayMs));
    this.#timers.set(whatsappId, timer);
  }

  async #send(row: OutboxRow, provider: Provider): Promise<Outcome> {
    const { db, clock } = this.deps;
    const claimId = crypto.randomUUID();
    if (!(await claimRow(db, row, claimId, clock.now().toISOString()))) return "skipped";
    const attempts = row.attempts + 1;

    let sent: SentMessage;
    try {
      sent = await this.#deliver(row, provider);
    } catch (error) {
      const permanent = error instanceof ProviderSendError && error.permanent;
      if (permanent || attempts >= MAX_ATTEMPTS) {
        await this.#fail(row, claimId, error);
        return "failed";
      }
      const delay = Math.min(60_000, this.retryBaseMs * 2 ** (attempts - 1));
      this.#retryAt.set(row.id, Date.now() + delay);
      const now = clock.now();
      await releaseForRetry(
        db,
        row,
        claimId,
        describe(error),
        new Date(now.getTime() + delay).toISOString(),
        now.toISOString(),
      );
      log.warn("outbox: send failed, will retry", {
        outboxId: row.id,
        whatsappId: row.whatsappId,
        attempts,
        delayMs: delay,
        error,
      });
      return "retry";
    }
    this.#retryAt.delete(row.id);
    this.#firstSeen.delete(row.id);
    await this.#markSent(row, claimId, sent);
    return "sent";
  }

  async #deliver(row: OutboxRow, provider: Provider): Promise<SentMessage> {
    const options = {
      messageId: row.wid,
      quotedId: row.quotedWid ?? undefined,
      forwarded: row.forwarded === 1,
    };
    if (row.reaction) {
      if (!provider.sendReaction || !row.quotedWid) {
        throw new ProviderSendError("this channel sends no reactions", { permanent: true });
      }
      const { emoji } = JSON.parse(row.reaction) as Reaction;
      await provider.sendReaction(row.toJid, row.quotedWid, emoji);
      return { id: row.wid, timestamp: this.deps.clock.now() };
    }
    if (row.template) {
      if (!provider.sendTemplate) {
        throw new ProviderSendError("this channel sends no templates", { permanent: true });
      }
      return await provider.sendTemplate(row.toJid, JSON.parse(row.template), options);
    }
    if (!row.mediaPath && row.menu && provider.sendMenu) {
      return await provider.sendMenu(row.toJid, row.body, JSON.parse(row.menu), options);
    }
    if (!row.mediaPath) return await provider.sendText(row.toJid, row.body, options);
    const data = await readMedia(this.deps.config, row.companyId, row.mediaPath);
    if (!data) throw new ProviderSendError("media file is missing", { permanent: true });
    return await provider.sendMedia(row.toJid, {
      data,
      mimetype: row.mediaMimetype ?? "application/octet-stream",
      filename: row.mediaName ?? "file",
      caption: row.body || undefined,
      ptt: row.ptt === 1,
    }, options);
  }

  async #markSent(row: OutboxRow, claimId: string, sent: SentMessage) {
    const { db, clock } = this.deps;
    const now = clock.now().toISOString();
    const message = await db.transaction().execute(async (trx) => {
      const marked = await markRowSent(trx, row, claimId, now);
      // A reaction's message already shows it (queued so): nothing to take from the network.
      if (!marked || row.messageId === null || row.reaction) return undefined;
      // A provider that ignored our id returns its own: the message takes it, so acks match.
      const message = await messageSent(
        trx,
        row.companyId,
        row.messageId,
        sent.id || row.wid,
        sent.raw === undefined ? null : safeJson(sent.raw),
        now,
      );
      if (!message) return undefined;
      return { message, outgoing: await noteSent(trx, message.companyId, message, now) };
    });
    if (message) {
      const { companyId, ticketId, id } = message.message;
      await this.#publish(companyId, ticketId, id, message.outgoing);
    }
  }

  async #fail(row: OutboxRow, claimId: string, error: unknown) {
    const { db, clock } = this.deps;
    const now = clock.now().toISOString();
    log.error("outbox: send failed for good (ERR_SENDING_WAPP_MSG)", {
      outboxId: row.id,
      whatsappId: row.whatsappId,
      messageId: row.messageId,
      error,
    });
    this.#retryAt.delete(row.id);
    this.#firstSeen.delete(row.id);
    const outgoing = await db.transaction().execute(async (trx) => {
      await markRowFailed(trx, row, claimId, describe(error), now);
      if (row.reaction) {
        const undone = await undoReaction(trx, row, JSON.parse(row.reaction), now);
        return undone && { message: undone, key: await noteSent(trx, row.companyId, undone, now) };
      }
      if (row.messageId === null) return undefined;
      const code = error instanceof ProviderSendError ? error.failureCode : undefined;
      await messageSendFailed(trx, row.companyId, row.messageId, now, code);
      if (row.ticketId === null) return undefined;
      const message = { id: row.messageId, ticketId: row.ticketId };
      return { message, key: await noteSent(trx, row.companyId, message, now) };
    });
    if (outgoing) {
      const { message, key } = outgoing;
      await this.#publish(row.companyId, message.ticketId, message.id, key);
    }
  }

  async #publish(companyId: number, ticketId: number, messageId: number, outgoing: string) {
    const { db, events } = this.deps;
    const message = await findMessage(db, companyId, messageId);
    const ticket = await loadTicketView(db, companyId, ticketId);
    if (!message || !ticket) return;
    const [view] = await messageViews(db, companyId, [message]);
    events.emit("message.updated", { message: view, ticket, outgoing });
  }
}

/** Sent or failed: its message.updated noted in the same transaction (server/events/outgoing.ts). */
function noteSent(
  trx: Database,
  companyId: number,
  message: { id: number; ticketId: number },
  now: string,
): Promise<string> {
  return noteOutgoing(trx, companyId, "message.updated", {
    ticketId: message.ticketId,
    messageId: message.id,
  }, now);
}

function describe(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).slice(0, 500);
}

function safeJson(value: unknown): string | null {
  try {
    return JSON.stringify(value);
  } catch {
    return null;
  }
}
