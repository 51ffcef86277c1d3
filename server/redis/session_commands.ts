import { AppError } from "../errors.ts";
import { log } from "../log.ts";
import type { SessionCommand, SessionManager, SessionRelay } from "../whatsapp/sessions/manager.ts";
import type { RedisLink } from "./link.ts";

/** Each process listens on its own channel, named after its INSTANCE_ID (the lease holder). */
export const sessionChannel = (instanceId: string) => `balcao:sessions:${instanceId}`;

/** How long a caller waits for the holder's answer (a QR restart includes stopping Baileys). */
export const SESSION_COMMAND_TIMEOUT_MS = 20_000;

type Message =
  | { kind: "command"; id: string; replyTo: string; command: SessionCommand }
  | {
    kind: "reply";
    id: string;
    /** The command's answer: the connection's row, or a holder call's JSON. */
    row?: unknown;
    error?: { status: number; code: string; message: string };
  };

function unreachable(detail: string): AppError {
  return new AppError(
    503,
    "ERR_SESSION_UNREACHABLE",
    `O processo que mantém esta conexão não respondeu (${detail}). Tente novamente.`,
  );
}

/**
 * Session commands between processes (REDIS_URL with SESSION_LEASE_SECONDS): a command for a
 * connection whose lease another process holds is published on that process's channel; the
 * holder runs it (SessionManager.runHere) and publishes the result, or the error, back on the
 * caller's channel. No answer within the timeout, no listener on the holder's channel (it died:
 * its lease expires and another process takes the connection over), or Redis away: 503
 * ERR_SESSION_UNREACHABLE, never a hang.
 */
export class RedisSessionRelay implements SessionRelay {
  readonly #pending = new Map<string, PromiseWithResolvers<unknown>>();

  private constructor(
    private readonly link: RedisLink,
    private readonly instanceId: string,
    private readonly sessions: SessionManager,
    private readonly timeoutMs: number,
  ) {}

  static async open(
    link: RedisLink,
    instanceId: string,
    sessions: SessionManager,
    timeoutMs = SESSION_COMMAND_TIMEOUT_MS,
  ): Promise<RedisSessionRelay> {
    const relay = new RedisSessionRelay(link, instanceId, sessions, timeoutMs);
    await link.subscribe(sessionChannel(instanceId), (text) => relay.#arrived(text)).catch((
      error,
    ) => log.warn("session commands wait for redis", { error: String(error) }));
    sessions.setRelay(relay);
    return relay;
  }

  async send(holder: string, command: SessionCommand): Promise<unknown> {
    const id = crypto.randomUUID();
    const waiting = Promise.withResolvers<unknown>();
    this.#pending.set(id, waiting);
    const timer = setTimeout(
      () => waiting.reject(unreachable(`${this.timeoutMs / 1000} s`)),
      this.timeoutMs,
    );
    try {
      const message: Message = { kind: "command", id, replyTo: this.instanceId, command };
      const heard = await this.link.publish(sessionChannel(holder), JSON.stringify(message))
        .catch(() => {
          throw unreachable("redis");
        });
      if (heard === 0) throw unreachable("holder gone");
      return await waiting.promise;
    } finally {
      clearTimeout(timer);
      this.#pending.delete(id);
    }
  }

  #arrived(text: string) {
    let message: Message;
    try {
      message = JSON.parse(text) as Message;
    } catch {
      return;
    }
    if (message.kind === "reply") {
      const waiting = this.#pending.get(message.id);
      if (!waiting) return;
      if (message.error) {
        const { status, code, message: why } = message.error;
        waiting.reject(new AppError(status, code as AppError["code"], why));
      } else waiting.resolve(message.row);
      return;
    }
    void this.#answer(message);
  }

  async #answer(message: Extract<Message, { kind: "command" }>) {
    let reply: Message;
    try {
      const row = await this.sessions.runHere(message.command);
      reply = { kind: "reply", id: message.id, row };
    } catch (error) {
      const known = error instanceof AppError
        ? { status: error.status, code: error.code, message: error.message }
        : { status: 500, code: "ERR_INTERNAL", message: "Erro interno" };
      if (!(error instanceof AppError)) log.error("session command failed", { error });
      reply = { kind: "reply", id: message.id, error: known };
    }
    await this.link.publish(sessionChannel(message.replyTo), JSON.stringify(reply)).catch((
      error,
    ) => log.warn("session command answer lost", { error: String(error) }));
  }
}
