import { type Insertable, sql, type Updateable } from "kysely";
import type { Database } from "../../db/client.ts";
import type { Campaign, CampaignsTable } from "../../db/schema.ts";
import {
  type CampaignStats,
  type CampaignView,
  SHIPPING_PAGE_SIZE,
  type ShippingView,
} from "../../contract/campaign_types.ts";
import { parseSendTemplate } from "../../contract/channels.ts";
import { likePattern, pageAnswer, pageWindow } from "../paging.ts";
import { outboxIs } from "./shipping_repository.ts";

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
    template: parseSendTemplate(c.template),
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

/** A page of a campaign's shipping rows, in the order they were written (campaign_shipping_status). */
export async function pageShipping(
  db: Database,
  companyId: number,
  campaignId: number,
  pageNumber: number,
): Promise<{ shipping: ShippingView[]; count: number; hasMore: boolean }> {
  const q = db.selectFrom("campaign_shipping").where("companyId", "=", companyId)
    .where("campaignId", "=", campaignId);
  const window = pageWindow(pageNumber, SHIPPING_PAGE_SIZE);
  const rows = await q.select([
    "id",
    "contactListItemId",
    "number",
    "name",
    "status",
    "deliveredAt",
    "confirmationRequestedAt",
    "confirmation",
    "confirmedAt",
    "createdAt",
  ]).orderBy("id").limit(window.limit).offset(window.offset).execute();
  const total = await q.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
  const page = pageAnswer(
    "shipping",
    rows.map((r) => ({ ...r, confirmation: r.confirmation === 1 })),
    Number(total.n),
    window,
  );
  return page;
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

/** The numbers of the company that opted out of campaigns (a subquery). */
function optedOutNumbers(db: Database, companyId: number) {
  return db.selectFrom("campaign_opt_outs").select("number").where("companyId", "=", companyId);
}

/** The list's items found on WhatsApp, minus the numbers that opted out, in list order. */
export async function validListItems(db: Database, companyId: number, contactListId: number) {
  return await db.selectFrom("contact_list_items")
    .select(["id", "name", "number", "email"]).where("companyId", "=", companyId)
    .where("contactListId", "=", contactListId).where("isWhatsappValid", "=", 1)
    .where("number", "not in", optedOutNumbers(db, companyId)).orderBy("id").execute();
}

/** Non-group contacts with a ticket tagged `tagId`, minus the numbers that opted out. */
export async function taggedContacts(db: Database, companyId: number, tagId: number) {
  return await db.selectFrom("contacts")
    .select(["contacts.name", "contacts.number", "contacts.email"])
    .where("contacts.companyId", "=", companyId).where("contacts.isGroup", "=", 0)
    .where("contacts.number", "not in", optedOutNumbers(db, companyId))
    .where(
      "contacts.id",
      "in",
      (eb) =>
        eb.selectFrom("tickets").innerJoin("ticket_tags", "ticket_tags.ticketId", "tickets.id")
          .select("tickets.contactId").where("tickets.companyId", "=", companyId)
          .where("ticket_tags.tagId", "=", tagId),
    )
    .orderBy("contacts.id").execute();
}

/** Recipients a campaign can reach now: valid or not yet checked list items, or tagged contacts. */
export async function reachableCount(
  db: Database,
  companyId: number,
  target: Pick<Campaign, "contactListId" | "tagListId">,
): Promise<number> {
  if (target.contactListId !== null) {
    const row = await db.selectFrom("contact_list_items").where("companyId", "=", companyId)
      .where("contactListId", "=", target.contactListId)
      .where((eb) => eb.or([eb("isWhatsappValid", "is", null), eb("isWhatsappValid", "=", 1)]))
      .select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
    return Number(row.n);
  }
  if (target.tagListId !== null) {
    const row = await db.selectFrom("ticket_tags")
      .innerJoin("tickets", "tickets.id", "ticket_tags.ticketId")
      .innerJoin("contacts", "contacts.id", "tickets.contactId")
      .where("tickets.companyId", "=", companyId).where("ticket_tags.tagId", "=", target.tagListId)
      .where("contacts.isGroup", "=", 0)
      .select((eb) => eb.fn.count<number>("contacts.id").distinct().as("n"))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }
  return 0;
}

export async function insertCampaign(
  db: Database,
  values: Insertable<CampaignsTable> & { companyId: number },
): Promise<Campaign> {
  return await db.insertInto("campaigns").values(values).returningAll().executeTakeFirstOrThrow();
}

export async function updateCampaignRow(
  db: Database,
  companyId: number,
  id: number,
  values: Updateable<CampaignsTable>,
): Promise<Campaign> {
  return await db.updateTable("campaigns").set(values).where("companyId", "=", companyId)
    .where("id", "=", id).returningAll().executeTakeFirstOrThrow();
}

export async function setCampaignFields(
  db: Database,
  companyId: number,
  id: number,
  values: Updateable<CampaignsTable>,
) {
  await db.updateTable("campaigns").set(values).where("companyId", "=", companyId)
    .where("id", "=", id).execute();
}

export async function deleteCampaignRow(db: Database, companyId: number, id: number) {
  await db.deleteFrom("campaigns").where("companyId", "=", companyId).where("id", "=", id)
    .execute();
}

/**
 * A cancelled campaign's messages that have not left: its queued rows whose outbox row is still
 * pending (the outbox sends a chat's rows in order, so their files have not left either) are
 * withdrawn from the outbox and go back to pending, 500 at a time, in the caller's transaction.
 */
export async function withdrawQueued(
  trx: Database,
  companyId: number,
  campaignId: number,
  now: string,
) {
  const notLeft = await trx.selectFrom("campaign_shipping").select("campaign_shipping.id")
    .where("campaignId", "=", campaignId).where("companyId", "=", companyId)
    .where("status", "=", "queued")
    .where((eb) => outboxIs(eb, "pending")).execute();
  const ids = notLeft.map((r) => r.id);
  for (let i = 0; i < ids.length; i += 500) {
    const chunk = ids.slice(i, i + 500);
    await trx.updateTable("outbox").set({ status: "cancelled", updatedAt: now })
      .where("campaignShippingId", "in", chunk).where("companyId", "=", companyId)
      .where("status", "=", "pending").execute();
    await trx.updateTable("campaign_shipping").set({
      status: "pending",
      outboxId: null,
      updatedAt: now,
    }).where("id", "in", chunk).where("companyId", "=", companyId)
      .where("status", "=", "queued").execute();
  }
}

/** The company's saved campaign settings (key, JSON value). */
export async function campaignSettingRows(db: Database, companyId: number) {
  return await db.selectFrom("campaign_settings").select(["key", "value"])
    .where("companyId", "=", companyId).execute();
}

/** Writes one setting (its JSON text). */
export async function upsertCampaignSetting(
  db: Database,
  companyId: number,
  key: string,
  text: string,
  now: string,
) {
  await db.insertInto("campaign_settings").values({
    companyId,
    key,
    value: text,
    updatedAt: now,
  })
    .onConflict((oc) =>
      oc.columns(["companyId", "key"]).doUpdateSet({ value: text, updatedAt: now })
    )
    .execute();
}
