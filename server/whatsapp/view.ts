import type { Whatsapp } from "../../db/schema.ts";
import type { Hub } from "../realtime/hub.ts";
import type { WhatsappQueue } from "./repository.ts";
import type { Connection, SessionUpdate } from "../../contract/connection.ts";

/** A connection as the API answers it (seeds/000 section 3 'Connection'). */
export type WhatsappView = Connection & { companyId: number; createdAt: string };

/**
 * `withSecrets` (admins): the API token and the QR code. Anyone holding the QR could link their
 * own phone to the company's number, so only those who may act on sessions see it.
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
  if (options.withSecrets) view.token = w.token;
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

/** `company-<id>-whatsapp` {action: "update", whatsapp} to the whole company (no token). */
export function publishWhatsappUpdate(hub: Hub, w: Whatsapp, queues: WhatsappQueue[]) {
  hub.publish(w.companyId, "whatsapp", {
    action: "update",
    whatsapp: whatsappView(w, queues, { withSecrets: false }),
  });
}

/** `company-<id>-whatsapp` {action: "delete", whatsappId}. */
export function publishWhatsappDelete(hub: Hub, companyId: number, whatsappId: number) {
  hub.publish(companyId, "whatsapp", {
    action: "delete",
    whatsappId,
    whatsapp: { id: whatsappId },
  });
}

/**
 * `company-<id>-whatsappSession` {action: "update", session}: admins get the QR code (or pairing
 * code), everyone else the same event without it (the status drives the menu's alert badge).
 */
export function publishSession(hub: Hub, w: Whatsapp, pairingCode?: string) {
  hub.publish(w.companyId, "whatsappSession", {
    action: "update",
    session: sessionView(w, { withSecrets: true, pairingCode }),
  }, [{ kind: "admins" }]);
  hub.publishFiltered(
    w.companyId,
    "whatsappSession",
    {
      action: "update",
      session: sessionView(w, { withSecrets: false }),
    },
    [{ kind: "company" }],
    (member) => member.profile !== "admin",
  );
}
