import { auditBy, changedFields } from "../audit/service.ts";
import { assertBelowLimit } from "../plans/features.ts";
import { requireBotRefs } from "../integrations/service.ts";
import { isUniqueViolation } from "../../db/constraints.ts";
import type { Queue } from "../../db/schema.ts";
import type { AppDeps, AuthInfo } from "../context.ts";
import { AppError, notFound } from "../errors.ts";
import { removeUpload, storeUpload, uploadResponse } from "../media/uploads.ts";
import { ticketChange } from "../events/domain.ts";
import { noteReleased } from "../events/outgoing_repository.ts";
import { loadTicketViews } from "../tickets/view_repository.ts";
import { defaultWorkingHours, parseWorkingHours, type WorkingHoursEntry } from "./hours.ts";
import * as repo from "./repository.ts";
import type { Queue as QueueShape } from "../../contract/queue_types.ts";

/** A queue as the API and the socket answer it (seeds/001 section 3 'Queue'). */
export type QueueView = QueueShape & { createdAt: string; updatedAt: string };

export type QueueInput = {
  name: string;
  color: string;
  greetingMessage?: string;
  outOfHoursMessage?: string;
  orderQueue?: number | null;
  schedules?: WorkingHoursEntry[];
  promptId?: number | null;
  integrationId?: number | null;
  distribution?: QueueShape["distribution"];
  firstResponseMinutes?: number | null;
  resolutionMinutes?: number | null;
  pauseWhenWaitingOnCustomer?: boolean;
};

export function queueView(q: Queue): QueueView {
  return {
    id: q.id,
    name: q.name,
    color: q.color,
    greetingMessage: q.greetingMessage,
    outOfHoursMessage: q.outOfHoursMessage,
    orderQueue: q.orderQueue,
    integrationId: q.integrationId,
    promptId: q.promptId,
    schedules: parseWorkingHours(q.schedules),
    mediaName: q.mediaName,
    mediaUrl: q.mediaPath ? `/api/queue/${q.id}/media` : null,
    companyId: q.companyId,
    distribution: q.distribution,
    firstResponseMinutes: q.firstResponseMinutes,
    resolutionMinutes: q.resolutionMinutes,
    pauseWhenWaitingOnCustomer: q.pauseWhenWaitingOnCustomer === 1,
    createdAt: q.createdAt,
    updatedAt: q.updatedAt,
  };
}

async function found(deps: AppDeps, companyId: number, id: number): Promise<Queue> {
  const q = await repo.findQueue(deps.db, companyId, id);
  if (!q) throw notFound("ERR_NO_QUEUE_FOUND", "Fila não encontrada");
  return q;
}

function conflictError(kind: { name: boolean; color: boolean }): AppError | undefined {
  if (kind.color) {
    return new AppError(
      409,
      "ERR_QUEUE_COLOR_ALREADY_EXISTS",
      "Esta cor já está em uso por outra fila",
    );
  }
  if (kind.name) {
    return new AppError(409, "ERR_DUPLICATED_NAME", "Já existe uma fila com este nome");
  }
}

function mapUnique(error: unknown): unknown {
  if (isUniqueViolation(error, "queues.color")) return conflictError({ name: false, color: true });
  if (isUniqueViolation(error, "queues.name")) return conflictError({ name: true, color: false });
  return error;
}

export async function listQueues(deps: AppDeps, companyId: number): Promise<QueueView[]> {
  return (await repo.listQueues(deps.db, companyId)).map(queueView);
}

export async function getQueue(deps: AppDeps, companyId: number, id: number): Promise<QueueView> {
  return queueView(await found(deps, companyId, id));
}

/**
 * Creates a queue (admins). Name and colour are unique in the company; a queue created without
 * hours gets the default week (seeds/001 section 3); the plan limits how many queues exist.
 */
