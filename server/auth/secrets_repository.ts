import type { Database } from "../../db/client.ts";

/**
 * The secret stored under `name`, written with `candidate` when there is none yet. INSERT OR
 * IGNORE then read: two processes starting together agree on one secret.
 */
export async function storedSecret(
  db: Database,
  name: string,
  candidate: string,
  now: string,
): Promise<string> {
  await db.insertInto("app_secrets").values({ name, value: candidate, createdAt: now })
    .onConflict((oc) => oc.column("name").doNothing()).execute();
  const row = await db.selectFrom("app_secrets").select("value").where("name", "=", name)
    .executeTakeFirstOrThrow();
  return row.value;
}
