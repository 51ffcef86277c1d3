import type { SimulatorSent } from "../../../../db/schema.ts";
import type { AppDeps } from "../../../context.ts";
import { AppError, badRequest, notFound } from "../../../errors.ts";
import { messageRef } from "../../../messages/repository.ts";
import { locationBody, vcardBody } from "../../inbound/bodies.ts";
import { findWhatsapp } from "../../repository.ts";
import { type SimulatedMessage, simulatorNumber } from "./provider.ts";
import { sentPage } from "./repository.ts";

/**
 * The phone side of the built-in phone network (/api/simulator/:whatsappId): acting as the
 * phones around a company's "simulator" connection. Another company's connection, or a real
 * number's, answers 404 ERR_NO_WAPP_FOUND; a connection whose session is not started, 409
 * ERR_WAPP_NOT_INITIALIZED.
 */

/** Who the phone side is: a number, optionally its LID, or a group (with `from` as the author). */
export type Party = { from?: string; lid?: string; group?: string };

export type SimulatorMessageInput = Party & {
  name?: string;
  avatarUrl?: string;
  body?: string;
  media?: { base64: string; mimetype: string; filename?: string };
  location?: { latitude: number; longitude: number; name?: string };
  vcard?: { name: string; number: string };
  quotedId?: string;
  id?: string;
  /** Written on the connected phone itself, to `from` (shown as fromMe). */
  fromMe?: boolean;
  /** Issue 28: the phone forwards it. */
  forwarded?: boolean;
};

function phoneDigits(value: string): string {
  const clean = value.replace(/\D/g, "");
  if (clean.length < 8 || clean.length > 15) {
    throw badRequest("ERR_WAPP_INVALID_CONTACT", "Este não é um número de Whatsapp válido");
  }
  return clean;
}

/** The JIDs of a phone-side party (chat, phone, LID, group author). */
function jidsOf(input: Party) {
  const phone = input.from ? phoneDigits(input.from) : undefined;
  if (input.group) {
    return {
      chatJid: `${input.group}@g.us`,
      participantJid: phone ? `${phone}@s.whatsapp.net` : undefined,
    };
  }
  if (!phone && !input.lid) {
    throw badRequest("ERR_VALIDATION", "from, lid or group is required", {
      from: ["Required"],
    });
  }
  return {
    chatJid: input.lid ? `${input.lid}@lid` : `${phone}@s.whatsapp.net`,
    phoneJid: phone ? `${phone}@s.whatsapp.net` : undefined,
    lidJid: input.lid ? `${input.lid}@lid` : undefined,
  };
}

function decodeBase64(base64: string): Uint8Array {
  try {
    const binary = atob(base64.replace(/^data:[^,]*,/, "").replace(/\s/g, ""));
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return bytes;
  } catch {
    throw badRequest("ERR_INVALID_MEDIA", "media.base64 is not valid base64");
  }
}

async function connection(deps: AppDeps, companyId: number, whatsappId: number) {
  const row = await findWhatsapp(deps.db, companyId, whatsappId);
  if (!row || row.provider !== "simulator") {
    throw notFound("ERR_NO_WAPP_FOUND", "Conexão do simulador não encontrada");
  }
  return row;
}

async function phone(deps: AppDeps, companyId: number, whatsappId: number) {
  await connection(deps, companyId, whatsappId);
  const provider = deps.simulator.phone(whatsappId);
  if (!provider) {
    throw new AppError(409, "ERR_WAPP_NOT_INITIALIZED", "A sessão do simulador não foi iniciada");
  }
  return provider;
}

/** What the simulator page shows of a connection. */
export async function simulatorState(deps: AppDeps, companyId: number, whatsappId: number) {
  const row = await connection(deps, companyId, whatsappId);
  const provider = deps.simulator.phone(whatsappId);
  return {
    whatsappId,
    status: row.status,
    state: provider?.state ?? "idle",
    qr: provider?.qr ?? "",
    number: row.number ?? (provider?.state === "connected" ? simulatorNumber(whatsappId) : null),
    rejectedCalls: provider?.rejectedCalls ?? [],
  };
}

/** "Scans" the QR: the device is linked and connects. */
export async function scanQr(deps: AppDeps, companyId: number, whatsappId: number) {
  const number = await (await phone(deps, companyId, whatsappId)).scan();
  return { status: "CONNECTED" as const, number };
}

/** The phone unlinks the device. */
export async function unlinkPhone(deps: AppDeps, companyId: number, whatsappId: number) {
  await (await phone(deps, companyId, whatsappId)).unlink();
  return { status: "DISCONNECTED" as const };
}

