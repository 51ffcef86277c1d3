/**
 * Outgoing webhooks (issue 16): the events an admin can subscribe a URL to, and a webhook as the
 * API answers it. Declared once here: the server's view and the page both use them.
 */
export const WEBHOOK_EVENTS = [
  "message.created",
  "message.updated",
  "ticket.created",
  "ticket.updated",
  "ticket.closed",
  "contact.created",
  "contact.updated",
] as const;

export type WebhookEvent = typeof WEBHOOK_EVENTS[number];

export type WebhookView = {
  id: number;
  name: string;
  url: string;
  events: WebhookEvent[];
  /** Signs every delivery (X-Balcao-Signature); admins only ever read webhooks. */
  secret: string;
  active: boolean;
  /** Failed attempts in a row; reaching the limit disables the webhook. */
  failureCount: number;
  disabledAt: string | null;
  disabledReason: string | null;
  lastStatus: number | null;
  lastError: string | null;
  lastDeliveryAt: string | null;
  createdAt: string;
  updatedAt: string;
};

export type WebhookDeliveryView = {
  id: number;
  eventId: string;
  event: string;
  status: "pending" | "sending" | "delivered" | "failed";
  attempts: number;
  nextAttemptAt: string;
  lastStatus: number | null;
  lastError: string | null;
  deliveredAt: string | null;
  createdAt: string;
};
