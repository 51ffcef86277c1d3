import { type Entity, iso } from "../engine.ts";
import { flag, num, optional, stamps, str, tableEntity } from "./shared.ts";

/**
 * Campaigns with their shipping rows, and the platform's announcements (issue 47; Whaticket
 * SaaS' Campaigns, CampaignShipping and Announcements). A campaign comes over as history and
 * report, never to be sent again: one still scheduled or sending there arrives CANCELADA, so our
 * dispatcher (which starts only PROGRAMADA and sends only EM_ANDAMENTO) leaves it alone; its rows
 * already delivered are marked delivered. Files (campaign media, announcement images) are not
 * copied: they live outside the media folder `--media` names.
 */

const KEPT = new Set(["INATIVA", "CANCELADA", "FINALIZADA"]);

export const CAMPAIGNS: Entity = tableEntity({
  kind: "campaigns",
  query: optional("Campaigns", "c"),
  refs: (r) => ({
    list: ["contact_lists", r.contactListId],
    whatsapp: ["whatsapps", r.whatsappId],
  }),
  build: (row, ctx, refs, companyId) => {
    const source = str(row.status).toUpperCase();
    const status = KEPT.has(source) ? source : "CANCELADA";
    if (!KEPT.has(source)) {
      ctx.note(
        companyId,
        "campaigns",
        `imported CANCELADA: it was ${source || "without a status"}`,
      );
    }
    if (row.mediaPath) ctx.note(companyId, "campaigns", "media file not copied");
    const text = (name: string) =>
      row[name] === null || row[name] === undefined ? null : str(row[name]);
    const { createdAt, updatedAt } = stamps(row, ctx.now);
    const scheduledAt = iso(row.scheduledAt);
    return {
      values: {
        companyId,
        name: str(row.name, `Campanha ${row.id}`),
        ...Object.fromEntries(
          [1, 2, 3, 4, 5].flatMap((n) => [
            [`message${n}`, text(`message${n}`)],
            [`confirmationMessage${n}`, text(`confirmationMessage${n}`)],
          ]),
        ),
        status,
        confirmation: flag(row.confirmation),
        scheduledAt,
        completedAt: iso(row.completedAt),
        // It had started there when it got past its schedule.
        startedAt: status === "INATIVA" ? null : scheduledAt ?? createdAt,
        whatsappId: refs.get("whatsapp"),
        contactListId: refs.get("list"),
        createdAt,
        updatedAt,
      },
    };
  },
});

export const CAMPAIGN_SHIPPING: Entity = tableEntity({
  kind: "campaign_shipping",
  query: optional("CampaignShipping", "s", ["Campaigns", "campaignId"]),
  refs: (r) => ({
    campaign: ["campaigns", r.campaignId],
    item: ["contact_list_items", r.contactId],
  }),
  build: (row, ctx, refs, companyId) => {
    const campaignId = refs.get("campaign");
    if (campaignId === null) return { skip: "its campaign is not imported" };
    const number = str(row.number).replace(/\D/g, "");
    if (number === "") return { skip: "no number" };
    const deliveredAt = iso(row.deliveredAt);
    return {
      values: {
        companyId,
        campaignId,
        contactListItemId: refs.get("item"),
        number,
        message: str(row.message),
        confirmationMessage: row.confirmationMessage ? str(row.confirmationMessage) : null,
        // Not delivered there: pending here, sent only if someone resumes the campaign.
        status: deliveredAt ? "delivered" : "pending",
        confirmationRequestedAt: iso(row.confirmationRequestedAt),
        confirmation: flag(row.confirmation),
        confirmedAt: iso(row.confirmedAt),
        deliveredAt,
        ...stamps(row, ctx.now),
      },
    };
  },
});

export const ANNOUNCEMENTS: Entity = tableEntity({
  kind: "announcements",
  query: optional("Announcements", "a"),
  build: (row, ctx, _refs, companyId) => {
    if (row.mediaPath) ctx.note(companyId, "announcements", "image not copied");
    const priority = Math.min(3, Math.max(1, num(row.priority, 3)));
    return {
      values: {
        companyId,
        title: str(row.title, `Aviso ${row.id}`),
        text: str(row.text),
        priority,
        // No status there: shown, as our default.
        status: row.status === null || row.status === undefined ? 1 : flag(row.status),
        mediaPath: null,
        mediaName: null,
        ...stamps(row, ctx.now),
      },
    };
  },
});
