import { auditBy, changedFields } from "../audit/service.ts";
import { assertBelowLimit } from "../plans/features.ts";
import { requireBotRefs } from "../integrations/service.ts";
import type { Whatsapp } from "../../db/schema.ts";
import { capabilitiesOf, type ChannelKind, DEFAULT_CHANNEL } from "../../contract/channels.ts";
import {
  type CloudInput,
  cloudSettingsOf,
  insertCloudSettings,
  updateCloudSettings,
} from "./providers/cloud_api/service.ts";
import type { AppDeps, AuthInfo } from "../context.ts";
import { AppError, badRequest, notFound } from "../errors.ts";
import { isAllowed } from "../auth/policy.ts";
import { log } from "../log.ts";
import { atHolder } from "./holder_calls.ts";
import { newTokenColumns } from "../external_api/tokens.ts";
import {
  clearOtherDefaults,
  countWhatsapps,
  deleteWhatsapp,
  existingQueueIds,
  findWhatsapp,
  findWhatsappByName,
  insertWhatsapp,
  listWhatsapps,
  queuesOfWhatsapps,
  setWhatsappQueues,
  updateWhatsapp,
} from "./repository.ts";
import {
  publishWhatsappDelete,
  publishWhatsappUpdate,
  type WhatsappView,
  whatsappView,
} from "./view.ts";

/** Editable fields of a connection (seeds/000 sections 3 and 9). */
export type ConnectionInput = {
  name?: string;
  isDefault?: boolean;
  greetingMessage?: string;
  complationMessage?: string;
  outOfHoursMessage?: string;
  ratingMessage?: string;
  provider?: ChannelKind;
  timeSendQueue?: number;
  sendIdQueue?: number;
  expiresInactiveMessage?: string;
  expiresTicket?: number;
  timeUseBotQueues?: number;
  maxUseBotQueues?: number;
  queueIds?: number[];
  promptId?: number | null;
  /** issue 15: the integration every new ticket of the connection goes to. */
  integrationId?: number | null;
  /** A channel typed in by credentials (capability `credentials`): its ids and secrets. */
  cloud?: CloudInput;
  /** PUT of a credentials channel: the ids or secrets typed again (blank ones kept). */
  credentials?: Partial<CloudInput>;
};

async function viewsOf(deps: AppDeps, auth: AuthInfo, rows: Whatsapp[]): Promise<WhatsappView[]> {
  const queues = await queuesOfWhatsapps(deps.db, auth.companyId, rows.map((r) => r.id));
  return rows.map((r) =>
    whatsappView(r, queues.get(r.id) ?? [], { withSecrets: isAllowed(auth, "connection:manage") })
  );
}

async function viewOf(deps: AppDeps, auth: AuthInfo, row: Whatsapp): Promise<WhatsappView> {
  const view = (await viewsOf(deps, auth, [row]))[0];
  // What to paste into Meta (webhook URL, verify token): for those who manage connections.
  if (capabilitiesOf(row.provider).credentials && isAllowed(auth, "connection:manage")) {
    view.cloud = await cloudSettingsOf(deps, auth.companyId, row.id);
  }
  return view;
}

async function publishUpdate(deps: AppDeps, row: Whatsapp) {
  const queues = await queuesOfWhatsapps(deps.db, row.companyId, [row.id]);
  publishWhatsappUpdate(deps.events, row, queues.get(row.id) ?? []);
}

async function requireConnection(deps: AppDeps, auth: AuthInfo, id: number): Promise<Whatsapp> {
  const row = await findWhatsapp(deps.db, auth.companyId, id);
  if (!row) throw notFound("ERR_NO_WAPP_FOUND", "Conexão não encontrada");
  return row;
}

async function checkQueues(deps: AppDeps, auth: AuthInfo, ids: number[]) {
  const unique = [...new Set(ids)];
  const found = await existingQueueIds(deps.db, auth.companyId, unique);
  if (found.length !== unique.length) throw notFound("ERR_NO_QUEUE_FOUND", "Fila não encontrada");
}

