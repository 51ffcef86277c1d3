import type { Database } from "../../db/client.ts";
import type { Updateable } from "kysely";
import type { Campaign, CampaignsTable } from "../../db/schema.ts";
import {
  CONFIRMATION_FIELDS,
  editableParts,
  MESSAGE_FIELDS,
  unknownVariablesOf,
} from "../../contract/campaign_rules.ts";
import type { CampaignDetail, CampaignView } from "../../contract/campaign_types.ts";
import type { AppDeps } from "../context.ts";
import { AppError, badRequest, notFound } from "../errors.ts";
import { removeUpload, storeUpload } from "../media/uploads.ts";
import { listNotFound } from "./lists_service.ts";
import { readCampaignSettings } from "./settings.ts";
import { owns } from "../references_repository.ts";
import { instantOfInput, parseWallClock } from "../../contract/time_zone.ts";
import { companyTimeZone } from "../settings/values.ts";
import { assertSendable } from "../messages/template_rule.ts";
import { parseSendTemplate, type SendTemplate } from "../../contract/channels.ts";
import {
  campaignView,
  deleteCampaignRow,
  findCampaign,
  insertCampaign,
  pageCampaigns,
  pageShipping,
  reachableCount,
  setCampaignFields,
  updateCampaignRow,
  withdrawQueued,
} from "./repository.ts";

/**
 * Campaign rules (seeds/002 sections 3, 4; issue 13 deliverable 4). A campaign with a schedule is
 * PROGRAMADA, without one INATIVA; the dispatcher (dispatcher.ts) starts it at scheduledAt.
 * Editing follows `editableParts` (contract/campaign_rules.ts), shared with the dialog.
 */
type MessageField = typeof MESSAGE_FIELDS[number] | typeof CONFIRMATION_FIELDS[number];

export type CampaignInput = Partial<Record<MessageField, string | null>> & {
  name?: string;
  confirmation?: boolean;
  /** ISO instant, or null for none. */
  scheduledAt?: string | null;
  whatsappId?: number | null;
  contactListId?: number | null;
  tagListId?: number | null;
  fileListId?: number | null;
  /** Issue 45: an approved template instead of the messages (Cloud API); null for none. */
  template?: SendTemplate | null;
};

export function campaignNotFound(): AppError {
  return notFound("ERR_NO_CAMPAIGN_FOUND", "Campanha não encontrada");
}

function notEditable(why: string): AppError {
  return badRequest("ERR_CAMPAIGN_NOT_EDITABLE", why);
}

/** Every id of the body must be the caller's company's (404 with the resource's code). */
async function checkReferences(db: Database, companyId: number, input: CampaignInput) {
  if (input.whatsappId != null && !await owns(db, companyId, "whatsapps", input.whatsappId)) {
    throw notFound("ERR_NO_WAPP_FOUND", "Conexão não encontrada");
  }
  if (
    input.contactListId != null && !await owns(db, companyId, "contact_lists", input.contactListId)
  ) {
    throw listNotFound();
  }
  if (input.tagListId != null && !await owns(db, companyId, "tags", input.tagListId)) {
    throw notFound("ERR_NO_TAG_FOUND", "Tag não encontrada");
  }
  if (input.fileListId != null && !await owns(db, companyId, "file_lists", input.fileListId)) {
    throw notFound("ERR_NO_FILE_LIST_FOUND", "Lista de arquivos não encontrada");
  }
}

/**
 * A campaign on a connection with the 24-hour window goes as an approved template, with no
 * confirmation request and no files (free-form sends): refused when saved, not at dispatch.
 */
async function assertChannelAllows(deps: AppDeps, trx: Database, c: Campaign) {
  await assertSendable(deps, c.companyId, c.whatsappId, {
    freeForm: c.confirmation === 1 || c.fileListId !== null,
    template: parseSendTemplate(c.template),
  }, trx);
}

