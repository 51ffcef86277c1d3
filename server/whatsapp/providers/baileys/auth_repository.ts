import type { Database } from "../../../../db/client.ts";

/** A row of baileys_auth to write: value is already serialised JSON, null deletes the row. */
export type AuthWrite = { category: string; id: string; value: string | null };

/** SQLite limits bound parameters per statement; 6 columns x 150 rows stays far below it. */
const CHUNK = 150;

/** Serialised values of one category for the given ids (missing ids are absent from the map). */
export async function readAuthValues(
  db: Database,
  companyId: number,
  whatsappId: number,
  category: string,
  ids: string[],
): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  for (let i = 0; i < ids.length; i += CHUNK) {
    const rows = await db.selectFrom("baileys_auth").select(["id", "value"])
      .where("whatsappId", "=", whatsappId).where("companyId", "=", companyId)
      .where("category", "=", category).where("id", "in", ids.slice(i, i + CHUNK))
      .execute();
    for (const row of rows) found.set(row.id, row.value);
  }
  return found;
}

/**
 * Applies a batch of writes and deletes in one transaction: Baileys hands over a session's
 * keys together (a pre-key consumed, a session stored), and a crash halfway would leave them
 * inconsistent.
 */
export async function writeAuthValues(
  db: Database,
  companyId: number,
  whatsappId: number,
  writes: AuthWrite[],
  now: string,
): Promise<void> {
  if (writes.length === 0) return;
  const upserts = writes.filter((w): w is AuthWrite & { value: string } => w.value !== null);
  const deletes = writes.filter((w) => w.value === null);
  await db.transaction().execute(async (trx) => {
    for (let i = 0; i < upserts.length; i += CHUNK) {
      const rows = upserts.slice(i, i + CHUNK).map((w) => ({
        companyId,
        whatsappId,
        category: w.category,
        id: w.id,
        value: w.value,
        updatedAt: now,
      }));
      await trx.insertInto("baileys_auth").values(rows)
        .onConflict((oc) =>
          oc.columns(["whatsappId", "category", "id"]).doUpdateSet((eb) => ({
            value: eb.ref("excluded.value"),
            updatedAt: eb.ref("excluded.updatedAt"),
          }))
            // A row of another company under the same whatsappId is impossible (whatsappId is
            // unique), but the condition keeps writes tenant-scoped like every other query.
            .where("baileys_auth.companyId", "=", companyId)
        )
        .execute();
    }
    const deletesByCategory = new Map<string, string[]>();
    for (const w of deletes) {
      deletesByCategory.set(w.category, [...(deletesByCategory.get(w.category) ?? []), w.id]);
    }
    for (const [category, ids] of deletesByCategory) {
      for (let i = 0; i < ids.length; i += CHUNK) {
        await trx.deleteFrom("baileys_auth").where("whatsappId", "=", whatsappId)
          .where("companyId", "=", companyId).where("category", "=", category)
          .where("id", "in", ids.slice(i, i + CHUNK)).execute();
      }
    }
  });
}

/** Forgets everything of one connection (logout, new QR). */
export async function clearAuthValues(
  db: Database,
  companyId: number,
  whatsappId: number,
): Promise<void> {
  await db.deleteFrom("baileys_auth").where("whatsappId", "=", whatsappId)
    .where("companyId", "=", companyId).execute();
}

/** How many rows a connection holds, per category (diagnostics and tests). */
export async function countAuthValues(
  db: Database,
  companyId: number,
  whatsappId: number,
): Promise<Record<string, number>> {
  const rows = await db.selectFrom("baileys_auth")
    .select(["category", (eb) => eb.fn.countAll<number>().as("n")])
    .where("whatsappId", "=", whatsappId).where("companyId", "=", companyId)
    .groupBy("category").execute();
  return Object.fromEntries(rows.map((r) => [r.category, Number(r.n)]));
}
