import type { Generated, Insertable, Selectable, Updateable } from "kysely";
import type { QueueDistribution } from "../contract/queue_types.ts";

export type { QueueDistribution };

/** Row types of the tables in db/migrations. Booleans are 0/1 integers in storage. */
type Flag = number;
type Timestamps = { createdAt: string; updatedAt: string };

export interface PlansTable extends Timestamps {
  id: Generated<number>;
  name: string;
  users: Generated<number>;
  connections: Generated<number>;
  queues: Generated<number>;
  campaigns: Generated<number>;
  schedules: Generated<number>;
  /** The monthly price in integer cents (migration 0700; answers carry `value` in reais). */
  valueCents: Generated<number>;
  useCampaigns: Generated<Flag>;
  useKanban: Generated<Flag>;
  useOpenAi: Generated<Flag>;
  useIntegrations: Generated<Flag>;
  useSchedules: Generated<Flag>;
  useInternalChat: Generated<Flag>;
  useExternalApi: Generated<Flag>;
  /** 0600: the attendant's assistant (issue 48). */
  useAssist: Generated<Flag>;
}

export interface CompaniesTable extends Timestamps {
  id: Generated<number>;
  name: string;
  email: string | null;
  phone: string | null;
  planId: number | null;
  status: Generated<Flag>;
  dueDate: string | null;
  recurrence: string | null;
  schedules: Generated<string>;
  billingName: string | null;
  addressZipCode: string | null;
  addressStreet: string | null;
  addressState: string | null;
  addressCity: string | null;
  addressDistrict: string | null;
  /** 0070: the day the due-date job first saw the company overdue (YYYY-MM-DD). */
  overdueSince: string | null;
  /** 0070: when the due-date job blocked it (status 0) after the grace days; paying clears it. */
  blockedAt: string | null;
}

export interface SettingsTable extends Timestamps {
  id: Generated<number>;
  companyId: number;
  key: string;
  value: string;
}

export interface QueuesTable extends Timestamps {
  id: Generated<number>;
  companyId: number;
  name: string;
  color: string;
  greetingMessage: Generated<string>;
  outOfHoursMessage: Generated<string>;
  orderQueue: number | null;
  integrationId: number | null;
  promptId: number | null;
  schedules: Generated<string>;
  mediaPath: string | null;
  mediaName: string | null;
  /** 0150: "off" | "round_robin" | "least_busy" (issue 26). */
  distribution: Generated<QueueDistribution>;
  /** 0150: the user round-robin gave the last ticket to. */
  distributionCursor: Generated<number | null>;
  /** 0150: service-level targets in business minutes of the queue (null: none). */
  firstResponseMinutes: Generated<number | null>;
  resolutionMinutes: Generated<number | null>;
  /** 0450: the resolution clock stops while the ticket's last message is ours. */
  pauseWhenWaitingOnCustomer: Generated<Flag>;
}

export interface QueueOptionsTable extends Timestamps {
  id: Generated<number>;
  companyId: number;
  queueId: number;
  parentId: number | null;
  title: string;
  message: Generated<string>;
  option: string;
  mediaPath: string | null;
  mediaName: string | null;
}

export interface WhatsappsTable extends Timestamps {
  id: Generated<number>;
  companyId: number;
  name: string;
  status: Generated<string>;
  qrcode: Generated<string>;
  retries: Generated<number>;
  number: string | null;
  isDefault: Generated<Flag>;
  greetingMessage: Generated<string>;
  complationMessage: Generated<string>;
  outOfHoursMessage: Generated<string>;
  ratingMessage: Generated<string>;
  /** Empty since 0140: the token itself is never stored, only shown once when made. */
  token: Generated<string>;
  /** SHA-256 of the API token (0120): the send API finds the connection by it. */
  tokenHash: string | null;
  /** What admins see of the token: its prefix and last four characters (0140). */
  tokenHint: Generated<string>;
  provider: Generated<string>;
  timeSendQueue: Generated<number>;
  sendIdQueue: Generated<number>;
  expiresInactiveMessage: Generated<string>;
  expiresTicket: Generated<number>;
  timeUseBotQueues: Generated<number>;
  maxUseBotQueues: Generated<number>;
  promptId: number | null;
  /** db/migrations/0110: every new ticket of the connection goes to this integration. */
  integrationId: Generated<number | null>;
}

export interface WhatsappQueuesTable {
  companyId: number;
  whatsappId: number;
  queueId: number;
}

/** 0560: a process holding a socket of the user (users.online: some row exists). */
/** Issue 47: the one source database an import came from (server/importer/). */
export interface ImportSourcesTable {
  id: Generated<number>;
  fingerprint: string;
  system: string;
  version: string;
  createdAt: string;
  finishedAt: string | null;
}

