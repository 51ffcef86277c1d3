import type { Generated, Insertable, Selectable, Updateable } from "kysely";

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
  value: Generated<number>;
  useCampaigns: Generated<Flag>;
  useKanban: Generated<Flag>;
  useOpenAi: Generated<Flag>;
  useIntegrations: Generated<Flag>;
  useSchedules: Generated<Flag>;
  useInternalChat: Generated<Flag>;
  useExternalApi: Generated<Flag>;
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
  token: Generated<string>;
  provider: Generated<string>;
  timeSendQueue: Generated<number>;
  sendIdQueue: Generated<number>;
  expiresInactiveMessage: Generated<string>;
  expiresTicket: Generated<number>;
  timeUseBotQueues: Generated<number>;
  maxUseBotQueues: Generated<number>;
  promptId: number | null;
}

export interface WhatsappQueuesTable {
  companyId: number;
  whatsappId: number;
  queueId: number;
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
}

export interface UserQueuesTable {
  companyId: number;
  userId: number;
  queueId: number;
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
  lastMessage: Generated<string>;
  unreadMessages: Generated<number>;
  acceptedAt: string | null;
  closedAt: string | null;
  awaitingRating: Generated<Flag>;
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
export interface TicketCountsTable {
  companyId: number;
  status: string;
  queueId: number;
  userId: number;
  n: number;
}

export interface DB {
  plans: PlansTable;
  companies: CompaniesTable;
  settings: SettingsTable;
  queues: QueuesTable;
  queue_options: QueueOptionsTable;
  whatsapps: WhatsappsTable;
  whatsapp_queues: WhatsappQueuesTable;
  users: UsersTable;
  user_queues: UserQueuesTable;
  refresh_tokens: RefreshTokensTable;
  sessions: SessionsTable;
  password_resets: PasswordResetsTable;
  whatsapp_leases: WhatsappLeasesTable;
  instances: InstancesTable;
  app_secrets: AppSecretsTable;
  contacts: ContactsTable;
  contact_custom_fields: ContactCustomFieldsTable;
  tickets: TicketsTable;
  ticket_counts: TicketCountsTable;
  messages: MessagesTable;
  ticket_notes: TicketNotesTable;
  tags: TagsTable;
  ticket_tags: TicketTagsTable;
  quick_messages: QuickMessagesTable;
  schedules: SchedulesTable;
  user_ratings: UserRatingsTable;
  outbox: OutboxTable;
  simulator_sessions: SimulatorSessionsTable;
  simulator_sent: SimulatorSentTable;
  baileys_auth: BaileysAuthTable;
}

export type Plan = Selectable<PlansTable>;
export type Company = Selectable<CompaniesTable>;
export type Setting = Selectable<SettingsTable>;
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