/** seeds/000 section 8: with more than one queue the greeting (the menu's intro) is required. */
function checkGreeting(queueCount: number, greeting: string) {
  if (queueCount > 1 && !greeting.trim()) {
    throw badRequest(
      "ERR_WAPP_GREETING_REQUIRED",
      "Uma mensagem de saudação é obrigatória quando há mais de uma fila",
    );
  }
}

async function checkName(deps: AppDeps, auth: AuthInfo, name: string, exceptId?: number) {
  const same = await findWhatsappByName(deps.db, auth.companyId, name);
  if (same && same.id !== exceptId) {
    throw new AppError(409, "ERR_DUPLICATED_NAME", "Já existe uma conexão com esse nome");
  }
}

/** GET /api/whatsapp: the company's connections with their queues. */
export async function listConnections(deps: AppDeps, auth: AuthInfo): Promise<WhatsappView[]> {
  return await viewsOf(deps, auth, await listWhatsapps(deps.db, auth.companyId));
}

/** GET /api/whatsapp/:id. */
export async function showConnection(deps: AppDeps, auth: AuthInfo, id: number) {
  return await viewOf(deps, auth, await requireConnection(deps, auth, id));
}

function scalarFields(input: ConnectionInput) {
  const fields: Partial<Omit<Whatsapp, "id" | "companyId">> = {};
  const keys = [
    "name",
    "greetingMessage",
    "complationMessage",
    "outOfHoursMessage",
    "ratingMessage",
    "provider",
    "timeSendQueue",
    "sendIdQueue",
    "expiresInactiveMessage",
    "expiresTicket",
    "timeUseBotQueues",
    "maxUseBotQueues",
    "promptId",
    "integrationId",
  ] as const;
  for (const key of keys) {
    if (input[key] !== undefined) (fields as Record<string, unknown>)[key] = input[key];
  }
  return fields;
}

/**
 * POST /api/whatsapp: the plan's connection limit (ERR_PLAN_LIMIT), the greeting rule, the
 * first connection becomes the default; the session starts at once (its QR is shown).
 */
export async function createConnection(
  deps: AppDeps,
  auth: AuthInfo,
  input: ConnectionInput & { name: string },
): Promise<WhatsappView> {
  const { db, clock } = deps;
  const provider = input.provider ?? DEFAULT_CHANNEL;
  if (capabilitiesOf(provider).credentials && !input.cloud) {
    throw badRequest("ERR_VALIDATION", "Informe as credenciais da conexão", {
      accessToken: ["Required"],
    });
  }
  const count = await countWhatsapps(db, auth.companyId);
  assertBelowLimit(auth.plan, "connections", count);
  const queueIds = [...new Set(input.queueIds ?? [])];
  await checkQueues(deps, auth, queueIds);
  if (input.sendIdQueue) await checkQueues(deps, auth, [input.sendIdQueue]);
  checkGreeting(queueIds.length, input.greetingMessage ?? "");
  await checkName(deps, auth, input.name);
  const isDefault = count === 0 || input.isDefault === true;
  const now = clock.now().toISOString();
  // The API token comes from the CSPRNG, never from the form, and is answered this once
  // (server/external_api/tokens.ts).
  const token = await newTokenColumns();
  const row = await db.transaction().execute(async (trx) => {
    await requireBotRefs(trx, auth.companyId, input);
    const created = await insertWhatsapp(trx, auth.companyId, {
      ...scalarFields(input),
      name: input.name,
      ...token.columns,
      provider,
      status: "DISCONNECTED",
      isDefault: isDefault ? 1 : 0,
      createdAt: now,
      updatedAt: now,
    });
    if (isDefault) await clearOtherDefaults(trx, auth.companyId, created.id, now);
    if (input.cloud && capabilitiesOf(provider).credentials) {
      const at = { companyId: auth.companyId, whatsappId: created.id, now };
      await insertCloudSettings(trx, deps.secrets.data, at, input.cloud);
    }
    await setWhatsappQueues(trx, auth.companyId, created.id, queueIds);
    await auditBy(trx, auth, now, "connection.created", { entity: "connection", id: created.id }, {
      after: { ...scalarFields(input), isDefault, queueIds },
    });
    return created;
  });
  await publishUpdate(deps, row);
  if (isDefault) await publishOthers(deps, auth, row.id);
  const started = await deps.sessions.start(auth.companyId, row.id).catch((error) => {
    log.error("connection created but its session did not start", { whatsappId: row.id, error });
    return row;
  });
  return { ...await viewOf(deps, auth, started), token: token.plain };
}

