import { DisconnectReason } from "@whiskeysockets/baileys";

/**
 * What to do when a Baileys socket closes. The distinction matters: reconnecting after a logout
 * shows an endless stream of QR codes, and reconnecting after "connection replaced" (440) makes
 * two servers that share one session kick each other out forever.
 */
export type CloseAction =
  /** 401: the phone unlinked this device. Credentials are dead: clear them, ask for a new QR. */
  | { kind: "loggedOut" }
  /** 440, 403, 411, or a QR nobody scanned: stay down until an operator acts. */
  | { kind: "stop"; reason: string }
  /** 515: WhatsApp asks for a fresh socket (right after pairing): reconnect at once. */
  | { kind: "restart" }
  /** Anything else (network, timeouts, server hiccups): reconnect with backoff. */
  | { kind: "retry"; reason: string };

/** The numeric status of a Baileys close error (a Boom), if any. */
export function closeStatusCode(error: unknown): number | undefined {
  const e = error as
    | { output?: { statusCode?: unknown }; statusCode?: unknown; data?: { statusCode?: unknown } }
    | undefined;
  const code = e?.output?.statusCode ?? e?.statusCode;
  return typeof code === "number" ? code : undefined;
}

export function classifyClose(
  error: unknown,
  situation: { awaitingScan: boolean },
): CloseAction {
  const code = closeStatusCode(error);
  const message = error instanceof Error ? error.message : "";
  switch (code) {
    case DisconnectReason.loggedOut:
      return { kind: "loggedOut" };
    case DisconnectReason.connectionReplaced:
      return { kind: "stop", reason: "connectionReplaced" };
    case DisconnectReason.forbidden:
      return { kind: "stop", reason: "forbidden" };
    case DisconnectReason.multideviceMismatch:
      return { kind: "stop", reason: "multideviceMismatch" };
    case DisconnectReason.restartRequired:
      return { kind: "restart" };
  }
  // Baileys ends a socket whose QR codes all expired with 408 ("QR refs attempts ended"); while
  // nobody scans, another socket would only print more codes to an empty room. The operator
  // asks for a new QR. (408 is also a lost network: that one retries.)
  if (code === DisconnectReason.timedOut && situation.awaitingScan && /QR refs/i.test(message)) {
    return { kind: "stop", reason: "qrTimeout" };
  }
  return { kind: "retry", reason: code ? `${code} ${message}`.trim() : message || "closed" };
}

export type BackoffPolicy = {
  /** First delay. */
  baseMs: number;
  /** Ceiling of any delay. */
  capMs: number;
  /** Consecutive failed attempts before giving up with TIMEOUT. */
  maxAttempts: number;
};

export const defaultBackoff: BackoffPolicy = { baseMs: 1_000, capMs: 60_000, maxAttempts: 12 };

/**
 * Delay before reconnect attempt `attempt` (1-based): exponential, capped, with "equal jitter"
 * (half fixed, half random) so that many sessions dropped by one outage do not reconnect in step.
 */
export function backoffDelay(attempt: number, policy: BackoffPolicy, random: () => number): number {
  const exp = Math.min(policy.capMs, policy.baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(exp / 2 + random() * (exp / 2));
}
