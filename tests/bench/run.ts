/**
 * `deno task bench`: runs every tests/bench/*_bench.ts in its own process, one after another
 * (benchmarks must not compete for the CPU), passing the command-line arguments through.
 */
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const dir = dirname(fileURLToPath(import.meta.url));
const files = [...Deno.readDirSync(dir)].map((e) => e.name).filter((n) => n.endsWith("_bench.ts"))
  .sort();
let failed = 0;
for (const file of files) {
  const { code } = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", join(dir, file), ...Deno.args],
    stdout: "inherit",
    stderr: "inherit",
    env: { LOG_LEVEL: "warn" },
  }).output();
  if (code !== 0) failed++;
}
Deno.exit(failed ? 1 : 0);