/** Issue 47: a source record (kind + its id there) -> our id, its hash and our stamp. */
export interface ImportMapTable {
  sourceId: number;
  kind: string;
  sourceKey: string;
  companyId: number | null;
  targetId: number;
  hash: string;
  stamp: string;
}

export interface UserPresenceTable {
  companyId: number;
  userId: number;
  instanceId: string;
  seenAt: string;
}

export interface UsersTable extends Timestamps {
  id: Generated<number>;
  companyId: number;
  name: string;
  email: string;
  passwordHash: string;
  profile: Generated<string>;
  super: Generated<Flag>;
  whatsappId: number | null;
  allTicket: Generated<string>;
  online: Generated<Flag>;
  lastSeenAt: string | null;
  tokenVersion: Generated<number>;
  /** 0150: pending/open tickets distribution gives them at most (null: unlimited). */
  maxOpenTickets: Generated<number | null>;
  /** 0450: the user's daily hours for distribution, HH:MM (null: any time). */
  startWork: Generated<string | null>;
  endWork: Generated<string | null>;
  /** db/migrations/0300: the sealed TOTP secret (while enrolling, and once on). */
  twoFactorSecret: Generated<string | null>;
  /** When two-factor sign-in was confirmed; null: off. */
  twoFactorEnabledAt: Generated<string | null>;
  /** The TOTP time step of the last accepted code: a code is accepted once. */
  twoFactorLastStep: Generated<number | null>;
}

/** A single-use recovery code of two-factor sign-in, hashed (db/migrations/0300). */
export interface RecoveryCodesTable {
  id: Generated<number>;
  companyId: number;
  userId: number;
  codeHash: string;
  createdAt: string;
  usedAt: string | null;
}

/** The step between a login's password and its second factor (id hashed, used once). */
export interface TwoFactorChallengesTable {
  id: Generated<number>;
  companyId: number;
  userId: number;
  challengeHash: string;
  createdAt: string;
  expiresAt: string;
  usedAt: string | null;
}

/** Append-only record of who changed what (db/migrations/0300; issue 30). */
export interface AuditLogsTable {
  id: Generated<number>;
  companyId: number;
  userId: number | null;
  userName: string | null;
  action: string;
  entity: string;
  entityId: string | null;
  /** JSON of the fields before and after, secrets masked. */
  before: string | null;
  after: string | null;
  ip: string | null;
  userAgent: string | null;
  createdAt: string;
}

export interface UserQueuesTable {
  companyId: number;
  userId: number;
  queueId: number;
  /** 0450: the user supervises the queue (hears its breaches). */
  supervisor: Generated<Flag>;
}

export interface RefreshTokensTable {
  id: string;
  userId: number;
  companyId: number;
  expiresAt: string;
  revokedAt: string | null;
  createdAt: string;
  /** The session the token belongs to (null only for tokens issued before sessions existed). */
  sessionId: number | null;
}

/** A login (db/migrations/0051): its tokens carry publicId; endedAt set ends them all. */
export interface SessionsTable {
  id: Generated<number>;
  publicId: string;
  companyId: number;
  userId: number;
  createdAt: string;
  lastSeenAt: string;
  endedAt: string | null;
  endReason: string | null;
  /** db/migrations/0300: where it started; 1 while the user must turn on two-factor first. */
  userAgent: Generated<string | null>;
  ip: Generated<string | null>;
  enrolling: Generated<Flag>;
}

export interface PasswordResetsTable {
  id: Generated<number>;
  companyId: number;
  userId: number;
  tokenHash: string;
  createdAt: string;
  expiresAt: string;
  usedAt: string | null;
}

export interface WhatsappLeasesTable {
  whatsappId: number;
  companyId: number;
  holder: string;
  expiresAt: string;
  acquiredAt: string;
}

export interface InstancesTable {
  id: string;
  startedAt: string;
  seenAt: string;
}

export interface AppSecretsTable {
  name: string;
  value: string;
  createdAt: string;
}

export interface ContactsTable extends Timestamps {
  id: Generated<number>;
  uuid: string;
  companyId: number;
  name: string;
  number: string;
  lid: string | null;
  email: Generated<string>;
  profilePicUrl: Generated<string>;
  isGroup: Generated<Flag>;
  whatsappId: number | null;
}

export interface ContactCustomFieldsTable extends Timestamps {
  id: Generated<number>;
  companyId: number;
  contactId: number;
  name: string;
  value: Generated<string>;
}

export type TicketStatus = "pending" | "open" | "closed";

