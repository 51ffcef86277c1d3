import type { Database } from "../../db/client.ts";
import { crossCompany } from "../../db/tenancy.ts";
import type { Whatsapp } from "../../db/schema.ts";

/** SQL of the send API (POST /api/messages/send): its tokens and Idempotency-Keys. */

/**
 * The connection a bearer token names. The token is the request's only credential, so the
 * lookup (by its hash, unique) crosses companies: the company is the connection's.
 */
export async function findWhatsappByTokenHash(
  db: Database,
  hash: string,
): Promise<Whatsapp | undefined> {
  return await crossCompany(db).selectFrom("whatsapps").selectAll()
    .where("tokenHash", "=", hash).executeTakeFirst();
}

/** A key's stored request hash and answer, while younger than `since`. */
export async function findIdempotencyKey(
  db: Database,
  companyId: number,
  whatsappId: number,
  key: string,
  since: string,
) {
  return await db.selectFrom("api_idempotency_keys")
    .select(["requestHash", "responseJson"])
    .where("companyId", "=", companyId).where("whatsappId", "=", whatsappId)
    .where("key", "=", key).where("createdAt", ">=", since)
    .executeTakeFirst();
}

/**
 * Stores a key's answer, dropping the connection's keys older than `before` first (the unique
 * key (companyId, whatsappId, key) refuses a second answer for a key still kept).
 */
export async function storeIdempotencyKey(
  db: Database,
  row: {
    companyId: number;
    whatsappId: number;
    key: string;
    requestHash: string;
    responseJson: string;
    now: string;
  },
  before: string,
) {
  await db.deleteFrom("api_idempotency_keys").where("companyId", "=", row.companyId)
    .where("whatsappId", "=", row.whatsappId)
    .where("createdAt", "<", before)
    .execute();
  await db.insertInto("api_idempotency_keys").values({
    companyId: row.companyId,
    whatsappId: row.whatsappId,
    key: row.key,
    requestHash: row.requestHash,
    responseJson: row.responseJson,
    createdAt: row.now,
  }).execute();
}