/** When a connection became the default, the others' rows changed too. */
async function publishOthers(deps: AppDeps, auth: AuthInfo, exceptId: number) {
  for (const other of await listWhatsapps(deps.db, auth.companyId)) {
    if (other.id !== exceptId) await publishUpdate(deps, other);
  }
}

/** PUT /api/whatsapp/:id: ERR_NO_OTHER_WHATSAPP (a default must remain), the greeting rule. */
export async function updateConnection(
  deps: AppDeps,
  auth: AuthInfo,
  id: number,
  input: ConnectionInput,
): Promise<WhatsappView> {
  const { db, clock } = deps;
  const current = await requireConnection(deps, auth, id);
  if (input.isDefault === false && current.isDefault === 1) {
    throw badRequest(
      "ERR_NO_OTHER_WHATSAPP",
      "Deve haver uma conexão padrão: escolha outra conexão como padrão",
    );
  }
  const currentQueues = (await queuesOfWhatsapps(db, auth.companyId, [id])).get(id) ?? [];
  const queueIds = input.queueIds === undefined
    ? currentQueues.map((q) => q.id)
    : [...new Set(input.queueIds)];
  if (input.queueIds !== undefined) await checkQueues(deps, auth, queueIds);
  if (input.sendIdQueue) await checkQueues(deps, auth, [input.sendIdQueue]);
  checkGreeting(queueIds.length, input.greetingMessage ?? current.greetingMessage);
  if (input.name !== undefined) await checkName(deps, auth, input.name, id);
  const becameDefault = input.isDefault === true && current.isDefault === 0;
  const now = clock.now().toISOString();
  let reauthorized = false;
  const row = await db.transaction().execute(async (trx) => {
    await requireBotRefs(trx, auth.companyId, input);
    const updated = await updateWhatsapp(trx, auth.companyId, id, {
      ...scalarFields(input),
      ...(becameDefault ? { isDefault: 1 } : {}),
      updatedAt: now,
    });
    if (!updated) throw notFound("ERR_NO_WAPP_FOUND", "Conexão não encontrada");
    if (becameDefault) await clearOtherDefaults(trx, auth.companyId, id, now);
    if (input.queueIds !== undefined) await setWhatsappQueues(trx, auth.companyId, id, queueIds);
    reauthorized = input.credentials !== undefined &&
      capabilitiesOf(current.provider).credentials &&
      await updateCloudSettings(
        trx,
        deps.secrets.data,
        { companyId: auth.companyId, whatsappId: id, now },
        input.credentials,
      );
    const fields = Object.keys(scalarFields(input)) as (keyof Whatsapp)[];
    const diff = changedFields(
      {
        ...Object.fromEntries(fields.map((k) => [k, current[k]])),
        isDefault: current.isDefault === 1,
        queueIds: currentQueues.map((q) => q.id),
      },
      {
        ...Object.fromEntries(fields.map((k) => [k, updated[k]])),
        isDefault: becameDefault ? true : undefined,
        queueIds: input.queueIds === undefined ? undefined : queueIds,
        // Which credentials were typed again, never their values.
        credentials: reauthorized
          ? Object.keys(input.credentials ?? {}).filter((k) =>
            input.credentials?.[k as keyof CloudInput]
          )
          : undefined,
      },
    );
    if (Object.keys(diff.after).length > 0) {
      await auditBy(trx, auth, now, "connection.updated", { entity: "connection", id }, diff);
    }
    return updated;
  });
  await publishUpdate(deps, row);
  if (becameDefault) await publishOthers(deps, auth, id);
  if (input.provider !== undefined && input.provider !== current.provider) {
    // Another implementation: the running session (if any) belongs to the old one.
    await deps.sessions.remove(auth.companyId, id, false);
    const stopped = await updateWhatsapp(db, auth.companyId, id, {
      status: "DISCONNECTED",
      qrcode: "",
      updatedAt: clock.now().toISOString(),
    });
    if (stopped) {
      await publishUpdate(deps, stopped);
      return await viewOf(deps, auth, stopped);
    }
  }
  if (reauthorized) {
    // The running provider holds the old token: started again, it reads the number anew.
    return await viewOf(deps, auth, await deps.sessions.start(auth.companyId, id));
  }
  return await viewOf(deps, auth, row);
}

