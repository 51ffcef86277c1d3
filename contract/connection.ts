/**
 * A connection as GET /api/whatsapp answers it (the server's WhatsappView builds on this type)
 * and its status as the pages read it. Shared by the connections page and the simulator.
 */
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
  /** Only admins read it. */
  token?: string;
  provider: string;
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

export type Provider = "beta" | "simulator";
export const PROVIDERS: Provider[] = ["beta", "simulator"];

/** The status as the page knows it: "connected" (old spelling) is CONNECTED. */
export type Status = "qrcode" | "PAIRING" | "DISCONNECTED" | "TIMEOUT" | "OPENING" | "CONNECTED";

export function normalStatus(status: string): Status {
  if (status.toUpperCase() === "CONNECTED") return "CONNECTED";
  if (status === "qrcode" || status.toUpperCase() === "QRCODE") return "qrcode";
  const upper = status.toUpperCase();
  if (upper === "PAIRING" || upper === "TIMEOUT" || upper === "OPENING") return upper;
  return "DISCONNECTED";
}