export async function createQueue(
  deps: AppDeps,
  auth: AuthInfo,
  input: QueueInput,
): Promise<QueueView> {
  const companyId = auth.companyId;
  const now = deps.clock.now().toISOString();
  let row: Queue;
  try {
    row = await deps.db.transaction().execute(async (trx) => {
      assertBelowLimit(auth.plan, "queues", await repo.countQueues(trx, companyId));
      const conflict = conflictError(await repo.findConflict(trx, companyId, input));
      if (conflict) throw conflict;
      await requireBotRefs(trx, companyId, input);
      const created = await repo.insertQueue(trx, {
        companyId,
        name: input.name,
        color: input.color,
        greetingMessage: input.greetingMessage ?? "",
        outOfHoursMessage: input.outOfHoursMessage ?? "",
        orderQueue: input.orderQueue ?? null,
        integrationId: input.integrationId ?? null,
        promptId: input.promptId ?? null,
        schedules: JSON.stringify(input.schedules ?? defaultWorkingHours()),
        distribution: input.distribution ?? "off",
        firstResponseMinutes: input.firstResponseMinutes ?? null,
        resolutionMinutes: input.resolutionMinutes ?? null,
        pauseWhenWaitingOnCustomer: input.pauseWhenWaitingOnCustomer ? 1 : 0,
        mediaPath: null,
        mediaName: null,
        createdAt: now,
        updatedAt: now,
      });
      await auditBy(trx, auth, now, "queue.created", { entity: "queue", id: created.id }, {
        after: auditedFields(created),
      });
      return created;
    });
  } catch (error) {
    throw mapUnique(error);
  }
  const queue = queueView(row);
  deps.events.emit("queue.saved", { companyId, queue, created: true });
  return queue;
}

/** What the audit log keeps of a queue (its hours as stored, JSON). */
function auditedFields(q: Queue): Record<string, unknown> {
  return {
    name: q.name,
    color: q.color,
    greetingMessage: q.greetingMessage,
    outOfHoursMessage: q.outOfHoursMessage,
    orderQueue: q.orderQueue,
    integrationId: q.integrationId,
    promptId: q.promptId,
    schedules: q.schedules,
  };
}

/** Did what dates a ticket's targets change (hours, targets)? */
function timingChanged(was: Queue, now: Queue): boolean {
  return was.schedules !== now.schedules ||
    was.firstResponseMinutes !== now.firstResponseMinutes ||
    was.resolutionMinutes !== now.resolutionMinutes;
}

/** Updates a queue (admins); fields left out keep their values. */
export async function updateQueue(
  deps: AppDeps,
  auth: AuthInfo,
  id: number,
  input: Partial<QueueInput>,
): Promise<QueueView> {
  const companyId = auth.companyId;
  const now = deps.clock.now().toISOString();
  let row: { was: Queue; updated: Queue };
  try {
    row = await deps.db.transaction().execute(async (trx) => {
      const was = await repo.findQueue(trx, companyId, id);
      if (!was) throw notFound("ERR_NO_QUEUE_FOUND", "Fila não encontrada");
      const conflict = conflictError(await repo.findConflict(trx, companyId, input, id));
      if (conflict) throw conflict;
      await requireBotRefs(trx, companyId, input);
      const updated = (await repo.updateQueue(trx, companyId, id, {
        name: input.name,
        color: input.color,
        greetingMessage: input.greetingMessage,
        outOfHoursMessage: input.outOfHoursMessage,
        orderQueue: input.orderQueue,
        integrationId: input.integrationId,
        promptId: input.promptId,
        schedules: input.schedules === undefined ? undefined : JSON.stringify(input.schedules),
        distribution: input.distribution,
        firstResponseMinutes: input.firstResponseMinutes,
        resolutionMinutes: input.resolutionMinutes,
        pauseWhenWaitingOnCustomer: input.pauseWhenWaitingOnCustomer === undefined
          ? undefined
          : input.pauseWhenWaitingOnCustomer
          ? 1
          : 0,
        updatedAt: now,
      }))!;
      const diff = changedFields(auditedFields(was), auditedFields(updated));
      if (Object.keys(diff.after).length > 0) {
        await auditBy(trx, auth, now, "queue.updated", { entity: "queue", id }, diff);
      }
      return { was, updated };
    });
  } catch (error) {
    throw mapUnique(error);
  }
  const queue = queueView(row.updated);
  deps.events.emit("queue.saved", {
    companyId,
    queue,
    created: false,
    retimed: timingChanged(row.was, row.updated),
  });
  return queue;
}