export interface TicketsTable extends Timestamps {
  id: Generated<number>;
  uuid: string;
  companyId: number;
  contactId: number;
  whatsappId: number | null;
  userId: number | null;
  queueId: number | null;
  queueOptionId: number | null;
  status: Generated<TicketStatus>;
  isGroup: Generated<Flag>;
  chatbot: Generated<Flag>;
  amountUsedBotQueues: Generated<number>;
  useIntegration: Generated<Flag>;
  integrationId: number | null;
  promptId: number | null;
  /** The outside bot's conversation (typebot sessionId) and its last activity (0110). */
  botSession: Generated<string | null>;
  botSessionAt: Generated<string | null>;
  lastMessage: Generated<string>;
  unreadMessages: Generated<number>;
  acceptedAt: string | null;
  closedAt: string | null;
  awaitingRating: Generated<Flag>;
  /** 0150 (issue 26): due instants of the queue's targets, the breach once recorded. */
  firstResponseDueAt: Generated<string | null>;
  resolutionDueAt: Generated<string | null>;
  slaBreachedAt: Generated<string | null>;
  /** 0150: when distribution gave it to its user (null: a person chose). */
  distributedAt: Generated<string | null>;
  /** 0450: when the resolution clock stopped, waiting on the customer (null: running). */
  resolutionPausedAt: Generated<string | null>;
  /** 0741: the ad the contact came from, JSON (contract TicketReferral); null: none. */
  referral: Generated<string | null>;
}

export interface MessagesTable extends Timestamps {
  id: Generated<number>;
  companyId: number;
  ticketId: number;
  contactId: number | null;
  whatsappId: number | null;
  wid: string | null;
  remoteJid: string | null;
  participant: string | null;
  body: Generated<string>;
  fromMe: Generated<Flag>;
  mediaType: string | null;
  mediaUrl: string | null;
  mediaName: string | null;
  isDeleted: Generated<Flag>;
  isEdited: Generated<Flag>;
  ack: Generated<number>;
  read: Generated<Flag>;
  quotedMsgId: number | null;
  dataJson: string | null;
  /** 0010: MIME type of the stored media (served as its content-type). */
  mediaMimetype: string | null;
  /** 0010: set by the outbox when a send failed for good (ERR_SENDING_WAPP_MSG). */
  sendError: string | null;
  /** 0150: inbound media not stored yet (storage failed); the media_retry job fetches it. */
  mediaPending: Generated<Flag>;
  /** 0410: sent as a forward (shown 'Encaminhada'). */
  isForwarded: Generated<Flag>;
  /** 0410: JSON [{body, editedAt}] of the texts edits replaced, oldest first; null if never. */
  previousBodies: Generated<string | null>;
  /** 0600: a voice note's text (issue 48); null until transcribed. */
  transcript: Generated<string | null>;
  /** 0600: why it has no transcript (shown on hover); null when none failed. */
  transcriptError: Generated<string | null>;
  /** 0680: the contact's reaction (an emoji) and the attendant's; null: none. */
  reaction: Generated<string | null>;
  ownReaction: Generated<string | null>;
}

export interface TicketNotesTable extends Timestamps {
  id: Generated<number>;
  companyId: number;
  ticketId: number;
  contactId: number;
  userId: number | null;
  note: string;
}

export interface TagsTable extends Timestamps {
  id: Generated<number>;
  companyId: number;
  name: string;
  color: Generated<string>;
  kanban: Generated<Flag>;
}

export interface TicketTagsTable {
  companyId: number;
  ticketId: number;
  tagId: number;
}

export interface QuickMessagesTable extends Timestamps {
  id: Generated<number>;
  companyId: number;
  userId: number | null;
  shortcode: string;
  message: Generated<string>;
  geral: Generated<Flag>;
  mediaPath: string | null;
  mediaName: string | null;
  /** Issue 28: the queue whose attendants it is offered to (null: company-wide or personal). */
  queueId: Generated<number | null>;
}

/** Issue 28: a ticket pinned to the top of one user's lists. */
export interface TicketPinsTable {
  companyId: number;
  userId: number;
  ticketId: number;
  createdAt: string;
}

/** Issue 50 item 17: a ticket taken back from an attendant who was offline (0685). */
export interface TakenBackNoticesTable {
  id: Generated<number>;
  companyId: number;
  userId: number;
  ticketId: number;
  toUserId: number | null;
  at: string;
  seenAt: string | null;
}

/** Issue 42: one browser of one user for Web Push, bound to its sign-in session (0540). */
export interface PushSubscriptionsTable {
  id: Generated<number>;
  companyId: number;
  userId: number;
  sessionId: number;
  endpoint: string;
  p256dh: string;
  auth: string;
  language: Generated<string>;
  userAgent: string | null;
  createdAt: string;
  lastSentAt: string | null;
}

