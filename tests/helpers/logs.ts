/** The log lines written while `fn` runs (server/log.ts writes errors and warnings to console.error). */
export async function capturingLogs<T>(fn: (lines: string[]) => Promise<T>): Promise<T> {
  const lines: string[] = [];
  // deno-lint-ignore no-console
  const original = console.error;
  // deno-lint-ignore no-console
  console.error = (...args: unknown[]) => {
    lines.push(args.map(String).join(" "));
  };
  try {
    return await fn(lines);
  } finally {
    // deno-lint-ignore no-console
    console.error = original;
  }
}
