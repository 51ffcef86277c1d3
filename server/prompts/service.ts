import type { Prompt } from "../../db/schema.ts";
import type { AppDeps } from "../context.ts";
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

export async function createPrompt(deps: AppDeps, companyId: number, input: PromptInput) {
  const queueId = await requireQueueOf(deps, companyId, input.queueId);
  const apiKey = newKey(input.apiKey);
  if (!apiKey) {
    throw badRequest("ERR_VALIDATION", "Verifique os dados informados", { apiKey: ["Required"] });
  }
  const now = deps.clock.now().toISOString();
  const row = await repo.insertPrompt(deps.db, {
    companyId,
    name: input.name,
    apiKey: await seal(deps.secrets.data, apiKey),
    prompt: input.prompt,
    voice: input.voice ?? "texto",
    voiceKey: await seal(deps.secrets.data, newKey(input.voiceKey) ?? ""),
    voiceRegion: input.voiceRegion ?? "",
    temperature: input.temperature ?? PROMPT_DEFAULTS.temperature,
    maxTokens: input.maxTokens ?? PROMPT_DEFAULTS.maxTokens,
    maxMessages: input.maxMessages ?? PROMPT_DEFAULTS.maxMessages,
    queueId,
    createdAt: now,
    updatedAt: now,
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
  companyId: number,
  id: number,
  input: PromptInput,
) {
  const queueId = await requireQueueOf(deps, companyId, input.queueId);
  const apiKey = newKey(input.apiKey);
  const voiceKey = newKey(input.voiceKey);
  const row = await repo.updatePrompt(deps.db, companyId, id, {
    name: input.name,
    prompt: input.prompt,
    ...(apiKey ? { apiKey: await seal(deps.secrets.data, apiKey) } : {}),
    ...(voiceKey ? { voiceKey: await seal(deps.secrets.data, voiceKey) } : {}),
    voice: input.voice,
    voiceRegion: input.voiceRegion,
    temperature: input.temperature,
    maxTokens: input.maxTokens,
    maxMessages: input.maxMessages,
    queueId,
    updatedAt: deps.clock.now().toISOString(),
  });
  if (!row) throw notFoundError();
  const view = await viewOf(deps, row);
  deps.events.emit("list.changed", {
    companyId,
    resource: "prompt",
    change: { action: "update", record: view },
  });
  return view;
}

/** Deletes a prompt; queues, connections and tickets that used it forget it (tickets to people). */
export async function removePrompt(deps: AppDeps, companyId: number, id: number) {
  await deps.db.transaction().execute(async (trx) => {
    if (!await owns(trx, companyId, "prompts", id)) throw notFoundError();
    await repo.deletePrompt(trx, companyId, id);
  });
  deps.events.emit("list.changed", {
    companyId,
    resource: "prompt",
    change: { action: "delete", id },
  });
}