/**
 * Deletes a queue with its option tree (foreign keys). Its pending and open tickets stay,
 * without a queue, and their lists hear it; media files of the queue and options are removed.
 */
export async function deleteQueue(deps: AppDeps, auth: AuthInfo, id: number) {
  const companyId = auth.companyId;
  const now = deps.clock.now().toISOString();
  const { queue, media, tickets, notes } = await deps.db.transaction().execute(async (trx) => {
    const queue = await repo.findQueue(trx, companyId, id);
    if (!queue) throw notFound("ERR_NO_QUEUE_FOUND", "Fila não encontrada");
    const media = await repo.mediaOfQueue(trx, companyId, id);
    const tickets = await repo.liveTicketsOfQueue(trx, companyId, id);
    await repo.deleteQueue(trx, companyId, id);
    await auditBy(trx, auth, now, "queue.deleted", { entity: "queue", id }, {
      before: auditedFields(queue),
    });
    // Each released ticket's event noted with the deletion (server/events/outgoing.ts).
    const notes = await noteReleased(trx, companyId, tickets, now);
    return { queue, media, tickets, notes };
  });
  for (const path of [queue.mediaPath, ...media]) await removeUpload(deps, companyId, path);
  const views = await loadTicketViews(deps.db, companyId, tickets.map((t) => t.id));
  const before = new Map(tickets.map((t) => [t.id, t]));
  for (const v of views) {
    const was = before.get(v.id);
    deps.events.emit(ticketChange(v, was), { ticket: v, before: was, outgoing: notes.get(v.id) });
  }
  deps.events.emit("queue.deleted", { companyId, id });
}

/** Attaches a file to the queue (replacing any previous one). */
export async function setQueueMedia(
  deps: AppDeps,
  companyId: number,
  id: number,
  file: File,
): Promise<QueueView> {
  const previous = await found(deps, companyId, id);
  const stored = await storeUpload(deps, companyId, file);
  const now = deps.clock.now().toISOString();
  const row = await repo.updateQueue(deps.db, companyId, id, {
    mediaPath: stored.path,
    mediaName: stored.filename,
    updatedAt: now,
  });
  if (!row) {
    await removeUpload(deps, companyId, stored.path);
    throw notFound("ERR_NO_QUEUE_FOUND", "Fila não encontrada");
  }
  await removeUpload(deps, companyId, previous.mediaPath);
  const queue = queueView(row);
  deps.events.emit("queue.saved", { companyId, queue, created: false });
  return queue;
}

export async function clearQueueMedia(
  deps: AppDeps,
  companyId: number,
  id: number,
): Promise<QueueView> {
  const previous = await found(deps, companyId, id);
  const row = await repo.updateQueue(deps.db, companyId, id, {
    mediaPath: null,
    mediaName: null,
    updatedAt: deps.clock.now().toISOString(),
  });
  await removeUpload(deps, companyId, previous.mediaPath);
  const queue = queueView(row ?? previous);
  deps.events.emit("queue.saved", { companyId, queue, created: false });
  return queue;
}

/** The queue's media as a download; 404 when there is none. */
export async function queueMedia(deps: AppDeps, companyId: number, id: number) {
  const queue = await found(deps, companyId, id);
  if (!queue.mediaPath) throw notFound("ERR_NO_MEDIA_FOUND", "Mídia não encontrada");
  return await uploadResponse(deps, companyId, queue.mediaPath, queue.mediaName ?? "file");
}