/** A user's push choices: kinds (JSON array), the message text or not, quiet hours (HH:MM). */
export interface PushPreferencesTable {
  companyId: number;
  userId: number;
  kinds: string;
  showText: Flag;
  quietStart: string | null;
  quietEnd: string | null;
  updatedAt: string;
}

/** The push job's queue: one fact for one device, once (push_deliveries_once). */
export interface PushDeliveriesTable {
  id: Generated<number>;
  companyId: number;
  subscriptionId: number;
  eventKey: string;
  payload: string;
  status: Generated<"pending" | "sending" | "sent" | "failed">;
  attempts: Generated<number>;
  nextAttemptAt: string;
  claimId: string | null;
  claimedUntil: string | null;
  lastStatus: number | null;
  createdAt: string;
  updatedAt: string;
}
export type PushSubscription = Selectable<PushSubscriptionsTable>;

/** Events leaving the system, noted with the change (migration 0680; server/events/outgoing.ts). */
export interface OutgoingEventsTable {
  id: Generated<number>;
  companyId: number;
  eventKey: string;
  event: string;
  subject: string;
  claimId: string | null;
  claimedUntil: string | null;
  createdAt: string;
  capturedAt: string | null;
}

export interface SchedulesTable extends Timestamps {
  id: Generated<number>;
  companyId: number;
  contactId: number;
  ticketId: number | null;
  userId: number | null;
  body: string;
  sendAt: string;
  sentAt: string | null;
  status: Generated<string>;
  mediaPath: string | null;
  mediaName: string | null;
  /** Why the job did not send it (a catalogue code), migration 0060. */
  errorCode: string | null;
  /** The message the job queued (its sendError is a provider's refusal), migration 0060. */
  messageId: number | null;
  /** 0680: the approved template sent instead of free text (JSON {name, language, parameters}). */
  template: Generated<string | null>;
}

export interface UserRatingsTable {
  id: Generated<number>;
  companyId: number;
  ticketId: number;
  userId: number | null;
  rate: number;
  createdAt: string;
}

export type OutboxStatus = "pending" | "sending" | "sent" | "failed" | "cancelled";

export interface OutboxTable extends Timestamps {
  id: Generated<number>;
  companyId: number;
  whatsappId: number;
  ticketId: number | null;
  messageId: number | null;
  wid: string;
  toJid: string;
  body: Generated<string>;
  mediaPath: string | null;
  mediaMimetype: string | null;
  mediaName: string | null;
  ptt: Generated<Flag>;
  quotedWid: string | null;
  status: Generated<OutboxStatus>;
  attempts: Generated<number>;
  claimId: string | null;
  nextAttemptAt: string;
  lastError: string | null;
  sentAt: string | null;
  /** 0092: the campaign shipping row this send belongs to (null for every other send). */
  campaignShippingId: Generated<number | null>;
  /** 0410: sent with WhatsApp's forwarded mark. */
  forwarded: Generated<Flag>;
  /** 0545: a Cloud API template send, JSON {name, language, parameters}; null for free text. */
  template: Generated<string | null>;
  /** 0680: a chatbot menu's choices (JSON [{id, title}]) the channel may send as buttons. */
  menu: Generated<string | null>;
  /** 0740: an attendant's reaction, JSON {emoji, previous}, on the message `messageId`. */
  reaction: Generated<string | null>;
}

/** 0545: a Cloud API connection's Graph ids and sealed secrets (issue 45). */
export interface WhatsappCloudTable extends Timestamps {
  id: Generated<number>;
  companyId: number;
  whatsappId: number;
  phoneNumberId: string;
  businessAccountId: string;
  /** Sealed (server/crypto/sealed.ts). */
  accessToken: Generated<string>;
  /** Sealed. */
  appSecret: Generated<string>;
  verifyToken: string;
  webhookKey: string;
  displayNumber: Generated<string | null>;
  verifiedName: Generated<string | null>;
  qualityRating: Generated<string | null>;
  lastError: Generated<string | null>;
  templatesSyncedAt: Generated<string | null>;
  /** 0620: Meta throttled the number: no send before this instant; consecutive refusals. */
  backoffUntil: Generated<string | null>;
  backoffLevel: Generated<number>;
}

export interface WhatsappCloudInboxTable {
  id: Generated<number>;
  companyId: number;
  whatsappId: number;
  body: string;
  receivedAt: string;
  processedAt: Generated<string | null>;
  attempts: Generated<number>;
  lastError: Generated<string | null>;
}

export interface WhatsappCloudSendsTable {
  id: Generated<number>;
  companyId: number;
  whatsappId: number;
  wid: string;
  wamid: Generated<string | null>;
  createdAt: string;
}

