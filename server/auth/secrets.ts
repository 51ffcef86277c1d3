import type { Database } from "../../db/client.ts";
import type { Config } from "../config.ts";
import { log } from "../log.ts";

import { dataKey } from "../crypto/sealed.ts";
import { storedSecret } from "./secrets_repository.ts";

/** `data` seals integration and prompt secrets at rest (server/crypto/sealed.ts). */
export type Secrets = Readonly<{ access: Uint8Array; refresh: Uint8Array; data: CryptoKey }>;

/** `size` random bytes as base64url text: secrets, and sessions' public ids. */
export function randomSecret(size = 48): string {
  const bytes = crypto.getRandomValues(new Uint8Array(size));
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(
    /=+$/,
    "",
  );
}

/** JWT secrets: from the environment when given, otherwise generated once and kept in the database. */
export async function loadSecrets(db: Database, config: Config): Promise<Secrets> {
  const now = new Date().toISOString();
  const stored = (name: string) => storedSecret(db, name, randomSecret(), now);
  const access = config.jwtSecret ?? await stored("jwt_secret");
  const refresh = config.jwtRefreshSecret ?? await stored("jwt_refresh_secret");
  const data = await dataKey(config.dataEncryptionKey ?? await stored("data_key"));
  const encoder = new TextEncoder();
  return Object.freeze({
    access: encoder.encode(access),
    refresh: encoder.encode(refresh),
    data,
  });
}

/**
 * Said at start (main.ts) while DATA_ENCRYPTION_KEY is unset: the key that seals API keys and
 * webhook secrets is then kept in the database itself, so a copy of the database or of a backup
 * opens them (issue 35). README 'Secrets at rest' says how to move it out.
 */
export function warnIfDataKeyInDatabase(config: Pick<Config, "dataEncryptionKey">) {
  if (config.dataEncryptionKey) return;
  log.warn(
    "DATA_ENCRYPTION_KEY is not set: the key that seals API keys and webhook secrets is kept in " +
      "the database, so a copy of the database or a backup opens them. Set DATA_ENCRYPTION_KEY " +
      "to the stored key and delete it from the database (README 'Secrets at rest').",
  );
}