/**
 * DELETE /api/whatsapp/:id: the default connection cannot be deleted while others exist
 * (ERR_NO_OTHER_WHATSAPP: make another one the default first); the session is logged out.
 */
export async function deleteConnection(deps: AppDeps, auth: AuthInfo, id: number) {
  const current = await requireConnection(deps, auth, id);
  if (current.isDefault === 1 && (await countWhatsapps(deps.db, auth.companyId)) > 1) {
    throw badRequest(
      "ERR_NO_OTHER_WHATSAPP",
      "Deve haver uma conexão padrão: escolha outra conexão como padrão antes de excluir esta",
    );
  }
  await deps.sessions.remove(auth.companyId, id, true);
  // Tickets and messages keep their history (whatsappId becomes null); the outbox rows go.
  const now = deps.clock.now().toISOString();
  await deps.db.transaction().execute(async (trx) => {
    if (!(await deleteWhatsapp(trx, auth.companyId, id))) {
      throw notFound("ERR_NO_WAPP_FOUND", "Conexão não encontrada");
    }
    await auditBy(trx, auth, now, "connection.deleted", { entity: "connection", id }, {
      before: { name: current.name, provider: current.provider },
    });
  });
  publishWhatsappDelete(deps.events, auth.companyId, id);
}

/**
 * POST /api/whatsapp/:id/token (admins): a new API token from the CSPRNG; the old one stops
 * working at once (requests are looked up by the new hash). The connection is answered with the
 * token, this once: only its hash and hint are kept.
 */
export async function regenerateToken(
  deps: AppDeps,
  auth: AuthInfo,
  id: number,
): Promise<WhatsappView> {
  await requireConnection(deps, auth, id);
  const token = await newTokenColumns();
  const now = deps.clock.now().toISOString();
  const row = await deps.db.transaction().execute(async (trx) => {
    const row = await updateWhatsapp(trx, auth.companyId, id, { ...token.columns, updatedAt: now });
    if (!row) throw notFound("ERR_NO_WAPP_FOUND", "Conexão não encontrada");
    // The token itself never reaches the log: only that a new one replaced the old.
    await auditBy(trx, auth, now, "connection.tokenRegenerated", { entity: "connection", id });
    return row;
  });
  await publishUpdate(deps, row);
  return { ...await viewOf(deps, auth, row), token: token.plain };
}

/** POST/PUT/DELETE /api/whatsappsession/:id. */
export async function sessionAction(
  deps: AppDeps,
  auth: AuthInfo,
  id: number,
  action: "start" | "newQr" | "disconnect",
): Promise<WhatsappView> {
  await requireConnection(deps, auth, id);
  const row = action === "start"
    ? await deps.sessions.start(auth.companyId, id)
    : action === "newQr"
    ? await deps.sessions.newQr(auth.companyId, id)
    : await deps.sessions.disconnect(auth.companyId, id);
  return await viewOf(deps, auth, row);
}

/**
 * POST /api/whatsappsession/:id/pairing-code: link the number by typing a code on the phone
 * instead of reading the QR. Only while the session waits to be linked (OPENING or qrcode);
 * the code also goes out on whatsappSession with status PAIRING. Asked of the process that runs
 * the session, whichever process the request reached (holder_calls.ts).
 */
export async function requestPairingCode(
  deps: AppDeps,
  auth: AuthInfo,
  id: number,
  phoneNumber: string,
): Promise<string> {
  await requireConnection(deps, auth, id);
  const digits = phoneNumber.replace(/\D/g, "");
  if (digits.length < 8 || digits.length > 15) {
    throw badRequest("ERR_WAPP_INVALID_CONTACT", "Este não é um número de Whatsapp válido");
  }
  return await atHolder(deps, "pairingCode", auth.companyId, id, { digits });
}
