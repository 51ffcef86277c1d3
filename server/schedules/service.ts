import type { Schedule } from "../../db/schema.ts";
import type { AppDeps, AuthInfo } from "../context.ts";
import { AppError, badRequest, notFound } from "../errors.ts";
import { isAllowed, recordAllowed } from "../auth/policy.ts";
import { scheduleNeeds } from "../../contract/record_policy.ts";
import { removeUpload, storeUpload, uploadResponse } from "../media/uploads.ts";
import { companyHas, findTicket } from "../tickets/repository.ts";
import {
  deleteSchedule,
  findSchedule,
  findScheduleView,
  insertSchedule,
  pageSchedules,
  type ScheduleView,
  updateSchedule,
} from "./repository.ts";
import { defaultConnection } from "./sending_repository.ts";
import { assertSendable } from "../messages/template_rule.ts";
import { parseSendTemplate, type SendTemplate } from "../../contract/channels.ts";

export type ScheduleInput = {
  body?: string;
  contactId?: number;
  sendAt?: string;
  ticketId?: number | null;
  /** Issue 45: an approved template instead of the body (Cloud API); null for none. */
  template?: SendTemplate | null;
};

/**
 * The job sends through the company's default connection: one with the 24-hour window takes
 * only an approved template, so a free-form schedule is refused when saved (template_rule.ts).
 */
async function assertChannelAllows(
  deps: AppDeps,
  companyId: number,
  s: { template: SendTemplate | null; media: boolean },
) {
  const connection = await defaultConnection(deps.db, companyId);
  await assertSendable(deps, companyId, connection?.id ?? null, {
    freeForm: s.media,
    template: s.template,
  });
}

/**
 * How far in the past a new send time may be: the dialog's clock and the server's differ a
 * little, and "now" typed in the form is a minute old when it arrives.
 */
export const PAST_TOLERANCE_MS = 60_000;

const managesAny = (auth: AuthInfo) => isAllowed(auth, "schedule:manage-any");

/** A schedule is seen by its author and the admins, over HTTP and over the socket alike. */
async function publishView(
  deps: AppDeps,
  auth: AuthInfo,
  s: Schedule,
  action: "create" | "update",
) {
  const schedule = (await findScheduleView(deps.db, auth.companyId, s.id))!;
  deps.events.emit("schedule.saved", {
    companyId: auth.companyId,
    record: schedule,
    created: action === "create",
  });
  return schedule;
}

/** GET /api/schedules: a page; admins see the company's, users their own. */
export async function listSchedules(
  deps: AppDeps,
  auth: AuthInfo,
  filters: { searchParam?: string; contactId?: number; pageNumber: number },
) {
  const scope = { companyId: auth.companyId, userId: auth.userId, all: managesAny(auth) };
  return await pageSchedules(deps.db, scope, filters);
}

/** GET /api/schedules/:id. */
export async function showSchedule(deps: AppDeps, auth: AuthInfo, id: number) {
  const s = await readableSchedule(deps, auth, id);
  return await findScheduleView(deps.db, auth.companyId, s.id);
}

/** GET /api/schedules/:id/media: the schedule's image. */
export async function scheduleMedia(deps: AppDeps, auth: AuthInfo, id: number) {
  const current = await readableSchedule(deps, auth, id);
  if (!current.mediaPath) throw notFound("ERR_NO_MEDIA_FOUND", "Mídia não encontrada");
  return await uploadResponse(
    deps,
    auth.companyId,
    current.mediaPath,
    current.mediaName ?? "imagem.jpg",
  );
}

/** A schedule of the caller's company they may see: admins all, users their own; else 404. */
export async function readableSchedule(
  deps: AppDeps,
  auth: AuthInfo,
  id: number,
): Promise<Schedule> {
  const s = await findSchedule(deps.db, auth.companyId, id);
  if (!s || !recordAllowed(auth, scheduleNeeds(auth, s))) {
    throw notFound("ERR_NO_SCHEDULE_FOUND", "Schedule not found");
  }
  return s;
}

/** Contact and ticket of a body belong to the caller's company (404 otherwise), and match. */
async function checkRefs(deps: AppDeps, auth: AuthInfo, input: ScheduleInput) {
  if (
    input.contactId !== undefined &&
    !await companyHas(deps.db, "contacts", auth.companyId, input.contactId)
  ) {
    throw notFound("ERR_NO_CONTACT_FOUND", "Contact not found");
  }
  if (input.ticketId != null) {
    const ticket = await findTicket(deps.db, auth.companyId, input.ticketId);
    if (!ticket) throw notFound("ERR_NO_TICKET_FOUND", "Ticket not found");
    if (input.contactId !== undefined && ticket.contactId !== input.contactId) {
      throw badRequest("ERR_VALIDATION", "ticketId: not the contact's ticket", {
        ticketId: ["not the contact's ticket"],
      });
    }
  }
}

/** A send time already past is refused (issue 10 'Bad input'): nothing would wait for it. */
function checkFuture(deps: AppDeps, sendAt: string | undefined) {
  if (sendAt === undefined) return;
  if (Date.parse(sendAt) < deps.clock.now().getTime() - PAST_TOLERANCE_MS) {
    throw new AppError(400, "ERR_SCHEDULE_IN_PAST", "A data de envio já passou", {
      fields: { sendAt: ["A data de envio já passou"] },
    });
  }
}

/** Sent (or being sent) schedules no longer change (seeds/001 section 4). */
function assertChangeable(s: Schedule, view?: ScheduleView) {
  if (view?.status === "ERRO") return;
  if (s.status === "ENVIADA") throw badRequest("ERR_INVALID_TRANSITION", "Agendamento já enviado");
  if (s.status === "AGENDADA") throw badRequest("ERR_INVALID_TRANSITION", "Agendamento em envio");
}

