import type { Prompt } from "../../db/schema.ts";
import type { AppDeps } from "../context.ts";
import { seal, unsealOrEmpty } from "../crypto/sealed.ts";
import { AppError, badRequest, notFound } from "../errors.ts";
import { PROMPT_DEFAULTS, type PromptView } from "../../contract/integrations.ts";
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
  const queue = await deps.db.selectFrom("queues").select("name")
    .where("companyId", "=", row.companyId).where("id", "=", row.queueId).executeTakeFirst();
  return promptView(row, {
    apiKey: await unsealOrEmpty(deps.secrets.data, row.apiKey),
    voiceKey: await unsealOrEmpty(deps.secrets.data, row.voiceKey),
  }, queue?.name ?? null);
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
  const queue = await deps.db.selectFrom("queues").select("id").where("companyId", "=", companyId)
    .where("id", "=", queueId).executeTakeFirst();
  if (!queue) throw notFound("ERR_NO_QUEUE_FOUND", "Fila não encontrada");
  return queueId;
}

/** A key as sent by the form: absent, empty or the mask it was shown means "keep". */
function newKey(sent: string | undefined): string | undefined {
  if (sent === undefined) return undefined;
  const value = sent.trim();
  return value === "" || value.startsWith("••") ? undefined : value;
}

export async function listPrompts(deps: AppDeps, companyId: number) {
  const rows = await deps.db.selectFrom("prompts").selectAll().where("companyId", "=", companyId)
    .orderBy("name").orderBy("id").limit(500).execute();
  const prompts = await Promise.all(rows.map((row) => viewOf(deps, row)));
  return { prompts, count: prompts.length, hasMore: false };
}

export async function showPrompt(deps: AppDeps, companyId: number, id: number) {
  const row = await deps.db.selectFrom("prompts").selectAll().where("companyId", "=", companyId)
    .where("id", "=", id).executeTakeFirst();
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
  const row = await deps.db.insertInto("prompts").values({
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
  }).returningAll().executeTakeFirstOrThrow();
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
  const row = await deps.db.updateTable("prompts").set({
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
  }).where("companyId", "=", companyId).where("id", "=", id).returningAll().executeTakeFirst();
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
    const row = await trx.selectFrom("prompts").select("id").where("companyId", "=", companyId)
      .where("id", "=", id).executeTakeFirst();
    if (!row) throw notFoundError();
    await trx.updateTable("queues").set({ promptId: null }).where("companyId", "=", companyId)
      .where("promptId", "=", id).execute();
    await trx.updateTable("whatsapps").set({ promptId: null })
      .where("companyId", "=", companyId).where("promptId", "=", id).execute();
    await trx.updateTable("tickets").set({ promptId: null }).where("companyId", "=", companyId)
      .where("promptId", "=", id).execute();
    await trx.deleteFrom("prompts").where("companyId", "=", companyId).where("id", "=", id)
      .execute();
  });
  deps.events.emit("list.changed", {
    companyId,
    resource: "prompt",
    change: { action: "delete", id },
  });
}