export interface WhatsappCloudTemplatesTable {
  id: Generated<number>;
  companyId: number;
  whatsappId: number;
  name: string;
  language: string;
  status: string;
  category: string;
  parameters: Generated<number>;
  body: Generated<string>;
  syncedAt: string;
}

export interface SimulatorSessionsTable {
  whatsappId: number;
  companyId: number;
  number: string;
  linkedAt: string;
}

export interface SimulatorSentTable extends Timestamps {
  id: Generated<number>;
  companyId: number;
  whatsappId: number;
  wid: string;
  toJid: string;
  body: Generated<string>;
  mediaMimetype: string | null;
  mediaName: string | null;
  mediaSize: number | null;
  ptt: Generated<Flag>;
  quotedId: string | null;
  ack: Generated<number>;
  deleted: Generated<Flag>;
  /** 0410: sent as a forward / edited since (what the simulated phone shows). */
  forwarded: Generated<Flag>;
  edited: Generated<Flag>;
}

/** Baileys credentials and Signal keys of one connection (migration 0020). */
export interface BaileysAuthTable {
  companyId: number;
  whatsappId: number;
  category: string;
  id: string;
  value: string;
  updatedAt: string;
}

/** 0032: tickets per (company, status, queue, user), kept by triggers; 0 stands for "none". */
/** 0400: a ticket's timeline, one row per fact, written by triggers (see the migration). */
export type TicketEventKind =
  | "created"
  | "queued"
  | "handover"
  | "accepted"
  | "first_response"
  | "transfer"
  | "resolved"
  | "reopened"
  | "rated"
  | "sla_breached";

export interface TicketEventsTable {
  id: Generated<number>;
  companyId: number;
  ticketId: number;
  kind: TicketEventKind;
  at: string;
  userId: number | null;
  queueId: number | null;
  whatsappId: number | null;
  fromUserId: number | null;
  fromQueueId: number | null;
  seconds: number | null;
  value: number | null;
  /** The local day of `at` (written by the view ticket_event_facts). */
  day: string;
}

/** 0400: counts per (company, local day, user, queue, connection); 0: none. */
export interface ReportDaysTable {
  companyId: number;
  day: string;
  userId: number;
  queueId: number;
  whatsappId: number;
  created: number;
  queued: number;
  accepted: number;
  resolved: number;
  reopened: number;
  transfers: number;
  slaBreaches: number;
  rated1: number;
  rated2: number;
  rated3: number;
}

/** 0400: messages in/out per (company, UTC hour 'YYYY-MM-DDTHH', user, queue, connection); 0: none. */
export interface ReportMessageHoursTable {
  companyId: number;
  hour: string;
  userId: number;
  queueId: number;
  whatsappId: number;
  inbound: number;
  outbound: number;
}

/** 0470: messages in/out per (ticket, local day): the tags' reports. */
export interface ReportTicketMessagesTable {
  companyId: number;
  ticketId: number;
  day: string;
  inbound: number;
  outbound: number;
}

export interface TicketCountsTable {
  companyId: number;
  status: string;
  queueId: number;
  userId: number;
  n: number;
}

/** 0500: tickets that are not groups per (status, queue, user, unread): the notifications' count. */
export interface TicketNotificationCountsTable {
  companyId: number;
  status: string;
  queueId: number;
  userId: number;
  unread: number;
  n: number;
}

/** 0070: help videos, platform-wide (written by super users, read by everyone). */
export interface HelpsTable extends Timestamps {
  id: Generated<number>;
  title: string;
  description: Generated<string>;
  video: Generated<string>;
}

/** 0100: an internal chat of one company (seeds/002 section 3 'Chat'). */
export interface ChatsTable extends Timestamps {
  id: Generated<number>;
  uuid: string;
  companyId: number;
  ownerId: number | null;
  title: string;
  lastMessage: Generated<string>;
}

/** 0100: a participant of a chat and their unread counter. */
export interface ChatUsersTable extends Timestamps {
  companyId: number;
  chatId: number;
  userId: number;
  unreads: Generated<number>;
}

export interface ChatMessagesTable extends Timestamps {
  id: Generated<number>;
  companyId: number;
  chatId: number;
  senderId: number | null;
  message: string;
}

/** 0101: a platform notice by a super user; companyId is the author's company. */
export interface AnnouncementsTable extends Timestamps {
  id: Generated<number>;
  companyId: number;
  title: string;
  text: string;
  priority: Generated<number>;
  status: Generated<Flag>;
  mediaPath: string | null;
  mediaName: string | null;
}

export interface AnnouncementReadsTable {
  announcementId: number;
  userId: number;
  companyId: number;
  readAt: string;
}

/** Billing (migration 0080): one invoice per company and period. */
export type InvoiceStatus = "open" | "paid";