/** What a campaign needs before it is scheduled: a connection, recipients and a message. */
async function assertReady(db: Database, companyId: number, c: Campaign) {
  const fields: Record<string, string[]> = {};
  if (c.whatsappId === null) fields.whatsappId = ["Obrigatório"];
  if (c.contactListId === null && c.tagListId === null) fields.contactListId = ["Obrigatório"];
  if (!c.template && !MESSAGE_FIELDS.some((f) => c[f]?.trim())) fields.message1 = ["Obrigatório"];
  if (c.confirmation === 1 && !CONFIRMATION_FIELDS.some((f) => c[f]?.trim())) {
    fields.confirmationMessage1 = ["Obrigatório"];
  }
  if (Object.keys(fields).length > 0) {
    throw new AppError(400, "ERR_VALIDATION", "A campanha não está completa", { fields });
  }
  // issue 24: a variable nothing fills would reach every recipient raw ("{cupom}").
  const settings = await readCampaignSettings(db, companyId);
  const [unknown] = unknownVariablesOf(c, settings.variables);
  if (unknown) {
    throw new AppError(
      400,
      "ERR_CAMPAIGN_UNKNOWN_VARIABLE",
      `A mensagem usa uma variável que não existe: ${unknown.variable}`,
      { params: { variable: unknown.variable, field: unknown.field } },
    );
  }
  if (await reachableCount(db, companyId, c) === 0) {
    throw badRequest("ERR_CAMPAIGN_NO_RECIPIENTS", "A campanha não tem nenhum destinatário válido");
  }
}

function columns(input: CampaignInput): Updateable<CampaignsTable> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(input)) {
    if (value === undefined) continue;
    out[key] = key === "confirmation"
      ? (value ? 1 : 0)
      : key === "template"
      ? (value === null ? null : JSON.stringify(value))
      : value;
  }
  return out as Updateable<CampaignsTable>;
}

async function publishCampaign(deps: AppDeps, companyId: number, id: number) {
  const view = await campaignView(deps.db, companyId, id);
  if (view) {
    deps.events.emit("list.changed", {
      companyId,
      resource: "campaign",
      change: { action: "update", record: view },
    });
  }
  return view;
}

/** GET /api/campaigns: a page, newest first, `searchParam` on the name. */
export async function listCampaigns(
  deps: AppDeps,
  companyId: number,
  searchParam: string | undefined,
  pageNumber: number,
) {
  return await pageCampaigns(deps.db, companyId, searchParam, pageNumber);
}

/** The campaign, its stats and a page of its shipping rows (contract CampaignDetail). */
export async function showCampaign(
  deps: AppDeps,
  companyId: number,
  id: number,
  shippingPage = 1,
): Promise<CampaignDetail> {
  const view = await campaignView(deps.db, companyId, id);
  if (!view) throw campaignNotFound();
  const page = await pageShipping(deps.db, companyId, id, shippingPage);
  return {
    ...view,
    shipping: page.shipping,
    shippingCount: page.count,
    shippingHasMore: page.hasMore,
  };
}

/**
 * scheduledAt as typed (a time on the company's clock, the zone of its setting) or an instant:
 * the UTC ISO text stored (issue 24 item 6: one zone for typing and showing, not the browser's).
 */
async function withInstant<I extends CampaignInput>(
  deps: AppDeps,
  companyId: number,
  input: I,
): Promise<I> {
  const typed = input.scheduledAt;
  if (!typed || !parseWallClock(typed)) return input;
  const zone = await companyTimeZone(deps.db, companyId);
  return { ...input, scheduledAt: instantOfInput(typed, zone) };
}

export async function createCampaign(
  deps: AppDeps,
  companyId: number,
  typed: CampaignInput & { name: string },
): Promise<CampaignView> {
  const input = await withInstant(deps, companyId, typed);
  await checkReferences(deps.db, companyId, input);
  const now = deps.clock.now().toISOString();
  const id = await deps.db.transaction().execute(async (trx) => {
    const row = await insertCampaign(trx, {
      ...columns(input),
      companyId,
      name: input.name,
      status: input.scheduledAt ? "PROGRAMADA" as const : "INATIVA" as const,
      createdAt: now,
      updatedAt: now,
    });
    await assertChannelAllows(deps, trx, row);
    if (row.status === "PROGRAMADA") await assertReady(trx, companyId, row);
    return row.id;
  });
  const view = (await campaignView(deps.db, companyId, id))!;
  deps.events.emit("list.changed", {
    companyId,
    resource: "campaign",
    change: { action: "create", record: view },
  });
  return view;
}

