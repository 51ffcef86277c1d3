import { createClient } from "@libsql/client";
import { Kysely } from "kysely";
import { LibsqlMutexDialect } from "./dialect.ts";
import type { DB } from "./schema.ts";

export type Database = Kysely<DB>;

/**
 * Opens the database. For a local file: WAL (readers never block the writer), foreign keys,
 * a busy timeout for other processes (a backup, the sqlite3 shell) and synchronous=NORMAL,
 * which is durable across process crashes in WAL mode.
 */
export async function openDatabase(url: string, authToken?: string): Promise<Database> {
  if (url.startsWith("file:")) {
    const path = url.slice("file:".length);
    const dir = path.includes("/") ? path.slice(0, path.lastIndexOf("/")) : ".";
    if (dir && path !== ":memory:") await Deno.mkdir(dir, { recursive: true });
  }
  // One connection: the dialect serialises access (see dialect.ts), so more would only idle.
  const client = createClient({ url, authToken, concurrency: 1, intMode: "number" });
  if (url.startsWith("file:")) {
    await client.execute("PRAGMA journal_mode = WAL");
    await client.execute("PRAGMA synchronous = NORMAL");
    await client.execute("PRAGMA busy_timeout = 5000");
  }
  await client.execute("PRAGMA foreign_keys = ON");
  return new Kysely<DB>({ dialect: new LibsqlMutexDialect(client) });
}
