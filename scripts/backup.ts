/**
 * `deno task backup`: an online backup of DATA_DIR's database and media into BACKUP_DIR, safe
 * while the server runs (server/ops/backup.ts). Prints the result as one JSON line.
 */
import { systemClock } from "../server/clock.ts";
import { ConfigError, loadConfig } from "../server/config.ts";
import { AppError } from "../server/errors.ts";
import { takeBackup } from "../server/ops/backup.ts";

try {
  const config = loadConfig(Deno.env.toObject());
  const result = await takeBackup(config, systemClock, { thread: "inline" });
  // deno-lint-ignore no-console
  console.log(JSON.stringify(result));
} catch (error) {
  if (!(error instanceof ConfigError || error instanceof AppError)) throw error;
  // deno-lint-ignore no-console
  console.error(error instanceof AppError ? `${error.code}: ${error.message}` : error.message);
  Deno.exit(1);
}