export async function updateCampaign(
  deps: AppDeps,
  companyId: number,
  id: number,
  typed: CampaignInput,
): Promise<CampaignView> {
  const input = await withInstant(deps, companyId, typed);
  await checkReferences(deps.db, companyId, input);
  const now = deps.clock.now();
  await deps.db.transaction().execute(async (trx) => {
    const current = await findCampaign(trx, companyId, id);
    if (!current) throw campaignNotFound();
    const parts = editableParts(current, now);
    if (parts === "none") throw notEditable("Esta campanha não pode ser alterada agora");
    const changes = columns(input);
    if (parts === "messages") {
      const allowed = new Set<string>([...MESSAGE_FIELDS, ...CONFIRMATION_FIELDS]);
      const other = Object.entries(changes).filter(([k, v]) =>
        !allowed.has(k) && (current as Record<string, unknown>)[k] !== v
      );
      if (other.length > 0) {
        throw notEditable("Numa campanha cancelada só as mensagens podem ser alteradas");
      }
      for (const key of Object.keys(changes)) {
        if (!allowed.has(key)) delete (changes as Record<string, unknown>)[key];
      }
    } else if (input.scheduledAt !== undefined) {
      changes.status = input.scheduledAt ? "PROGRAMADA" as const : "INATIVA" as const;
    }
    const row = await updateCampaignRow(trx, companyId, id, {
      ...changes,
      updatedAt: now.toISOString(),
    });
    await assertChannelAllows(deps, trx, row);
    if (row.status === "PROGRAMADA") await assertReady(trx, companyId, row);
  });
  return (await publishCampaign(deps, companyId, id))!;
}

export async function deleteCampaign(deps: AppDeps, companyId: number, id: number) {
  const current = await findCampaign(deps.db, companyId, id);
  if (!current) throw campaignNotFound();
  if (current.status === "EM_ANDAMENTO") {
    throw notEditable("Cancele a campanha antes de apagá-la");
  }
  await deleteCampaignRow(deps.db, companyId, id);
  await removeUpload(deps, companyId, current.mediaPath);
  deps.events.emit("list.changed", {
    companyId,
    resource: "campaign",
    change: { action: "delete", id },
  });
}

/**
 * EM_ANDAMENTO (or PROGRAMADA) -> CANCELADA (seeds/002 section 4). Sending stops at once: the
 * campaign's messages still waiting in the outbox are withdrawn in the same transaction, and
 * their rows go back to pending, so a restart sends them; a message the outbox already took is
 * left to finish (it is then counted as delivered).
 */
export async function cancelCampaign(deps: AppDeps, companyId: number, id: number) {
  const now = deps.clock.now().toISOString();
  await deps.db.transaction().execute(async (trx) => {
    const current = await findCampaign(trx, companyId, id);
    if (!current) throw campaignNotFound();
    if (current.status !== "EM_ANDAMENTO" && current.status !== "PROGRAMADA") {
      throw new AppError(
        409,
        "ERR_INVALID_TRANSITION",
        "Só campanhas em andamento ou programadas podem ser canceladas",
      );
    }
    await setCampaignFields(trx, companyId, id, { status: "CANCELADA", updatedAt: now });
    // Recipients whose message has not left yet go back to pending.
    await withdrawQueued(trx, companyId, id, now);
  });
  return (await publishCampaign(deps, companyId, id))!;
}

/**
 * CANCELADA -> EM_ANDAMENTO (seeds/002 section 4): the dispatcher goes on with the rows not yet
 * sent. A campaign cancelled before it started (startedAt null) is scheduled for now instead.
 */
export async function restartCampaign(deps: AppDeps, companyId: number, id: number) {
  const now = deps.clock.now().toISOString();
  await deps.db.transaction().execute(async (trx) => {
    const current = await findCampaign(trx, companyId, id);
    if (!current) throw campaignNotFound();
    if (current.status !== "CANCELADA") {
      throw new AppError(
        409,
        "ERR_INVALID_TRANSITION",
        "Só campanhas canceladas podem ser reiniciadas",
      );
    }
    // Never started, or cancelled while its rows were being written: scheduled again for now.
    const started = current.startedAt !== null;
    await setCampaignFields(
      trx,
      companyId,
      id,
      started
        ? { status: "EM_ANDAMENTO", completedAt: null, updatedAt: now }
        : { status: "PROGRAMADA", scheduledAt: now, completedAt: null, updatedAt: now },
    );
  });
  return (await publishCampaign(deps, companyId, id))!;
}

/** POST /api/campaigns/:id/media-upload: the campaign's own attachment (while editable). */
export async function attachCampaignMedia(
  deps: AppDeps,
  companyId: number,
  id: number,
  file: File | null,
) {
  const current = await findCampaign(deps.db, companyId, id);
  if (!current) throw campaignNotFound();
  if (editableParts(current, deps.clock.now()) !== "all") {
    throw notEditable("Esta campanha não pode ser alterada agora");
  }
  const stored = file ? await storeUpload(deps, companyId, file) : null;
  await setCampaignFields(deps.db, companyId, id, {
    mediaPath: stored?.path ?? null,
    mediaName: stored?.filename ?? null,
    updatedAt: deps.clock.now().toISOString(),
  });
  await removeUpload(deps, companyId, current.mediaPath);
  return (await publishCampaign(deps, companyId, id))!;
}
