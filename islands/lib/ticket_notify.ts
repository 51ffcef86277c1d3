import { signal } from "@preact/signals-react";
import type { SessionUser } from "../../contract/types.ts";
import type { TicketView } from "../../contract/ticket_types.ts";
import { inNotifications, viewerOfUser } from "../../contract/ticket_audience.ts";
import { playNotificationSound } from "./shell/sound.ts";

/**
 * New-message notifications (seeds/000 sections 6 and 8), used by the top bar's tickets bell on
 * every page: the sound at the top bar's volume and a browser Notification.
 * - raised only for the tickets of the user's notifications (`inNotifications` of
 *   contract/ticket_audience.ts: the bell's own list rule; never for groups);
 * - not for the user's own messages, nor for the ticket on screen while the page is visible;
 * - a browser without Notification support is only logged.
 */
export type NotifiableEvent = {
  action?: string;
  message?: { fromMe?: boolean; read?: boolean; body?: string; mediaType?: string | null };
  ticket?: {
    id?: number;
    uuid?: string;
    userId?: number | null;
    queueId?: number | null;
    status?: string;
    isGroup?: boolean;
  };
  contact?: { name?: string; profilePicUrl?: string };
};

/** The ticket the tickets page shows (its id), null elsewhere. */
export const viewingTicketId = signal<number | null>(null);

/** Set by the tickets page: opens a ticket without leaving the page (a notification's click). */
let opener: ((uuid: string) => void) | null = null;
export function setTicketOpener(fn: ((uuid: string) => void) | null) {
  opener = fn;
}

/** What the rule reads of the signed-in user. */
type Notified = Pick<
  SessionUser,
  "id" | "queues" | "profile" | "super" | "allTicket" | "restricted"
>;

export function shouldNotify(
  user: Notified,
  event: NotifiableEvent,
  pageVisible: boolean,
): boolean {
  const { message, ticket } = event;
  if (event.action !== "create" || !message || !ticket || message.fromMe) return false;
  if (message.read) return false;
  const notified = inNotifications(viewerOfUser(user), {
    userId: ticket.userId ?? null,
    queueId: ticket.queueId ?? null,
    status: ticket.status ?? "",
    isGroup: ticket.isGroup === true,
    unread: true,
  });
  if (!notified) return false;
  if (pageVisible && ticket.id !== undefined && viewingTicketId.value === ticket.id) return false;
  return true;
}

/** A ticket event as the bell hears it (appMessage or ticket channel). */
export type BellEvent =
  | { channel: "appMessage"; data: { ticket: TicketView } }
  | { channel: "ticket"; data: { action: string; ticket?: TicketView; ticketId?: number } };

/**
 * Whether an event can change the bell: a ticket it lists, or one that may join it
 * (`inNotifications`, read or not). Whoever may read a ticket hears it, so a user hears every
 * chat of their queues: the rest of those events must not make the bell read its list again.
 */
export function concernsBell(user: Notified, listed: readonly number[], event: BellEvent): boolean {
  const ticket = event.data.ticket;
  const id = ticket?.id ?? (event.channel === "ticket" ? event.data.ticketId : undefined);
  if (id !== undefined && listed.includes(id)) return true;
  if (!ticket) return false;
  return inNotifications(viewerOfUser(user), { ...ticket, unread: true });
}

function logUnsupported() {
  // deno-lint-ignore no-console
  console.info("This browser does not support desktop notifications");
}

/** Asks for permission once (the tickets page on load; browsers may wait for a gesture). */
export function requestNotificationPermission() {
  if (!("Notification" in globalThis)) {
    logUnsupported();
    return;
  }
  if (Notification.permission === "default") {
    Notification.requestPermission().catch(() => {});
  }
}

/** Plays the sound and shows the notification when the rules allow it. */
export function notifyNewMessage(
  user: Notified,
  event: NotifiableEvent,
  fallbackTitle: string,
) {
  const visible = typeof document === "undefined" || !document.hidden;
  if (!shouldNotify(user, event, visible)) return;
  playNotificationSound();
  if (!("Notification" in globalThis)) {
    logUnsupported();
    return;
  }
  if (Notification.permission !== "granted") return;
  try {
    const body = event.message?.body || event.message?.mediaType || "";
    const notification = new Notification(event.contact?.name || fallbackTitle, {
      body: body.length > 200 ? `${body.slice(0, 200)}…` : body,
      icon: event.contact?.profilePicUrl || undefined,
      tag: event.ticket?.uuid,
    });
    const uuid = event.ticket?.uuid;
    notification.onclick = () => {
      globalThis.focus();
      notification.close();
      if (!uuid) return;
      if (opener) opener(uuid);
      else location.assign(`/tickets/${uuid}`);
    };
  } catch {
    // Some browsers (Android Chrome) only allow notifications from a service worker.
  }
}