/** POST /api/schedules. */
export async function createSchedule(
  deps: AppDeps,
  auth: AuthInfo,
  input: Required<Pick<ScheduleInput, "body" | "contactId" | "sendAt">> & ScheduleInput,
): Promise<ScheduleView> {
  checkFuture(deps, input.sendAt);
  await checkRefs(deps, auth, input);
  await assertChannelAllows(deps, auth.companyId, {
    template: input.template ?? null,
    media: false,
  });
  const now = deps.clock.now().toISOString();
  const id = await insertSchedule(deps.db, {
    companyId: auth.companyId,
    contactId: input.contactId,
    ticketId: input.ticketId ?? null,
    userId: auth.userId,
    body: input.body,
    sendAt: input.sendAt,
    sentAt: null,
    status: "PENDENTE",
    mediaPath: null,
    mediaName: null,
    errorCode: null,
    messageId: null,
    template: input.template ? JSON.stringify(input.template) : null,
    createdAt: now,
    updatedAt: now,
  });
  return await publishView(
    deps,
    auth,
    (await findSchedule(deps.db, auth.companyId, id))!,
    "create",
  );
}

/** PUT /api/schedules/:id: a pending or failed schedule; a failed one is tried again. */
export async function changeSchedule(
  deps: AppDeps,
  auth: AuthInfo,
  id: number,
  input: ScheduleInput,
): Promise<ScheduleView> {
  const current = await readableSchedule(deps, auth, id);
  assertChangeable(current, await findScheduleView(deps.db, auth.companyId, id));
  checkFuture(deps, input.sendAt);
  await checkRefs(deps, auth, {
    contactId: input.contactId ?? current.contactId,
    ticketId: input.ticketId,
  });
  const template = input.template !== undefined
    ? input.template
    : parseSendTemplate(current.template);
  await assertChannelAllows(deps, auth.companyId, {
    template,
    media: current.mediaPath !== null,
  });
  await updateSchedule(deps.db, auth.companyId, current.id, {
    body: input.body,
    template: input.template === undefined
      ? undefined
      : input.template
      ? JSON.stringify(input.template)
      : null,
    contactId: input.contactId,
    sendAt: input.sendAt,
    ticketId: input.ticketId,
    status: "PENDENTE",
    errorCode: null,
    messageId: null,
    sentAt: null,
    updatedAt: deps.clock.now().toISOString(),
  });
  return await publishView(deps, auth, current, "update");
}

/**
 * POST /api/schedules/:id/retry: a failed schedule waits again, for the job's next tick (its send
 * time, if still ahead, else at once). Anything but a failed one is 400 ERR_INVALID_TRANSITION.
 */
export async function retrySchedule(
  deps: AppDeps,
  auth: AuthInfo,
  id: number,
): Promise<ScheduleView> {
  const current = await readableSchedule(deps, auth, id);
  const view = await findScheduleView(deps.db, auth.companyId, id);
  if (view?.status !== "ERRO") {
    throw badRequest("ERR_INVALID_TRANSITION", "Só um agendamento com erro pode ser reenviado");
  }
  await updateSchedule(deps.db, auth.companyId, current.id, {
    status: "PENDENTE",
    errorCode: null,
    messageId: null,
    sentAt: null,
    updatedAt: deps.clock.now().toISOString(),
  });
  return await publishView(deps, auth, current, "update");
}

/** seeds/001 section 2: the schedule's attachment is a png, jpg or jpeg picture. */
const PICTURE = /\.(png|jpe?g)$/i;
const PICTURE_TYPES = new Set(["image/png", "image/jpeg"]);

/** POST /api/schedules/:id/media-upload: replaces the picture (the old file is removed). */
export async function attachScheduleMedia(
  deps: AppDeps,
  auth: AuthInfo,
  id: number,
  file: File,
): Promise<ScheduleView> {
  const current = await readableSchedule(deps, auth, id);
  assertChangeable(current, await findScheduleView(deps.db, auth.companyId, id));
  if (!PICTURE.test(file.name) || (file.type && !PICTURE_TYPES.has(file.type))) {
    throw new AppError(400, "ERR_INVALID_MEDIA", "Envie uma imagem png, jpg ou jpeg");
  }
  await assertChannelAllows(deps, auth.companyId, {
    template: parseSendTemplate(current.template),
    media: true,
  });
  const stored = await storeUpload(deps, auth.companyId, file);
  await updateSchedule(deps.db, auth.companyId, current.id, {
    mediaPath: stored.path,
    mediaName: stored.filename,
    updatedAt: deps.clock.now().toISOString(),
  });
  await removeUpload(deps, auth.companyId, current.mediaPath);
  return await publishView(deps, auth, current, "update");
}

/** DELETE /api/schedules/:id/media-upload. */
export async function detachScheduleMedia(
  deps: AppDeps,
  auth: AuthInfo,
  id: number,
): Promise<ScheduleView> {
  const current = await readableSchedule(deps, auth, id);
  await updateSchedule(deps.db, auth.companyId, current.id, {
    mediaPath: null,
    mediaName: null,
    updatedAt: deps.clock.now().toISOString(),
  });
  await removeUpload(deps, auth.companyId, current.mediaPath);
  return await publishView(deps, auth, current, "update");
}

/** DELETE /api/schedules/:id (its picture goes too). */
export async function removeSchedule(deps: AppDeps, auth: AuthInfo, id: number) {
  const current = await readableSchedule(deps, auth, id);
  await deleteSchedule(deps.db, auth.companyId, current.id);
  await removeUpload(deps, auth.companyId, current.mediaPath);
  deps.events.emit("schedule.deleted", {
    companyId: auth.companyId,
    id: current.id,
    userId: current.userId,
  });
}
