/**
 * A connection as GET /api/whatsapp answers it (the server's WhatsappView builds on this type)
 * and its status as the pages read it. Shared by the connections page and the simulator.
 */
import type { Capabilities, ChannelKind } from "./channels.ts";
import { CHANNEL_KINDS } from "./channels.ts";

export type QueueItem = { id: number; name: string; color: string };

export type Connection = {
  id: number;
  name: string;
  status: string;
  qrcode: string;
  retries: number;
  number: string | null;
  isDefault: boolean;
  greetingMessage: string;
  complationMessage: string;
  outOfHoursMessage: string;
  ratingMessage: string;
  /** The API token, in the answers that make one only (creation, POST /whatsapp/:id/token). */
  token?: string;
  /** What admins see of the token afterwards: `blc_…abcd`. */
  tokenHint?: string;
  provider: string;
  /** What this connection's channel can do (contract/channels.ts): pages ask these, never `provider`. */
  capabilities: Capabilities;
  /** Cloud API connections: where Meta posts events, and the fields typed at creation. */
  cloud?: CloudSettings;
  timeSendQueue: number;
  sendIdQueue: number;
  expiresInactiveMessage: string;
  expiresTicket: number;
  timeUseBotQueues: number;
  maxUseBotQueues: number;
  promptId: number | null;
  /** issue 15: the integration every new ticket of the connection goes to. */
  integrationId?: number | null;
  queues: QueueItem[];
  queueIds: number[];
  updatedAt: string;
};

/** `company-<id>-whatsappSession` {action: "update", session} (server/whatsapp/view.ts). */
export type SessionUpdate = {
  id: number;
  name: string;
  status: string;
  qrcode: string;
  retries: number;
  number: string | null;
  provider: string;
  isDefault: boolean;
  updatedAt: string;
  /** Only while PAIRING: the code to type on the phone. */
  pairingCode?: string;
};

/** The Cloud API settings an admin sees (secrets never: only whether they are set). */
export type CloudSettings = {
  phoneNumberId: string;
  businessAccountId: string;
  verifyToken: string;
  webhookUrl: string;
  hasAccessToken: boolean;
  hasAppSecret: boolean;
  /** What the last look at the number found ('Testar', the session's start). */
  displayNumber: string | null;
  verifiedName: string | null;
  qualityRating: string | null;
  /** The catalogue code of the last failure (ERR_WHATSAPP_TOKEN_INVALID: 'Reautorizar'). */
  lastError: string | null;
};

/** A Cloud API connection's credentials typed in the connection dialog (POST and PUT /whatsapp). */
export const CLOUD_FIELDS = [
  "phoneNumberId",
  "businessAccountId",
  "accessToken",
  "appSecret",
  "verifyToken",
] as const;
export type CloudField = typeof CLOUD_FIELDS[number];
/** The secrets: never shown again; left blank when editing, the stored one is kept. */
export const CLOUD_SECRETS: readonly CloudField[] = ["accessToken", "appSecret"];

export type Provider = ChannelKind;
export const PROVIDERS: Provider[] = CHANNEL_KINDS;

/** The status as the page knows it: "connected" (old spelling) is CONNECTED. */
export type Status = "qrcode" | "PAIRING" | "DISCONNECTED" | "TIMEOUT" | "OPENING" | "CONNECTED";

export function normalStatus(status: string): Status {
  if (status.toUpperCase() === "CONNECTED") return "CONNECTED";
  if (status === "qrcode" || status.toUpperCase() === "QRCODE") return "qrcode";
  const upper = status.toUpperCase();
  if (upper === "PAIRING" || upper === "TIMEOUT" || upper === "OPENING") return upper;
  return "DISCONNECTED";
}