export interface InvoicesTable extends Timestamps {
  id: Generated<number>;
  companyId: number;
  detail: string;
  /** Integer cents (migration 0700; answers carry `value` in reais). */
  valueCents: number;
  /** YYYY-MM-DD: the company's due date this invoice pays (unique per company). */
  dueDate: string;
  status: Generated<InvoiceStatus>;
  paidAt: string | null;
  paidByUserId: number | null;
  /** "manual" (a super user) or the provider whose confirmation paid it. */
  paidVia: string | null;
  /** The payment provider the charge was created at (server/billing/providers/). */
  provider: string | null;
  chargeId: string | null;
  pixPayload: string | null;
}

export interface PaymentEventsTable {
  id: Generated<number>;
  provider: string;
  eventId: string;
  invoiceId: number | null;
  createdAt: string;
}

export interface BillingCustomersTable {
  companyId: number;
  provider: string;
  customerId: string;
  createdAt: string;
}

/** 0090 (issue 13): contact lists and items, file lists, campaigns and their shipping rows. */

export interface ContactListsTable extends Timestamps {
  id: Generated<number>;
  companyId: number;
  name: string;
}

export interface ContactListItemsTable extends Timestamps {
  id: Generated<number>;
  companyId: number;
  contactListId: number;
  name: string;
  number: string;
  email: Generated<string>;
  /** null: not checked yet; 1 on WhatsApp; 0 not. */
  isWhatsappValid: number | null;
  checkedAt: string | null;
}

export interface FileListsTable extends Timestamps {
  id: Generated<number>;
  companyId: number;
  name: string;
  message: Generated<string>;
  userId: number | null;
}

export interface FileListOptionsTable extends Timestamps {
  id: Generated<number>;
  companyId: number;
  fileListId: number;
  name: string;
  path: string;
  mediaType: string;
}

export interface CampaignSettingsTable {
  companyId: number;
  key: string;
  /** JSON text. */
  value: string;
  updatedAt: string;
}

export type { CampaignStatus } from "../contract/campaign_rules.ts";
import type { CampaignStatus } from "../contract/campaign_rules.ts";

export interface CampaignsTable extends Timestamps {
  id: Generated<number>;
  companyId: number;
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
  status: Generated<CampaignStatus>;
  confirmation: Generated<Flag>;
  scheduledAt: string | null;
  completedAt: string | null;
  /** 0091: when the shipping rows were all written and the campaign became EM_ANDAMENTO. */
  startedAt: string | null;
  whatsappId: number | null;
  contactListId: number | null;
  tagListId: number | null;
  fileListId: number | null;
  mediaPath: string | null;
  mediaName: string | null;
  /** 0680: the approved template sent instead of free text (JSON {name, language, parameters}). */
  template: Generated<string | null>;
}

/**
 * pending: the next send is due (the confirmation request, or the message); awaiting: the
 * confirmation request left, waiting for the contact's answer; queued: the message is in the
 * outbox; delivered: the outbox sent it; failed: the outbox gave up; skipped: opted out.
 */

export type ShippingStatus = "pending" | "awaiting" | "queued" | "delivered" | "failed" | "skipped";

export interface CampaignShippingTable extends Timestamps {
  id: Generated<number>;
  companyId: number;
  campaignId: number;
  contactListItemId: number | null;
  number: string;
  name: Generated<string>;
  message: Generated<string>;
  confirmationMessage: string | null;
  status: Generated<ShippingStatus>;
  outboxId: number | null;
  confirmationOutboxId: number | null;
  confirmationRequestedAt: string | null;
  confirmation: Generated<Flag>;
  confirmedAt: string | null;
  deliveredAt: string | null;
  /** 0680: the recipient's filled template (JSON), or null for the free-text `message`. */
  template: Generated<string | null>;
}

export interface CampaignPacingTable {
  whatsappId: number;
  companyId: number;
  nextSendAt: string;
  sentSinceLong: Generated<number>;
}

export interface CampaignOptOutsTable {
  companyId: number;
  number: string;
  word: string;
  messageId: number | null;
  createdAt: string;
}

export interface CampaignJobStateTable {
  key: string;
  value: string;
}

export type IntegrationType = "webhook" | "n8n" | "typebot" | "dialogflow";

/** db/migrations/0110: an outside bot. jsonContent is sealed at rest (server/crypto/sealed.ts). */
export interface QueueIntegrationsTable extends Timestamps {
  id: Generated<number>;
  companyId: number;
  type: IntegrationType;
  name: string;
  projectName: string;
  jsonContent: string;
  language: string;
  urlN8N: string;
  secret: string;
  typebotSlug: string;
  typebotExpires: number;
  typebotDelayMessage: number;
  typebotKeywordFinish: string;
  typebotKeywordRestart: string;
  typebotRestartMessage: string;
  typebotUnknownMessage: string;
}

