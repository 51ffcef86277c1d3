import type { CampaignStatus } from "./campaign_rules.ts";

/** A campaign as the API answers it (seeds/002 section 3 'Campaign'), declared once. */
export type CampaignView = {
  id: number;
  name: string;
  message1: string | null;
  message2: string | null;
  message3: string | null;
  message4: string | null;
  message5: string | null;
  confirmationMessage1: string | null;
  confirmationMessage2: string | null;
  confirmationMessage3: string | null;
  confirmationMessage4: string | null;
  confirmationMessage5: string | null;
  status: CampaignStatus;
  confirmation: boolean;
  scheduledAt: string | null;
  completedAt: string | null;
  whatsappId: number | null;
  whatsapp: { id: number; name: string } | null;
  contactListId: number | null;
  contactList: { id: number; name: string } | null;
  tagListId: number | null;
  fileListId: number | null;
  companyId: number;
  mediaPath: string | null;
  mediaName: string | null;
  /**
   * Issue 45: the approved template sent instead of the messages (a connection with the 24-hour
   * window needs one); its parameters may hold the campaign's variables ({nome}).
   */
  template: { name: string; language: string; parameters: string[] } | null;
  /** The report's figures (seeds/002 section 2.2), counted from the shipping rows. */
  stats: CampaignStats;
  createdAt: string;
  updatedAt: string;
};

/** One recipient of a started campaign (seeds/002 section 3 'shipping[]'). */
export type ShippingView = {
  id: number;
  contactListItemId: number | null;
  number: string;
  name: string;
  status: "pending" | "awaiting" | "queued" | "delivered" | "failed" | "skipped";
  deliveredAt: string | null;
  confirmationRequestedAt: string | null;
  confirmation: boolean;
  confirmedAt: string | null;
  createdAt: string;
};

/**
 * GET /api/campaigns/:id: the campaign with a page of its shipping rows, as the specification's
 * client's report counts them. Paged (SHIPPING_PAGE_SIZE, `shippingPage`): a campaign has as many
 * rows as its list (up to 20,000) and the report reads the campaign again on every live update, so
 * embedding them all would make each reload grow with the list; `stats` keeps the exact figures,
 * counted in SQL over every row.
 */
export type CampaignDetail = CampaignView & {
  shipping: ShippingView[];
  /** Every shipping row of the campaign (all pages). */
  shippingCount: number;
  shippingHasMore: boolean;
};

export const SHIPPING_PAGE_SIZE = 500;

export type CampaignStats = {
  /** Recipients: the shipping rows once started, else the list's valid numbers. */
  validContacts: number;
  delivered: number;
  confirmationRequested: number;
  /** Delivered after a confirmation was requested (seeds/002 section 2.2). */
  confirmed: number;
};

/** seeds/002 section 2.2: delivered divided by valid contacts, times 100 (0 when none). */
export function progressPercent(stats: CampaignStats): number {
  if (stats.validContacts === 0) return 0;
  return Math.min(100, Math.round(stats.delivered / stats.validContacts * 100));
}

/** A contact list as answered: seeds/002 section 3 'Contact list'. */
export type ContactListView = {
  id: number;
  name: string;
  companyId: number;
  contactsCount: number;
  /** Items whose WhatsApp check has not run yet (the page shows the check in progress). */
  uncheckedCount: number;
  createdAt: string;
  updatedAt: string;
};

/** seeds/002 section 3 'Contact list item'. isWhatsappValid is null until checked. */
export type ContactListItemView = {
  id: number;
  name: string;
  number: string;
  email: string;
  isWhatsappValid: boolean | null;
  companyId: number;
  contactListId: number;
  createdAt: string;
  updatedAt: string;
};

/** seeds/002 section 3 'File list': options each with name, path, mediaType, file and id. */
export type FileListOptionView = {
  id: number;
  name: string;
  /** Our stored file's key (we choose the name: server/media/store.ts). */
  path: string;
  mediaType: string;
  /** The URL the file is served from (authorised). */
  file: string;
};

export type FileListView = {
  id: number;
  name: string;
  message: string;
  userId: number | null;
  companyId: number;
  options: FileListOptionView[];
  createdAt: string;
  updatedAt: string;
};
