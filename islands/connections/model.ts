import { length, LIMITS, type Rule } from "../../contract/validation.ts";
import { capabilitiesOf, DEFAULT_CHANNEL, isChannelKind } from "../../contract/channels.ts";
import { CLOUD_FIELDS, CLOUD_SECRETS } from "../../contract/connection.ts";

/**
 * The connections page's data (GET /api/whatsapp; server/whatsapp/view.ts WhatsappView) and the
 * rules that turn a status into what the page shows (seeds/000 section 4 'Connection status
 * drives buttons'). Pure functions: tested without a browser in tests/islands/connections_test.ts.
 */
import {
  type Connection,
  normalStatus,
  type Provider,
  type SessionUpdate,
  type Status,
} from "../../contract/connection.ts";

export {
  type Connection,
  normalStatus,
  type Provider,
  PROVIDERS,
  type QueueItem,
  type SessionUpdate,
  type Status,
} from "../../contract/connection.ts";

/** How a status looks: a tone for the icon's colour. */
export type Tone = "success" | "danger" | "warning" | "info" | "muted";

export const STATUS_TONE: Record<Status, Tone> = {
  CONNECTED: "success",
  DISCONNECTED: "danger",
  TIMEOUT: "warning",
  PAIRING: "warning",
  qrcode: "info",
  OPENING: "muted",
};

/** The session buttons of a row (section 4). */
export type SessionButton = "qrcode" | "tryAgain" | "newQr" | "disconnect" | "connecting";

export function sessionButtons(status: string, qr = true): SessionButton[] {
  // A channel typed in by credentials (Cloud API) has no QR: 'try again' starts it anew.
  if (!qr) {
    const s = normalStatus(status);
    return s === "OPENING" ? ["connecting"] : s === "CONNECTED" ? [] : ["tryAgain"];
  }
  switch (normalStatus(status)) {
    case "qrcode":
      return ["qrcode"];
    case "DISCONNECTED":
      return ["tryAgain", "newQr"];
    case "CONNECTED":
    case "PAIRING":
    case "TIMEOUT":
      return ["disconnect"];
    case "OPENING":
      return ["connecting"];
  }
}

/** Seeds/000 section 9: connections show dates as dd/MM/yy HH:mm (local time). */
export function formatUpdatedAt(iso: string): string {
  const date = new Date(iso);
  if (!iso || Number.isNaN(date.getTime())) return "";
  const two = (n: number) => String(n).padStart(2, "0");
  return `${two(date.getDate())}/${two(date.getMonth() + 1)}/${two(date.getFullYear() % 100)} ` +
    `${two(date.getHours())}:${two(date.getMinutes())}`;
}

/**
 * Should the QR dialog close itself? Once connected, or when the QR went away without a pairing
 * code taking its place (section 4: 'closes when the QR becomes empty').
 */
export function qrDialogDone(
  session: Pick<SessionUpdate, "status" | "qrcode">,
  pairingCode: string | null,
): boolean {
  const status = normalStatus(session.status);
  if (status === "CONNECTED") return true;
  if (session.qrcode) return false;
  if (status === "PAIRING" && pairingCode) return false;
  // OPENING comes between a new QR request and its QR: wait for the QR instead of closing.
  return status !== "OPENING";
}

/** Applies a session event to a connection of the list. */
export function applySession(list: Connection[], session: SessionUpdate): Connection[] {
  return list.map((c) =>
    c.id === session.id
      ? {
        ...c,
        status: session.status,
        qrcode: session.qrcode,
        retries: session.retries,
        number: session.number,
        isDefault: session.isDefault,
        updatedAt: session.updatedAt,
      }
      : c
  );
}

/** Applies a `whatsapp` update: replaces the row (keeping the token hint events never carry) or adds it. */
export function applyUpdate(list: Connection[], whatsapp: Connection): Connection[] {
  const found = list.some((c) => c.id === whatsapp.id);
  if (!found) return sortConnections([...list, whatsapp]);
  return list.map((c) =>
    c.id === whatsapp.id ? { ...whatsapp, tokenHint: whatsapp.tokenHint ?? c.tokenHint } : c
  );
}

export function removeConnection(list: Connection[], id: number): Connection[] {
  return list.filter((c) => c.id !== id);
}

/** The list's order: by name, as the server lists them. */
export function sortConnections(list: Connection[]): Connection[] {
  return [...list].sort((a, b) => a.name.localeCompare(b.name) || a.id - b.id);
}

