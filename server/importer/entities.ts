import type { Entity } from "./engine.ts";
import { ANNOUNCEMENTS, CAMPAIGN_SHIPPING, CAMPAIGNS } from "./entities/campaigns.ts";
import { COMPANIES, PLANS, SETTINGS } from "./entities/companies.ts";
import { CONTACT_FIELDS, CONTACTS, TAGS } from "./entities/contacts.ts";
import { CONTACT_LIST_ITEMS, CONTACT_LISTS, INVOICES } from "./entities/lists.ts";
import { MESSAGES } from "./entities/messages.ts";
import {
  CONNECTION_QUEUES,
  CONNECTIONS,
  QUEUE_OPTIONS,
  QUEUES,
  USER_QUEUES,
  USERS,
} from "./entities/setup.ts";
import {
  NOTES,
  QUICK_ANSWERS,
  RATINGS,
  SCHEDULES,
  TICKET_TAGS,
  TICKETS,
} from "./entities/tickets.ts";

/**
 * What comes over, table by table (issue 47; the rules are README's 'Switching from Whaticket or
 * ticketz'). Each entity (entities/<area>.ts) reads one source table in id order and says what
 * our row is, or why the record is skipped. Order matters: a record's references are imported
 * before it.
 */
export const ENTITIES: Entity[] = [
  PLANS,
  COMPANIES,
  SETTINGS,
  CONNECTIONS,
  QUEUES,
  QUEUE_OPTIONS,
  CONNECTION_QUEUES,
  USERS,
  USER_QUEUES,
  CONTACTS,
  CONTACT_FIELDS,
  TAGS,
  TICKETS,
  TICKET_TAGS,
  MESSAGES,
  QUICK_ANSWERS,
  SCHEDULES,
  RATINGS,
  NOTES,
  CONTACT_LISTS,
  CONTACT_LIST_ITEMS,
  CAMPAIGNS,
  CAMPAIGN_SHIPPING,
  ANNOUNCEMENTS,
  INVOICES,
];
