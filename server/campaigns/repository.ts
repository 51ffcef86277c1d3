import { sql } from "kysely";
import type { Database } from "../../db/client.ts";
import type { Campaign } from "../../db/schema.ts";
import type { CampaignStats, CampaignView } from "../../contract/campaign_types.ts";
import { likePattern, pageAnswer, pageWindow } from "../paging.ts";

/** SQL of campaigns and their report figures. Every function is company-scoped. */

function baseQuery(db: Database, companyId: number) {
  return db.selectFrom("campaigns")
    .leftJoin("whatsapps", (j) =>
      j.onRef("whatsapps.id", "=", "campaigns.whatsappId")
        .on("whatsapps.companyId", "=", companyId))
    .leftJoin("contact_lists", (j) =>
      j.onRef("contact_lists.id", "=", "campaigns.contactListId")
        .on("contact_lists.companyId", "=", companyId))
    .where("campaigns.companyId", "=", companyId)
    .selectAll("campaigns")
    .select(["whatsapps.name as whatsappName", "contact_lists.name as contactListName"]);
}

type Row = Campaign & { whatsappName: string | null; contactListName: string | null };

function view(row: Row, stats: CampaignStats): CampaignView {
  const { whatsappName, contactListName, ...c } = row;
  return {
    ...c,
    confirmation: c.confirmation === 1,
    whatsapp: c.whatsappId !== null && whatsappName !== null
      ? { id: c.whatsappId, name: whatsappName }
      : null,
    contactList: c.contactListId !== null && contactListName !== null
      ? { id: c.contactListId, name: contactListName }
      : null,
    stats,
  };
}

/** The report's four figures; before the start, the list's valid numbers stand for recipients. */
export async function campaignStats(
  db: Database,
  companyId: number,
  campaign: Pick<Campaign, "id" | "contactListId">,
): Promise<CampaignStats> {
  const row = await db.selectFrom("campaign_shipping").where("companyId", "=", companyId)
    .where("campaignId", "=", campaign.id)
    .select((eb) => [
      eb.fn.countAll<number>().as("total"),
      sql<number>`SUM(status <> 'skipped')`.as("recipients"),
      sql<number>`SUM(deliveredAt IS NOT NULL)`.as("delivered"),
      sql<number>`SUM(confirmationRequestedAt IS NOT NULL)`.as("requested"),
      sql<number>`SUM(deliveredAt IS NOT NULL AND confirmationRequestedAt IS NOT NULL)`.as(
        "confirmed",
      ),
    ]).executeTakeFirstOrThrow();
  let validContacts = Number(row.recipients ?? 0);
  if (Number(row.total) === 0 && campaign.contactListId !== null) {
    const valid = await db.selectFrom("contact_list_items").where("companyId", "=", companyId)
      .where("contactListId", "=", campaign.contactListId).where("isWhatsappValid", "=", 1)
      .select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
    validContacts = Number(valid.n);
  }
  return {
    validContacts,
    delivered: Number(row.delivered ?? 0),
    confirmationRequested: Number(row.requested ?? 0),
    confirmed: Number(row.confirmed ?? 0),
  };
}

export async function findCampaign(db: Database, companyId: number, id: number) {
  return await db.selectFrom("campaigns").selectAll().where("companyId", "=", companyId)
    .where("id", "=", id).executeTakeFirst();
}

export async function campaignView(
  db: Database,
  companyId: number,
  id: number,
): Promise<CampaignView | undefined> {
  const row = await baseQuery(db, companyId).where("campaigns.id", "=", id).executeTakeFirst();
  return row ? view(row, await campaignStats(db, companyId, row)) : undefined;
}

export async function pageCampaigns(
  db: Database,
  companyId: number,
  searchParam: string | undefined,
  pageNumber: number,
) {
  let q = baseQuery(db, companyId);
  let total = db.selectFrom("campaigns").where("companyId", "=", companyId);
  const text = searchParam?.trim();
  if (text) {
    q = q.where(sql<boolean>`campaigns.name LIKE ${likePattern(text)} ESCAPE '\\'`);
    total = total.where(sql<boolean>`name LIKE ${likePattern(text)} ESCAPE '\\'`);
  }
  const window = pageWindow(pageNumber);
  const rows = await q.orderBy("campaigns.id", "desc").limit(window.limit).offset(window.offset)
    .execute();
  const records: CampaignView[] = [];
  for (const row of rows) records.push(view(row, await campaignStats(db, companyId, row)));
  const count = await total.select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  return pageAnswer("records", records, Number(count.n), window);
}
