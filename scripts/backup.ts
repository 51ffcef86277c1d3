/**
 * `deno task backup`: an online backup of DATA_DIR's database and media into BACKUP_DIR, safe
 * while the server runs (server/ops/backup.ts). Prints the result as one JSON line. The same as
 * a release's `balcao backup` (scripts/cli.ts).
 */
import { runCommand } from "./cli.ts";

Deno.exit(await runCommand(["backup"]));
