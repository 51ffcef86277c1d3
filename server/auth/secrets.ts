import type { Database } from "../../db/client.ts";
import type { Config } from "../config.ts";

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