/** db/migrations/0110: an AI assistant bound to a queue. apiKey and voiceKey sealed at rest. */
export interface PromptsTable extends Timestamps {
  id: Generated<number>;
  companyId: number;
  name: string;
  apiKey: string;
  prompt: string;
  voice: string;
  voiceKey: string;
  voiceRegion: string;
  temperature: number;
  maxTokens: number;
  maxMessages: number;
  queueId: number;
}

/** 0121: the answer of a send made with an Idempotency-Key, replayed on a retry. */
export interface ApiIdempotencyKeysTable {
  id: Generated<number>;
  companyId: number;
  whatsappId: number;
  key: string;
  requestHash: string;
  responseJson: string;
  createdAt: string;
}

/** 0122: an admin's outgoing webhook (issue 16). `events` is a JSON array of event names. */
export interface WebhooksTable extends Timestamps {
  id: Generated<number>;
  companyId: number;
  name: string;
  url: string;
  events: Generated<string>;
  secret: string;
  active: Generated<Flag>;
  failureCount: Generated<number>;
  disabledAt: string | null;
  disabledReason: string | null;
  lastStatus: number | null;
  lastError: string | null;
  lastDeliveryAt: string | null;
}

export type WebhookDeliveryStatus = "pending" | "sending" | "delivered" | "failed";

/** 0122: the durable delivery queue, one row per (webhook, event). */
export interface WebhookDeliveriesTable extends Timestamps {
  id: Generated<number>;
  companyId: number;
  webhookId: number;
  eventId: string;
  event: string;
  payload: string;
  status: Generated<WebhookDeliveryStatus>;
  attempts: Generated<number>;
  nextAttemptAt: string;
  claimId: string | null;
  claimedUntil: string | null;
  lastStatus: number | null;
  lastError: string | null;
  deliveredAt: string | null;
}

/** 0600: queued assistant work; unique assist_jobs_once (companyId, kind, targetId, reason). */
export interface AssistJobsTable {
  id: Generated<number>;
  companyId: number;
  kind: "transcription" | "summary";
  targetId: number;
  reason: Generated<string>;
  status: Generated<"pending" | "running" | "done" | "failed" | "skipped">;
  attempts: Generated<number>;
  runAfter: string;
  error: Generated<string | null>;
  createdAt: string;
  updatedAt: string;
}

/** 0600: the monthly meter per company and feature (month 'YYYY-MM', UTC). */
export interface AssistUsageTable {
  companyId: number;
  month: string;
  feature: string;
  calls: Generated<number>;
  failures: Generated<number>;
  tokens: Generated<number>;
  seconds: Generated<number>;
  costMicros: Generated<number>;
}

/** 0600: the summaries made of a ticket (transfer, reopen, asked), its timeline keeps them. */
export interface TicketSummariesTable {
  id: Generated<number>;
  companyId: number;
  ticketId: number;
  reason: string;
  userId: number | null;
  summary: string;
  createdAt: string;
}

