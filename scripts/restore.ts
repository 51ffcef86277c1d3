/**
 * `deno task restore <file>`: brings a backup back into DATA_DIR (server/ops/restore.ts). Refuses
 * while a server runs on the database; what was there is kept aside, not deleted.
 */
import { systemClock } from "../server/clock.ts";
import { ConfigError, loadConfig } from "../server/config.ts";
import { restoreBackup, RestoreError } from "../server/ops/restore.ts";

const file = Deno.args[0];
if (!file) {
  // deno-lint-ignore no-console
  console.error("usage: deno task restore <backup file>");
  Deno.exit(2);
}
try {
  const config = loadConfig(Deno.env.toObject());
  const result = await restoreBackup(config, file, systemClock);
  // deno-lint-ignore no-console
  console.log(JSON.stringify(result));
} catch (error) {
  if (!(error instanceof ConfigError || error instanceof RestoreError)) throw error;
  // deno-lint-ignore no-console
  console.error(`restore refused: ${error.message}`);
  Deno.exit(1);
}