/** The form's values (numbers as numbers, absent optional ids as null). */
export type ConnectionForm = {
  name: string;
  provider: Provider;
  isDefault: boolean;
  greetingMessage: string;
  complationMessage: string;
  outOfHoursMessage: string;
  ratingMessage: string;
  expiresTicket: number;
  expiresInactiveMessage: string;
  timeSendQueue: number;
  sendIdQueue: number;
  timeUseBotQueues: number;
  maxUseBotQueues: number;
  queueIds: number[];
  promptId: number | null;
  /** The queue integration every new ticket goes to (issue 15). */
  integrationId: number | null;
  /** A credentials channel's (Cloud API) ids and secrets; secrets blank when editing (kept). */
  phoneNumberId: string;
  businessAccountId: string;
  accessToken: string;
  appSecret: string;
  verifyToken: string;
};

/** Seeds/000 section 9 defaults; the default channel (a QR-linked number). */
export function emptyForm(): ConnectionForm {
  return {
    name: "",
    provider: DEFAULT_CHANNEL,
    isDefault: false,
    greetingMessage: "",
    complationMessage: "",
    outOfHoursMessage: "",
    ratingMessage: "",
    expiresTicket: 0,
    expiresInactiveMessage: "",
    timeSendQueue: 0,
    sendIdQueue: 0,
    timeUseBotQueues: 0,
    maxUseBotQueues: 3,
    queueIds: [],
    promptId: null,
    integrationId: null,
    phoneNumberId: "",
    businessAccountId: "",
    accessToken: "",
    appSecret: "",
    verifyToken: "",
  };
}

export function formOf(c: Connection): ConnectionForm {
  return {
    name: c.name,
    provider: isChannelKind(c.provider) ? c.provider : DEFAULT_CHANNEL,
    isDefault: c.isDefault,
    greetingMessage: c.greetingMessage ?? "",
    complationMessage: c.complationMessage ?? "",
    outOfHoursMessage: c.outOfHoursMessage ?? "",
    ratingMessage: c.ratingMessage ?? "",
    expiresTicket: c.expiresTicket ?? 0,
    expiresInactiveMessage: c.expiresInactiveMessage ?? "",
    timeSendQueue: c.timeSendQueue ?? 0,
    sendIdQueue: c.sendIdQueue ?? 0,
    timeUseBotQueues: c.timeUseBotQueues ?? 0,
    maxUseBotQueues: c.maxUseBotQueues ?? 3,
    queueIds: c.queueIds ?? c.queues.map((q) => q.id),
    promptId: c.promptId ?? null,
    integrationId: c.integrationId ?? null,
    phoneNumberId: c.cloud?.phoneNumberId ?? "",
    businessAccountId: c.cloud?.businessAccountId ?? "",
    accessToken: "",
    appSecret: "",
    verifyToken: c.cloud?.verifyToken ?? "",
  };
}

/** Seeds/000 section 5: name required, 2 to 50 characters ('Required', 'Too Short!', 'Too Long!'). */
export const CONNECTION_RULES = { name: length(LIMITS.name) };

/** Meta's ids are digits (as the server's check: 5 to 30). */
const graphId: Rule = (value) => {
  const v = value.trim();
  if (!v) return "people.validation.required";
  return /^\d{5,30}$/.test(v) ? null : "people.validation.invalid";
};

/** The rules of the form: a credentials channel's fields too (secrets required when adding). */
export function connectionRules(form: ConnectionForm, adding: boolean): Record<string, Rule> {
  if (!capabilitiesOf(form.provider).credentials) return CONNECTION_RULES;
  return {
    ...CONNECTION_RULES,
    phoneNumberId: graphId,
    businessAccountId: graphId,
    accessToken: length({ min: 10, max: 1000 }, adding),
    appSecret: length({ min: 8, max: 200 }, adding),
    verifyToken: length({ min: 8, max: 200 }),
  };
}

/**
 * The request body for POST/PUT /api/whatsapp (the session fields are not sent; the API token is
 * the server's: POST /api/whatsapp/:id/token).
 */
export function requestBody(form: ConnectionForm) {
  const body: Record<string, unknown> = {
    ...form,
    name: form.name.trim(),
    expiresTicket: wholeMinutes(form.expiresTicket),
    timeSendQueue: wholeMinutes(form.timeSendQueue),
    timeUseBotQueues: wholeMinutes(form.timeUseBotQueues),
    maxUseBotQueues: wholeMinutes(form.maxUseBotQueues),
    sendIdQueue: wholeMinutes(form.sendIdQueue),
  };
  for (const key of CLOUD_FIELDS) {
    const value = form[key].trim();
    // Only a credentials channel sends them; a secret left blank is not sent (the stored one stays).
    if (!capabilitiesOf(form.provider).credentials || (!value && CLOUD_SECRETS.includes(key))) {
      delete body[key];
    } else body[key] = value;
  }
  return body;
}

function wholeMinutes(value: number): number {
  return Number.isFinite(value) && value > 0 ? Math.floor(value) : 0;
}
