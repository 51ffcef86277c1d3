/**
 * `deno task restore <file>`: brings a backup back into DATA_DIR (server/ops/restore.ts). Refuses
 * while a server runs on the database; what was there is kept aside, not deleted. The same as a
 * release's `balcao restore <file>` (scripts/cli.ts).
 */
import { runCommand } from "./cli.ts";

Deno.exit(await runCommand(["restore", ...Deno.args]));
