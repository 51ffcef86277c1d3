/**
 * The one place that writes logs. Lines are JSON so that a VPS's journal can be filtered.
 * The level comes from LOG_LEVEL (debug, info, warn, error, silent); tests default to warn.
 */
type Level = "debug" | "info" | "warn" | "error";
const order: Record<Level | "silent", number> = {
  debug: 10,
  info: 20,
  warn: 30,
  error: 40,
  silent: 99,
};

let threshold: number | undefined;

function currentThreshold(): number {
  if (threshold === undefined) {
    let name = "info";
    try {
      name = Deno.env.get("LOG_LEVEL") ?? "info";
    } catch {
      // no env permission: keep the default
    }
    threshold = order[name as Level] ?? order.info;
  }
  return threshold;
}

function describe(value: unknown): unknown {
  if (value instanceof Error) {
    return {
      name: value.name,
      message: value.message,
      stack: value.stack,
      cause: describe(value.cause),
    };
  }
  return value;
}

function write(level: Level, msg: string, fields?: Record<string, unknown>) {
  if (order[level] < currentThreshold()) return;
  const line: Record<string, unknown> = { t: new Date().toISOString(), level, msg };
  if (fields) { for (const [k, v] of Object.entries(fields)) line[k] = describe(v); }
  const text = JSON.stringify(line);
  // deno-lint-ignore no-console
  if (level === "error" || level === "warn") console.error(text);
  // deno-lint-ignore no-console
  else console.log(text);
}

export const log = {
  debug: (msg: string, fields?: Record<string, unknown>) => write("debug", msg, fields),
  info: (msg: string, fields?: Record<string, unknown>) => write("info", msg, fields),
  warn: (msg: string, fields?: Record<string, unknown>) => write("warn", msg, fields),
  error: (msg: string, fields?: Record<string, unknown>) => write("error", msg, fields),
};
