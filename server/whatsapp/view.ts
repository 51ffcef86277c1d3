import type { Whatsapp } from "../../db/schema.ts";
import type { EventBus } from "../events/bus.ts";
import type { WhatsappQueue } from "./repository.ts";
import type { Connection, SessionUpdate } from "../../contract/connection.ts";
import { capabilitiesOf } from "../../contract/channels.ts";

/** A connection as the API answers it (seeds/000 section 3 'Connection'). */
export type WhatsappView = Connection & { companyId: number; createdAt: string };

/**
 * `withSecrets` (admins): the API token's hint and the QR code. Anyone holding the QR could link
 * their own phone to the company's number, so only those who may act on sessions see it. The
 * token itself is in no view: only the answers that make one carry it (server/whatsapp/service.ts).
 */
export function whatsappView(
  w: Whatsapp,
  queues: WhatsappQueue[],
  options: { withSecrets: boolean },
): WhatsappView {
  const view: WhatsappView = {
    id: w.id,
    companyId: w.companyId,
    name: w.name,
    status: w.status,
    qrcode: options.withSecrets ? w.qrcode : "",
    retries: w.retries,
    number: w.number,
    isDefault: w.isDefault === 1,
    greetingMessage: w.greetingMessage,
    complationMessage: w.complationMessage,
    outOfHoursMessage: w.outOfHoursMessage,
    ratingMessage: w.ratingMessage,
    provider: w.provider,
    capabilities: capabilitiesOf(w.provider),
    timeSendQueue: w.timeSendQueue,
    sendIdQueue: w.sendIdQueue,
    expiresInactiveMessage: w.expiresInactiveMessage,
    expiresTicket: w.expiresTicket,
    timeUseBotQueues: w.timeUseBotQueues,
    maxUseBotQueues: w.maxUseBotQueues,
    promptId: w.promptId,
    integrationId: w.integrationId ?? null,
    queues,
    queueIds: queues.map((q) => q.id),
    createdAt: w.createdAt,
    updatedAt: w.updatedAt,
  };
  if (options.withSecrets) view.tokenHint = w.tokenHint;
  return view;
}

/** The session part pushed on `company-<id>-whatsappSession` (status, QR image, retries). */
export type SessionView = SessionUpdate;

export function sessionView(
  w: Whatsapp,
  options: { withSecrets: boolean; pairingCode?: string },
): SessionView {
  const view: SessionView = {
    id: w.id,
    name: w.name,
    status: w.status,
    qrcode: options.withSecrets ? w.qrcode : "",
    retries: w.retries,
    number: w.number,
    provider: w.provider,
    isDefault: w.isDefault === 1,
    updatedAt: w.updatedAt,
  };
  if (options.withSecrets && options.pairingCode) view.pairingCode = options.pairingCode;
  return view;
}

/** A connection changed (`company-<id>-whatsapp` update, to the whole company: no token). */
export function publishWhatsappUpdate(events: EventBus, w: Whatsapp, queues: WhatsappQueue[]) {
  events.emit("connection.updated", {
    companyId: w.companyId,
    connection: whatsappView(w, queues, { withSecrets: false }),
  });
}

export function publishWhatsappDelete(events: EventBus, companyId: number, whatsappId: number) {
  events.emit("connection.deleted", { companyId, whatsappId });
}

/**
 * A session moved (`company-<id>-whatsappSession`): the QR code (or pairing code) only for those
 * who may act on sessions; the status (the menu's alert badge) for everyone.
 */
export function publishSession(events: EventBus, w: Whatsapp, pairingCode?: string) {
  events.emit("connection.session", {
    companyId: w.companyId,
    session: sessionView(w, { withSecrets: true, pairingCode }),
    public: sessionView(w, { withSecrets: false }),
  });
}