export interface DB {
  assist_jobs: AssistJobsTable;
  assist_usage: AssistUsageTable;
  ticket_summaries: TicketSummariesTable;
  plans: PlansTable;
  user_presence: UserPresenceTable;
  import_sources: ImportSourcesTable;
  import_map: ImportMapTable;
  companies: CompaniesTable;
  settings: SettingsTable;
  queues: QueuesTable;
  queue_options: QueueOptionsTable;
  whatsapps: WhatsappsTable;
  whatsapp_cloud: WhatsappCloudTable;
  whatsapp_cloud_inbox: WhatsappCloudInboxTable;
  whatsapp_cloud_sends: WhatsappCloudSendsTable;
  whatsapp_cloud_templates: WhatsappCloudTemplatesTable;
  whatsapp_queues: WhatsappQueuesTable;
  users: UsersTable;
  user_queues: UserQueuesTable;
  refresh_tokens: RefreshTokensTable;
  sessions: SessionsTable;
  recovery_codes: RecoveryCodesTable;
  two_factor_challenges: TwoFactorChallengesTable;
  audit_logs: AuditLogsTable;
  password_resets: PasswordResetsTable;
  invoice_reminders: InvoiceRemindersTable;
  whatsapp_leases: WhatsappLeasesTable;
  instances: InstancesTable;
  app_secrets: AppSecretsTable;
  contacts: ContactsTable;
  contact_custom_fields: ContactCustomFieldsTable;
  tickets: TicketsTable;
  ticket_counts: TicketCountsTable;
  ticket_notification_counts: TicketNotificationCountsTable;
  ticket_events: TicketEventsTable;
  report_message_hours: ReportMessageHoursTable;
  report_days: ReportDaysTable;
  report_ticket_messages: ReportTicketMessagesTable;
  messages: MessagesTable;
  ticket_notes: TicketNotesTable;
  tags: TagsTable;
  ticket_tags: TicketTagsTable;
  ticket_pins: TicketPinsTable;
  taken_back_notices: TakenBackNoticesTable;
  push_subscriptions: PushSubscriptionsTable;
  push_preferences: PushPreferencesTable;
  push_deliveries: PushDeliveriesTable;
  outgoing_events: OutgoingEventsTable;
  quick_messages: QuickMessagesTable;
  schedules: SchedulesTable;
  user_ratings: UserRatingsTable;
  outbox: OutboxTable;
  simulator_sessions: SimulatorSessionsTable;
  simulator_sent: SimulatorSentTable;
  baileys_auth: BaileysAuthTable;
  helps: HelpsTable;
  chats: ChatsTable;
  chat_users: ChatUsersTable;
  chat_messages: ChatMessagesTable;
  announcements: AnnouncementsTable;
  announcement_reads: AnnouncementReadsTable;
  invoices: InvoicesTable;
  payment_events: PaymentEventsTable;
  billing_customers: BillingCustomersTable;
  contact_lists: ContactListsTable;
  contact_list_items: ContactListItemsTable;
  file_lists: FileListsTable;
  file_list_options: FileListOptionsTable;
  campaign_settings: CampaignSettingsTable;
  campaigns: CampaignsTable;
  campaign_shipping: CampaignShippingTable;
  campaign_pacing: CampaignPacingTable;
  campaign_opt_outs: CampaignOptOutsTable;
  campaign_job_state: CampaignJobStateTable;
  queue_integrations: QueueIntegrationsTable;
  prompts: PromptsTable;
  api_idempotency_keys: ApiIdempotencyKeysTable;
  webhooks: WebhooksTable;
  webhook_deliveries: WebhookDeliveriesTable;
}

export type Plan = Selectable<PlansTable>;
export type Company = Selectable<CompaniesTable>;
export type Help = Selectable<HelpsTable>;
/** An invoice as stored: its value in integer cents. */
export type InvoiceRecord = Selectable<InvoicesTable>;
/** An invoice as the services use it: `value` in reais (the repository converts, migration 0700). */
export type Invoice = Omit<InvoiceRecord, "valueCents"> & { value: number };
export type Setting = Selectable<SettingsTable>;
export type WhatsappCloud = Selectable<WhatsappCloudTable>;
export type Queue = Selectable<QueuesTable>;
export type QueueOption = Selectable<QueueOptionsTable>;
export type Whatsapp = Selectable<WhatsappsTable>;
export type User = Selectable<UsersTable>;
export type Contact = Selectable<ContactsTable>;
export type Ticket = Selectable<TicketsTable>;
export type NewTicket = Insertable<TicketsTable>;
export type TicketUpdate = Updateable<TicketsTable>;
export type Message = Selectable<MessagesTable>;
export type NewMessage = Insertable<MessagesTable>;
export type TicketNote = Selectable<TicketNotesTable>;
export type Tag = Selectable<TagsTable>;
export type QuickMessage = Selectable<QuickMessagesTable>;
export type Schedule = Selectable<SchedulesTable>;
export type OutboxRow = Selectable<OutboxTable>;
export type SimulatorSent = Selectable<SimulatorSentTable>;
export type Chat = Selectable<ChatsTable>;
export type ChatUser = Selectable<ChatUsersTable>;
export type ChatMessage = Selectable<ChatMessagesTable>;
export type Announcement = Selectable<AnnouncementsTable>;
export type ContactList = Selectable<ContactListsTable>;
export type ContactListItem = Selectable<ContactListItemsTable>;
export type FileList = Selectable<FileListsTable>;
export type FileListOption = Selectable<FileListOptionsTable>;
export type Campaign = Selectable<CampaignsTable>;
export type CampaignShipping = Selectable<CampaignShippingTable>;
export type QueueIntegration = Selectable<QueueIntegrationsTable>;
export type Prompt = Selectable<PromptsTable>;
export type Webhook = Selectable<WebhooksTable>;
export type WebhookDelivery = Selectable<WebhookDeliveriesTable>;

/** 0155 (issue 29): one reminder mail per (invoice, kind), claimed before it is sent. */
export type ReminderKind = "created" | "due_in_3" | "due_in_1" | "overdue";

export interface InvoiceRemindersTable {
  id: Generated<number>;
  companyId: number;
  invoiceId: number;
  kind: ReminderKind;
  createdAt: string;
  sentAt: string | null;
  /** A claim to send: past this instant and still unsent, the next tick claims it again (0720). */
  claimedUntil: string | null;
}
