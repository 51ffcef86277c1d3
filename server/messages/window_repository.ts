import type { Database } from "../../db/client.ts";

/** The connection's channel kind (its capabilities decide whether the 24-hour window applies). */
export async function channelOf(db: Database, companyId: number, whatsappId: number) {
  const row = await db.selectFrom("whatsapps").select("provider").where("companyId", "=", companyId)
    .where("id", "=", whatsappId).executeTakeFirst();
  return row?.provider;
}

/** When the contact last wrote through this connection (the time the network gave), if ever. */
export async function lastContactMessageAt(
  db: Database,
  companyId: number,
  whatsappId: number,
  contactId: number,
): Promise<string | undefined> {
  const row = await db.selectFrom("messages").select("createdAt")
    .where("companyId", "=", companyId).where("whatsappId", "=", whatsappId)
    .where("contactId", "=", contactId).where("fromMe", "=", 0)
    .orderBy("createdAt", "desc").limit(1).executeTakeFirst();
  return row?.createdAt;
}

/** The provider id of the contact's last message through this connection (for a read receipt). */
export async function lastContactMessageWid(
  db: Database,
  companyId: number,
  whatsappId: number,
  contactId: number,
): Promise<string | undefined> {
  const row = await db.selectFrom("messages").select("wid")
    .where("companyId", "=", companyId).where("whatsappId", "=", whatsappId)
    .where("contactId", "=", contactId).where("fromMe", "=", 0)
    .orderBy("createdAt", "desc").limit(1).executeTakeFirst();
  return row?.wid ?? undefined;
}
