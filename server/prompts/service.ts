import type { Prompt } from "../../db/schema.ts";
import { auditBy, changedFields } from "../audit/service.ts";
import type { AppDeps, AuthInfo } from "../context.ts";
import { seal, unsealOrEmpty } from "../crypto/sealed.ts";
import { AppError, badRequest, notFound } from "../errors.ts";
import { PROMPT_DEFAULTS, type PromptView } from "../../contract/integrations.ts";
import { owns } from "../references_repository.ts";
import * as repo from "./repository.ts";
import { promptView } from "./view.ts";

/**
 * AI prompts (seeds/002 sections 2.8, 3, 5, 7): an assistant bound to a queue. Keys are sealed at
 * rest and answered masked; an update that sends no key (or the mask back) keeps the stored one.
 */
export type PromptInput = {
  name: string;
  apiKey?: string;
  prompt: string;
  voice?: string;
  voiceKey?: string;
  voiceRegion?: string;
  temperature?: number;
  maxTokens?: number;
  maxMessages?: number;
  queueId?: number | null;
};

const notFoundError = () => notFound("ERR_NO_PROMPT_FOUND", "Prompt não encontrado");

async function viewOf(deps: AppDeps, row: Prompt): Promise<PromptView> {
  const queue = await repo.queueName(deps.db, row.companyId, row.queueId);
  return promptView(row, {
    apiKey: await unsealOrEmpty(deps.secrets.data, row.apiKey),
    voiceKey: await unsealOrEmpty(deps.secrets.data, row.voiceKey),
  }, queue);
}

async function requireQueueOf(
  deps: AppDeps,
  companyId: number,
  queueId: number | null | undefined,
) {
  // seeds/002 section 5: saving requires a queue ('Informe o setor').
  if (queueId == null) {
    throw new AppError(400, "ERR_PROMPT_QUEUE_REQUIRED", "Informe o setor", {
      fields: { queueId: ["Informe o setor"] },
    });
  }
  if (!await owns(deps.db, companyId, "queues", queueId)) {
    throw notFound("ERR_NO_QUEUE_FOUND", "Fila não encontrada");
  }
  return queueId;
}

/** A key as sent by the form: absent, empty or the mask it was shown means "keep". */
function newKey(sent: string | undefined): string | undefined {
  if (sent === undefined) return undefined;
  const value = sent.trim();
  return value === "" || value.startsWith("••") ? undefined : value;
}

export async function listPrompts(deps: AppDeps, companyId: number) {
  const rows = await repo.listPromptRows(deps.db, companyId, 500);
  const prompts = await Promise.all(rows.map((row) => viewOf(deps, row)));
  return { prompts, count: prompts.length, hasMore: false };
}

export async function showPrompt(deps: AppDeps, companyId: number, id: number) {
  const row = await repo.findPrompt(deps.db, companyId, id);
  if (!row) throw notFoundError();
  return await viewOf(deps, row);
}

/**
 * What the audit log keeps of a prompt: its fields, the keys in plain text (compared as such:
 * sealing twice gives two ciphertexts), which the log masks (server/audit/service.ts masked).
 */
async function auditedFields(deps: AppDeps, row: Prompt) {
  const { id: _id, companyId: _c, createdAt: _at, updatedAt: _up, ...fields } = row;
  return {
    ...fields,
    apiKey: await unsealOrEmpty(deps.secrets.data, row.apiKey),
    voiceKey: await unsealOrEmpty(deps.secrets.data, row.voiceKey),
  };
}

export async function createPrompt(deps: AppDeps, auth: AuthInfo, input: PromptInput) {
  const companyId = auth.companyId;
  const queueId = await requireQueueOf(deps, companyId, input.queueId);
  const apiKey = newKey(input.apiKey);
  if (!apiKey) {
    throw badRequest("ERR_VALIDATION", "Verifique os dados informados", { apiKey: ["Required"] });
  }
  const now = deps.clock.now().toISOString();
  const sealed = {
    apiKey: await seal(deps.secrets.data, apiKey),
    voiceKey: await seal(deps.secrets.data, newKey(input.voiceKey) ?? ""),
  };
  const row = await deps.db.transaction().execute(async (trx) => {
    const row = await repo.insertPrompt(trx, {
      companyId,
      name: input.name,
      ...sealed,
      prompt: input.prompt,
      voice: input.voice ?? "texto",
      voiceRegion: input.voiceRegion ?? "",
      temperature: input.temperature ?? PROMPT_DEFAULTS.temperature,
      maxTokens: input.maxTokens ?? PROMPT_DEFAULTS.maxTokens,
      maxMessages: input.maxMessages ?? PROMPT_DEFAULTS.maxMessages,
      queueId,
      createdAt: now,
      updatedAt: now,
    });
    await auditBy(trx, auth, now, "prompt.created", { entity: "prompt", id: row.id }, {
      after: await auditedFields(deps, row),
    });
    return row;
  });
  const view = await viewOf(deps, row);
  deps.events.emit("list.changed", {
    companyId,
    resource: "prompt",
    change: { action: "create", record: view },
  });
  return view;
}

export async function changePrompt(
  deps: AppDeps,
  auth: AuthInfo,
  id: number,
  input: PromptInput,
) {
  const companyId = auth.companyId;
  const queueId = await requireQueueOf(deps, companyId, input.queueId);
  const apiKey = newKey(input.apiKey);
  const voiceKey = newKey(input.voiceKey);
  const keys = {
    ...(apiKey ? { apiKey: await seal(deps.secrets.data, apiKey) } : {}),
    ...(voiceKey ? { voiceKey: await seal(deps.secrets.data, voiceKey) } : {}),
  };
  const now = deps.clock.now().toISOString();
  const row = await deps.db.transaction().execute(async (trx) => {
    const was = await repo.findPrompt(trx, companyId, id);
    if (!was) throw notFoundError();
    const row = await repo.updatePrompt(trx, companyId, id, {
      name: input.name,
      prompt: input.prompt,
      ...keys,
      voice: input.voice,
      voiceRegion: input.voiceRegion,
      temperature: input.temperature,
      maxTokens: input.maxTokens,
      maxMessages: input.maxMessages,
      queueId,
      updatedAt: now,
    });
    if (!row) throw notFoundError();
    const diff = changedFields(await auditedFields(deps, was), await auditedFields(deps, row));
    if (Object.keys(diff.after).length > 0) {
      await auditBy(trx, auth, now, "prompt.updated", { entity: "prompt", id }, diff);
    }
    return row;
  });
  const view = await viewOf(deps, row);
  deps.events.emit("list.changed", {
    companyId,
    resource: "prompt",
    change: { action: "update", record: view },
  });
  return view;
}

/** Deletes a prompt; queues, connections and tickets that used it forget it (tickets to people). */
export async function removePrompt(deps: AppDeps, auth: AuthInfo, id: number) {
  const companyId = auth.companyId;
  const now = deps.clock.now().toISOString();
  await deps.db.transaction().execute(async (trx) => {
    const was = await repo.findPrompt(trx, companyId, id);
    if (!was) throw notFoundError();
    await repo.deletePrompt(trx, companyId, id);
    await auditBy(trx, auth, now, "prompt.deleted", { entity: "prompt", id }, {
      before: await auditedFields(deps, was),
    });
  });
  deps.events.emit("list.changed", {
    companyId,
    resource: "prompt",
    change: { action: "delete", id },
  });
}
