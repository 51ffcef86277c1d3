import type { QueueOption } from "../../db/schema.ts";
import type { AppDeps } from "../context.ts";
import { AppError, notFound } from "../errors.ts";
import { removeUpload, storeUpload, uploadResponse } from "../media/uploads.ts";
import { findQueue } from "../queues/repository.ts";
import * as repo from "./repository.ts";
import type { QueueOption as QueueOptionShape } from "../../contract/queue_types.ts";

export type QueueOptionView = QueueOptionShape & { createdAt: string; updatedAt: string };

export type QueueOptionNode = QueueOptionView & { children: QueueOptionNode[] };

export type QueueOptionInput = {
  title: string;
  message?: string;
  option: string;
  queueId: number;
  parentId?: number | null;
};

export function optionView(o: QueueOption): QueueOptionView {
  return {
    id: o.id,
    queueId: o.queueId,
    parentId: o.parentId,
    title: o.title,
    message: o.message,
    option: o.option,
    mediaName: o.mediaName,
    mediaUrl: o.mediaPath ? `/api/queue-options/${o.id}/media` : null,
    createdAt: o.createdAt,
    updatedAt: o.updatedAt,
  };
}

function missing(): AppError {
  return notFound("ERR_NO_QUEUE_OPTION_FOUND", "Opção não encontrada");
}

async function foundOption(deps: AppDeps, companyId: number, id: number): Promise<QueueOption> {
  const option = await repo.findOption(deps.db, companyId, id);
  if (!option) throw missing();
  return option;
}

async function assertQueue(deps: AppDeps, companyId: number, queueId: number) {
  if (!await findQueue(deps.db, companyId, queueId)) {
    throw notFound("ERR_NO_QUEUE_FOUND", "Fila não encontrada");
  }
}

/**
 * A parent must be an option of the same company (else it looks missing) and of the same queue
 * (else 400), and must not be the option itself or one of its descendants (a cycle).
 */
async function assertParent(
  deps: AppDeps,
  companyId: number,
  queueId: number,
  parentId: number,
  selfId?: number,
) {
  const parent = await repo.findOption(deps.db, companyId, parentId);
  if (!parent) throw missing();
  if (parent.queueId !== queueId) {
    throw new AppError(400, "ERR_VALIDATION", "A opção pai pertence a outra fila", {
      fields: { parentId: ["A opção pai pertence a outra fila"] },
    });
  }
  if (selfId === undefined) return;
  const below = await repo.subtree(deps.db, companyId, selfId);
  if (below.some((o) => o.id === parentId)) {
    throw new AppError(400, "ERR_VALIDATION", "Uma opção não pode ficar dentro de si mesma", {
      fields: { parentId: ["Uma opção não pode ficar dentro de si mesma"] },
    });
  }
}

async function assertUniqueAnswer(
  deps: AppDeps,
  companyId: number,
  queueId: number,
  parentId: number | null,
  option: string,
  selfId?: number,
) {
  const same = await repo.findChildByOption(deps.db, companyId, queueId, parentId, option);
  if (same && same.id !== selfId) {
    throw new AppError(409, "ERR_CONFLICT", `Já existe a opção "${option}" neste nível`, {
      fields: { option: [`Já existe a opção "${option}" neste nível`] },
    });
  }
}

/** GET /api/queue-options?queueId&parentId: one level, each with its number of children. */
export async function listOptionsLevel(
  deps: AppDeps,
  companyId: number,
  queueId: number,
  parentId: number | null,
) {
  await assertQueue(deps, companyId, queueId);
  const rows = await repo.listOptions(deps.db, companyId, queueId, parentId);
  const counts = await repo.childCounts(deps.db, companyId, rows.map((r) => r.id));
  return rows.map((r) => ({ ...optionView(r), childrenCount: counts.get(r.id) ?? 0 }));
}

/** GET /api/queue-options/tree?queueId: the whole tree, nested by `children`. */
export async function optionTree(
  deps: AppDeps,
  companyId: number,
  queueId: number,
): Promise<QueueOptionNode[]> {
  await assertQueue(deps, companyId, queueId);
  const nodes = new Map<number, QueueOptionNode>();
  const rows = await repo.allOptions(deps.db, companyId, queueId);
  for (const r of rows) nodes.set(r.id, { ...optionView(r), children: [] });
  const roots: QueueOptionNode[] = [];
  for (const r of rows) {
    const node = nodes.get(r.id)!;
    const parent = r.parentId === null ? undefined : nodes.get(r.parentId);
    (parent ? parent.children : roots).push(node);
  }
  return roots;
}

