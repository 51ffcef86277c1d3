import { log } from "../../../log.ts";

/** The logger surface Baileys calls (its ILogger, a subset of pino). */
export type BaileysLogger = {
  level: string;
  child(bindings: Record<string, unknown>): BaileysLogger;
  trace(obj: unknown, msg?: string): void;
  debug(obj: unknown, msg?: string): void;
  info(obj: unknown, msg?: string): void;
  warn(obj: unknown, msg?: string): void;
  error(obj: unknown, msg?: string): void;
};

/** pino call styles: (msg), (obj, msg) or (obj) with obj.msg. */
function split(obj: unknown, msg?: string): { text: string; fields: Record<string, unknown> } {
  if (typeof obj === "string") return { text: obj, fields: {} };
  if (obj instanceof Error) return { text: msg ?? obj.message, fields: { err: obj } };
  if (obj && typeof obj === "object") {
    const fields = { ...(obj as Record<string, unknown>) };
    const text = msg ?? (typeof fields.msg === "string" ? fields.msg : "baileys");
    delete fields.msg;
    return { text, fields };
  }
  return { text: msg ?? String(obj), fields: {} };
}

/**
 * A pino-compatible logger that forwards Baileys' warnings and errors to server/log.ts.
 * Baileys is chatty at info and below (every frame, every key); those levels are dropped so that
 * the journal shows what an operator can act on.
 */
export function baileysLogger(bindings: Record<string, unknown> = {}): BaileysLogger {
  const forward = (level: "warn" | "error") => (obj: unknown, msg?: string) => {
    const { text, fields } = split(obj, msg);
    log[level](`baileys: ${text}`, { ...bindings, ...fields });
  };
  const ignore = () => {};
  return {
    level: "warn",
    child: (more) => baileysLogger({ ...bindings, ...more }),
    trace: ignore,
    debug: ignore,
    info: ignore,
    warn: forward("warn"),
    error: forward("error"),
  };
}