/** A phone sends a message; answers whether (and as what) the connection stored it. */
export async function sendFromPhone(
  deps: AppDeps,
  companyId: number,
  whatsappId: number,
  input: SimulatorMessageInput,
) {
  const provider = await phone(deps, companyId, whatsappId);
  const jids = jidsOf(input);
  const message: SimulatedMessage = {
    ...jids,
    pushName: input.name,
    body: input.body ?? "",
    quotedId: input.quotedId,
    id: input.id,
    fromMe: input.fromMe,
    forwarded: input.forwarded,
  };
  if (input.media) {
    message.media = {
      data: decodeBase64(input.media.base64),
      mimetype: input.media.mimetype,
      filename: input.media.filename,
    };
  } else if (input.location) {
    message.mediaType = "locationMessage";
    message.body = locationBody(
      input.location.latitude,
      input.location.longitude,
      input.location.name,
    );
  } else if (input.vcard) {
    message.mediaType = "vcard";
    message.body = vcardBody(input.vcard.name, phoneDigits(input.vcard.number));
  } else if (!message.body.trim()) {
    throw badRequest("ERR_VALIDATION", "body, media, location or vcard is required", {
      body: ["Required"],
    });
  }
  if (input.avatarUrl) {
    deps.simulator.avatars.set(jids.phoneJid ?? jids.chatJid, input.avatarUrl);
  }
  const outcome = await provider.receive(message);
  if (outcome.ignored) return { stored: false as const, ignored: outcome.ignored };
  const stored = await messageRef(deps.db, companyId, outcome.messageId ?? 0);
  return {
    stored: true as const,
    duplicate: outcome.duplicate === true,
    id: stored?.id ?? null,
    wid: stored?.wid ?? null,
    ticketId: stored?.ticketId ?? null,
  };
}

/** The phone edits one of its messages. */
export async function editFromPhone(
  deps: AppDeps,
  companyId: number,
  whatsappId: number,
  input: Party & { id: string; body: string },
) {
  const provider = await phone(deps, companyId, whatsappId);
  const outcome = await provider.edit(jidsOf(input).chatJid, input.id, input.body);
  return { updated: outcome.messageId !== undefined, id: outcome.messageId ?? null };
}

/** The phone deletes one of its messages for everyone. */
export async function revokeFromPhone(
  deps: AppDeps,
  companyId: number,
  whatsappId: number,
  input: Party & { id: string },
) {
  const provider = await phone(deps, companyId, whatsappId);
  const outcome = await provider.revoke(jidsOf(input).chatJid, input.id);
  return { updated: outcome.messageId !== undefined, id: outcome.messageId ?? null };
}

/** A phone calls the connection. */
export async function callFromPhone(
  deps: AppDeps,
  companyId: number,
  whatsappId: number,
  input: { from: string; isVideo?: boolean; id?: string },
) {
  const provider = await phone(deps, companyId, whatsappId);
  const from = `${phoneDigits(input.from)}@s.whatsapp.net`;
  const before = provider.rejectedCalls.length;
  const outcome = await provider.call(from, input.isVideo === true, input.id);
  return {
    id: outcome.messageId ?? null,
    ticketId: outcome.ticketId ?? null,
    duplicate: outcome.duplicate === true,
    rejected: provider.rejectedCalls.length > before,
  };
}

/** The contact `to` reads what the connection sent them (all, or the given ids). */
export async function readOnPhone(
  deps: AppDeps,
  companyId: number,
  whatsappId: number,
  input: { to: string; ids?: string[] },
) {
  const provider = await phone(deps, companyId, whatsappId);
  const count = await provider.read(`${phoneDigits(input.to)}@s.whatsapp.net`, input.ids);
  return { read: count };
}

/** What the connection sent, oldest first, a page at a time (`after`: the last seq read). */
export async function sentByConnection(
  deps: AppDeps,
  companyId: number,
  whatsappId: number,
  query: { to?: string; after?: number; limit?: number },
) {
  await connection(deps, companyId, whatsappId);
  const limit = query.limit ?? 500;
  const rows = await sentPage(deps.db, companyId, whatsappId, {
    toJid: query.to ? `${phoneDigits(query.to)}@s.whatsapp.net` : undefined,
    after: query.after,
    limit: limit + 1,
  });
  const page = rows.slice(0, limit);
  return { sent: page.map(sentView), hasMore: rows.length > page.length };
}

function sentView(r: SimulatorSent) {
  return {
    seq: r.id,
    id: r.wid,
    to: r.toJid.split("@")[0],
    toJid: r.toJid,
    body: r.body,
    media: r.mediaMimetype
      ? { mimetype: r.mediaMimetype, filename: r.mediaName, size: r.mediaSize, ptt: r.ptt === 1 }
      : null,
    quotedId: r.quotedId,
    ack: r.ack,
    deleted: r.deleted === 1,
    forwarded: r.forwarded === 1,
    edited: r.edited === 1,
    createdAt: r.createdAt,
  };
}
