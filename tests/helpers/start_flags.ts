/** The `--v8-flags=...` value of a command line, "" when it has none. */
export const v8FlagsOf = (line: string) => /--v8-flags=(\S+)/.exec(line)?.[1] ?? "";

/**
 * The V8 flags `deno task start` gives the server (deno.json), one per entry: the benchmarks
 * measure the process as it runs in production, and the deploy test holds every launcher to them.
 */
export async function startV8Flags(): Promise<string[]> {
  const config = JSON.parse(await Deno.readTextFile(new URL("../../deno.json", import.meta.url)));
  return v8FlagsOf(config.tasks.start).split(",").filter(Boolean);
}
