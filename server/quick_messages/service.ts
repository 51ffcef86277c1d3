import type { QuickMessage } from "../../db/schema.ts";
import type { AppDeps, AuthInfo } from "../context.ts";
import { AppError, notFound } from "../errors.ts";
import { assertRecord, isAllowed, recordAllowed } from "../auth/policy.ts";
import {
  quickMessageChangeNeeds,
  quickMessageQueueNeeds,
  quickMessageReadNeeds,
} from "../../contract/record_policy.ts";
import { checkAttachment } from "../messages/attachments.ts";
import { cleanFilename } from "../media/store.ts";
import { removeUpload, storeUpload, uploadResponse } from "../media/uploads.ts";
import { companyHas } from "../tickets/repository.ts";
import { userQueueIds } from "../users/repository.ts";
import {
  deleteQuickMessage,
  findQuickMessage,
  insertQuickMessage,
  listQuickMessages,
  pageQuickMessages,
  type QuickMessageScope,
  type QuickMessageView,
  quickMessageView,
  updateQuickMessage,
} from "./repository.ts";

export type QuickMessageInput = {
  shortcode?: string;
  message?: string;
  geral?: boolean;
  /** Issue 28: a queue of the company (admins: any; attendants: one of theirs), or null. */
  queueId?: number | null;
};

const managesAny = (auth: AuthInfo) => isAllowed(auth, "quick-message:manage-any");

/** The caller's queues (the token's, else read). */
async function queuesOf(deps: AppDeps, auth: AuthInfo): Promise<readonly number[]> {
  return auth.queueIds ?? await userQueueIds(deps.db, auth.companyId, auth.userId);
}

/**
 * Readable: general ones (not a queue's), one's own, those of one's queues, or any for admins;
 * otherwise 404 like a missing one.
 */
async function readable(deps: AppDeps, auth: AuthInfo, q: QuickMessage): Promise<boolean> {
  if (managesAny(auth)) return true;
  const caller = { userId: auth.userId, queueIds: await queuesOf(deps, auth) };
  return recordAllowed(auth, quickMessageReadNeeds(caller, { ...q, geral: q.geral === 1 }));
}

/**
 * A queue in a body: the company's (else 404 ERR_NO_QUEUE_FOUND, another company's alike); an
 * attendant may only name one of their own queues (403).
 */
async function checkQueue(deps: AppDeps, auth: AuthInfo, queueId: number | null | undefined) {
  if (queueId === undefined || queueId === null) return;
  if (!await companyHas(deps.db, "queues", auth.companyId, queueId)) {
    throw notFound("ERR_NO_QUEUE_FOUND", "Queue not found");
  }
  if (managesAny(auth)) return;
  assertRecord(auth, quickMessageQueueNeeds({ queueIds: await queuesOf(deps, auth) }, queueId));
}

/** Changeable: one's own, or any for admins. */
function assertCanChange(auth: AuthInfo, q: QuickMessage) {
  assertRecord(auth, quickMessageChangeNeeds(auth, q));
}

/** Told after the write; who hears it is decided from `geral` (server/realtime/listeners.ts). */
function publishChange(deps: AppDeps, view: QuickMessageView, before?: QuickMessage) {
  deps.events.emit("quickMessage.saved", {
    record: view,
    created: before === undefined,
    wasShared: before !== undefined && before.geral === 1 && before.queueId === null,
  });
}

/** What a user lists: their own, the general ones and their queues'; admins every one. */
const scopeOf = async (deps: AppDeps, auth: AuthInfo): Promise<QuickMessageScope> => ({
  companyId: auth.companyId,
  userId: auth.userId,
  all: managesAny(auth),
  queueIds: managesAny(auth) ? [] : await queuesOf(deps, auth),
});

/** GET /api/quick-messages/list: every answer the caller may use (the '/' menu). */
export async function quickMessageChoices(deps: AppDeps, auth: AuthInfo) {
  return await listQuickMessages(deps.db, await scopeOf(deps, auth));
}

/** GET /api/quick-messages: a page, `searchParam` on the shortcode. */
export async function listQuickMessagePage(
  deps: AppDeps,
  auth: AuthInfo,
  searchParam: string | undefined,
  pageNumber: number,
) {
  return await pageQuickMessages(deps.db, await scopeOf(deps, auth), searchParam, pageNumber);
}

/** GET /api/quick-messages/:id. */
export async function showQuickMessage(
  deps: AppDeps,
  auth: AuthInfo,
  id: number,
): Promise<QuickMessageView> {
  return quickMessageView(await readableQuickMessage(deps, auth, id));
}

/** GET /api/quick-messages/:id/media: the attachment, for the page and the message input. */
export async function quickMessageMedia(deps: AppDeps, auth: AuthInfo, id: number) {
  const q = await readableQuickMessage(deps, auth, id);
  if (!q.mediaPath) throw notFound("ERR_NO_MEDIA_FOUND", "Mídia não encontrada");
  return await uploadResponse(deps, auth.companyId, q.mediaPath, q.mediaName ?? "arquivo");
}