export async function getOption(deps: AppDeps, companyId: number, id: number) {
  return optionView(await foundOption(deps, companyId, id));
}

export async function createOption(
  deps: AppDeps,
  companyId: number,
  input: QueueOptionInput,
): Promise<QueueOptionView> {
  const parentId = input.parentId ?? null;
  await assertQueue(deps, companyId, input.queueId);
  if (parentId !== null) await assertParent(deps, companyId, input.queueId, parentId);
  await assertUniqueAnswer(deps, companyId, input.queueId, parentId, input.option);
  const now = deps.clock.now().toISOString();
  const row = await repo.insertOption(deps.db, {
    companyId,
    queueId: input.queueId,
    parentId,
    title: input.title,
    message: input.message ?? "",
    option: input.option,
    mediaPath: null,
    mediaName: null,
    createdAt: now,
    updatedAt: now,
  });
  const option = optionView(row);
  deps.events.emit("queueOption.saved", { companyId, option, created: true });
  return option;
}

/** Updates title, message, answer or parent (within the same queue); queueId cannot change. */
export async function updateOption(
  deps: AppDeps,
  companyId: number,
  id: number,
  input: Partial<Omit<QueueOptionInput, "queueId">> & { queueId?: number },
): Promise<QueueOptionView> {
  const existing = await foundOption(deps, companyId, id);
  if (input.queueId !== undefined && input.queueId !== existing.queueId) {
    throw new AppError(400, "ERR_VALIDATION", "Uma opção não muda de fila", {
      fields: { queueId: ["Uma opção não muda de fila"] },
    });
  }
  const parentId = input.parentId === undefined ? existing.parentId : input.parentId;
  if (parentId !== null && parentId !== existing.parentId) {
    await assertParent(deps, companyId, existing.queueId, parentId, id);
  }
  const answer = input.option ?? existing.option;
  if (answer !== existing.option || parentId !== existing.parentId) {
    await assertUniqueAnswer(deps, companyId, existing.queueId, parentId, answer, id);
  }
  const row = await repo.updateOption(deps.db, companyId, id, {
    title: input.title,
    message: input.message,
    option: input.option,
    parentId,
    updatedAt: deps.clock.now().toISOString(),
  });
  if (!row) throw missing();
  const option = optionView(row);
  deps.events.emit("queueOption.saved", { companyId, option, created: false });
  return option;
}

/** Deletes an option and its whole subtree (foreign keys cascade), and their media files. */
export async function deleteOption(deps: AppDeps, companyId: number, id: number) {
  const removed = await deps.db.transaction().execute(async (trx) => {
    const existing = await repo.findOption(trx, companyId, id);
    if (!existing) throw missing();
    const removed = await repo.subtree(trx, companyId, id);
    await repo.deleteOption(trx, companyId, id);
    return { queueId: existing.queueId, rows: removed };
  });
  for (const r of removed.rows) await removeUpload(deps, companyId, r.mediaPath);
  deps.events.emit("queueOption.deleted", {
    companyId,
    queueId: removed.queueId,
    optionId: id,
    optionIds: removed.rows.map((r) => r.id),
  });
}

export async function setOptionMedia(
  deps: AppDeps,
  companyId: number,
  id: number,
  file: File | null,
): Promise<QueueOptionView> {
  const previous = await foundOption(deps, companyId, id);
  const stored = file ? await storeUpload(deps, companyId, file) : null;
  const row = await repo.updateOption(deps.db, companyId, id, {
    mediaPath: stored?.path ?? null,
    mediaName: stored?.filename ?? null,
    updatedAt: deps.clock.now().toISOString(),
  });
  if (!row) {
    await removeUpload(deps, companyId, stored?.path ?? null);
    throw missing();
  }
  await removeUpload(deps, companyId, previous.mediaPath);
  const option = optionView(row);
  deps.events.emit("queueOption.saved", { companyId, option, created: false });
  return option;
}

/** The option's media as a download; 404 when there is none. */
export async function optionMedia(deps: AppDeps, companyId: number, id: number) {
  const option = await foundOption(deps, companyId, id);
  if (!option.mediaPath) throw notFound("ERR_NO_MEDIA_FOUND", "Mídia não encontrada");
  return await uploadResponse(deps, companyId, option.mediaPath, option.mediaName ?? "file");
}