/** A quick answer of the caller's company that the caller may read; else 404. */
export async function readableQuickMessage(
  deps: AppDeps,
  auth: AuthInfo,
  id: number,
): Promise<QuickMessage> {
  const q = await findQuickMessage(deps.db, auth.companyId, id);
  if (!q || !await readable(deps, auth, q)) {
    throw notFound("ERR_NO_QUICK_MESSAGE_FOUND", "Quick message not found");
  }
  return q;
}

/** POST /api/quick-messages: the caller's own answer (general when `geral`). */
export async function createQuickMessage(
  deps: AppDeps,
  auth: AuthInfo,
  input: Required<Pick<QuickMessageInput, "shortcode">> & QuickMessageInput,
): Promise<QuickMessageView> {
  await checkQueue(deps, auth, input.queueId);
  const now = deps.clock.now().toISOString();
  const row = await insertQuickMessage(deps.db, {
    companyId: auth.companyId,
    userId: auth.userId,
    shortcode: input.shortcode,
    message: input.message ?? "",
    geral: input.geral ? 1 : 0,
    queueId: input.queueId ?? null,
    mediaPath: null,
    mediaName: null,
    createdAt: now,
    updatedAt: now,
  });
  const view = quickMessageView(row);
  publishChange(deps, view);
  return view;
}

async function change(
  deps: AppDeps,
  auth: AuthInfo,
  current: QuickMessage,
  patch: Parameters<typeof updateQuickMessage>[3],
): Promise<QuickMessageView> {
  const row = await updateQuickMessage(deps.db, auth.companyId, current.id, {
    ...patch,
    updatedAt: deps.clock.now().toISOString(),
  });
  if (!row) throw notFound("ERR_NO_QUICK_MESSAGE_FOUND", "Quick message not found");
  const view = quickMessageView(row);
  publishChange(deps, view, current);
  return view;
}

/** PUT /api/quick-messages/:id (owner or admin). */
export async function changeQuickMessage(
  deps: AppDeps,
  auth: AuthInfo,
  id: number,
  input: QuickMessageInput,
): Promise<QuickMessageView> {
  const current = await readableQuickMessage(deps, auth, id);
  assertCanChange(auth, current);
  await checkQueue(deps, auth, input.queueId);
  return await change(deps, auth, current, {
    shortcode: input.shortcode,
    message: input.message,
    geral: input.geral === undefined ? undefined : input.geral ? 1 : 0,
    queueId: input.queueId,
  });
}

/** DELETE /api/quick-messages/:id (owner or admin); its file goes too. */
export async function removeQuickMessage(deps: AppDeps, auth: AuthInfo, id: number) {
  const current = await readableQuickMessage(deps, auth, id);
  assertCanChange(auth, current);
  await deleteQuickMessage(deps.db, auth.companyId, current.id);
  await removeUpload(deps, auth.companyId, current.mediaPath);
  deps.events.emit("quickMessage.deleted", {
    companyId: auth.companyId,
    id: current.id,
    shared: current.geral === 1 && current.queueId === null,
    userId: current.userId,
  });
}

/** Whaticket's `typeArch` names a folder there; here it is only checked, never used in a path. */
const TYPE_ARCH = /^[A-Za-z]{1,40}$/;

/**
 * The answer's display name (seeds/001 section 2: spaces become underscores); the stored name is
 * random (server/media/store.ts), never the client's.
 */
export function attachmentName(filename: string): string {
  return cleanFilename(filename).replace(/\s+/g, "_");
}

/**
 * POST /api/quick-messages/:id/media-upload: the file (the message input's allow-list, at most
 * MEDIA_MAX_BYTES) replaces the answer's previous one, which is removed after the row changed.
 */
export async function attachQuickMessageMedia(
  deps: AppDeps,
  auth: AuthInfo,
  id: number,
  file: File,
  typeArch: unknown,
): Promise<QuickMessageView> {
  if (typeArch !== undefined && (typeof typeArch !== "string" || !TYPE_ARCH.test(typeArch))) {
    throw new AppError(400, "ERR_VALIDATION", "typeArch inválido", {
      fields: { typeArch: ["Invalid"] },
    });
  }
  const current = await readableQuickMessage(deps, auth, id);
  assertCanChange(auth, current);
  const mimetype = checkAttachment(file, deps.config.mediaMaxBytes);
  const name = attachmentName(file.name);
  const stored = await storeUpload(
    deps,
    auth.companyId,
    new File([file], name, { type: mimetype }),
  );
  const view = await change(deps, auth, current, { mediaPath: stored.path, mediaName: name });
  await removeUpload(deps, auth.companyId, current.mediaPath);
  return view;
}

/** DELETE /api/quick-messages/:id/media-upload. */
export async function detachQuickMessageMedia(
  deps: AppDeps,
  auth: AuthInfo,
  id: number,
): Promise<QuickMessageView> {
  const current = await readableQuickMessage(deps, auth, id);
  assertCanChange(auth, current);
  const view = await change(deps, auth, current, { mediaPath: null, mediaName: null });
  await removeUpload(deps, auth.companyId, current.mediaPath);
  return view;
}
