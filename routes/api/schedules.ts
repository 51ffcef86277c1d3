import { Hono } from "hono";
import { z } from "zod";
import { requireAuth, requirePlan } from "../../server/auth/middleware.ts";
import { type AppDeps, type AppEnv, type AuthInfo, authOf } from "../../server/context.ts";
import { badRequest, notFound } from "../../server/errors.ts";
import { idParam, pageNumber } from "../../server/http/params.ts";
import { validate } from "../../server/http/validate.ts";
import {
  deleteSchedule,
  findSchedule,
  findScheduleView,
  insertSchedule,
  pageSchedules,
  updateSchedule,
} from "../../server/schedules/repository.ts";
import type { Schedule } from "../../db/schema.ts";
import { companyHas, findTicket } from "../../server/tickets/repository.ts";
import {
  fileField,
  removeUpload,
  storeUpload,
  uploadResponse,
} from "../../server/media/uploads.ts";
import { AppError } from "../../server/errors.ts";
import { LIMITS } from "../../islands/lib/validation.ts";
import { ADMIN_TEXTS, limitedText } from "../../server/http/fields.ts";

// seeds/000 section 5 and seeds/001 section 5.
const body = limitedText(LIMITS.scheduleBody, { ...ADMIN_TEXTS, required: ADMIN_TEXTS.tooShort });
const contactId = z.number({ error: "Obrigatório" }).int().positive();
const sendAt = z.iso.datetime({ offset: true, error: "Obrigatório" }).transform((v) =>
  new Date(v).toISOString()
);

const isAdmin = (auth: AuthInfo) => auth.profile === "admin";

/** /api/schedules (seeds/001 sections 2-7), behind the plan's useSchedules flag. */
export function scheduleRoutes(deps: AppDeps) {
  const app = new Hono<AppEnv>();
  app.use("*", requireAuth(deps), requirePlan("useSchedules"));

  // A schedule is seen by its author and the admins, over HTTP and over the socket alike.
  const publish = (auth: AuthInfo, userId: number | null, data: Record<string, unknown>) =>
    deps.hub.publish(auth.companyId, "schedule", data, [
      { kind: "admins" },
      ...(userId !== null ? [{ kind: "user" as const, userId }] : []),
    ]);

  /** A schedule of the caller's company they may see: admins all, users their own; else 404. */
  const load = async (auth: AuthInfo, id: number): Promise<Schedule> => {
    const s = await findSchedule(deps.db, auth.companyId, id);
    if (!s || (!isAdmin(auth) && s.userId !== auth.userId)) {
      throw notFound("ERR_NO_SCHEDULE_FOUND", "Schedule not found");
    }
    return s;
  };

  const checkRefs = async (
    auth: AuthInfo,
    input: { contactId?: number; ticketId?: number | null },
  ) => {
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
  };

  app.get(
    "/",
    validate(
      "query",
      z.object({
        searchParam: z.string().max(100).optional(),
        contactId: z.coerce.number().int().positive().optional(),
        pageNumber,
      }),
    ),
    async (c) => {
      const auth = authOf(c);
      const scope = { companyId: auth.companyId, userId: auth.userId, all: isAdmin(auth) };
      return c.json(await pageSchedules(deps.db, scope, c.req.valid("query")));
    },
  );

  app.get("/:id{[0-9]+}", validate("param", idParam), async (c) => {
    const auth = authOf(c);
    const s = await load(auth, c.req.valid("param").id);
    return c.json(await findScheduleView(deps.db, auth.companyId, s.id));
  });

  app.post(
    "/",
    validate(
      "json",
      z.object({
        body,
        contactId,
        sendAt,
        ticketId: z.number().int().positive().nullable().optional(),
      }),
    ),
    async (c) => {
      const auth = authOf(c);
      const input = c.req.valid("json");
      await checkRefs(auth, input);
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
        createdAt: now,
        updatedAt: now,
      });
      const schedule = await findScheduleView(deps.db, auth.companyId, id);
      publish(auth, auth.userId, { action: "create", schedule });
      return c.json(schedule, 201);
    },
  );

  app.put(
    "/:id{[0-9]+}",
    validate("param", idParam),
    validate(
      "json",
      z.object({
        body: body.optional(),
        contactId: contactId.optional(),
        sendAt: sendAt.optional(),
        ticketId: z.number().int().positive().nullable().optional(),
      }),
    ),
    async (c) => {
      const auth = authOf(c);
      const current = await load(auth, c.req.valid("param").id);
      // seeds/001 section 4: once sent, a schedule no longer changes.
      if (current.status === "ENVIADA") {
        throw badRequest("ERR_INVALID_TRANSITION", "Agendamento já enviado");
      }
      if (current.status === "AGENDADA") {
        throw badRequest("ERR_INVALID_TRANSITION", "Agendamento em envio");
      }
      const input = c.req.valid("json");
      await checkRefs(auth, {
        contactId: input.contactId ?? current.contactId,
        ticketId: input.ticketId,
      });
      await updateSchedule(deps.db, auth.companyId, current.id, {
        body: input.body,
        contactId: input.contactId,
        sendAt: input.sendAt,
        ticketId: input.ticketId,
        // An edited schedule that had failed is tried again.
        status: "PENDENTE",
        updatedAt: deps.clock.now().toISOString(),
      });
      const schedule = await findScheduleView(deps.db, auth.companyId, current.id);
      publish(auth, current.userId, { action: "update", schedule });
      return c.json(schedule);
    },
  );

  /** seeds/001 section 2: the schedule's attachment is a png, jpg or jpeg picture. */
  const PICTURE = /\.(png|jpe?g)$/i;
  const PICTURE_TYPES = new Set(["image/png", "image/jpeg"]);

  app.post("/:id{[0-9]+}/media-upload", validate("param", idParam), async (c) => {
    const auth = authOf(c);
    const current = await load(auth, c.req.valid("param").id);
    if (current.status === "ENVIADA" || current.status === "AGENDADA") {
      throw badRequest("ERR_INVALID_TRANSITION", "Agendamento já enviado");
    }
    const file = fileField(await c.req.parseBody());
    if (!PICTURE.test(file.name) || (file.type && !PICTURE_TYPES.has(file.type))) {
      throw new AppError(400, "ERR_INVALID_MEDIA", "Envie uma imagem png, jpg ou jpeg");
    }
    const stored = await storeUpload(deps, auth.companyId, file);
    await updateSchedule(deps.db, auth.companyId, current.id, {
      mediaPath: stored.path,
      mediaName: stored.filename,
      updatedAt: deps.clock.now().toISOString(),
    });
    await removeUpload(deps, auth.companyId, current.mediaPath);
    const schedule = await findScheduleView(deps.db, auth.companyId, current.id);
    publish(auth, current.userId, { action: "update", schedule });
    return c.json(schedule);
  });

  app.delete("/:id{[0-9]+}/media-upload", validate("param", idParam), async (c) => {
    const auth = authOf(c);
    const current = await load(auth, c.req.valid("param").id);
    await updateSchedule(deps.db, auth.companyId, current.id, {
      mediaPath: null,
      mediaName: null,
      updatedAt: deps.clock.now().toISOString(),
    });
    await removeUpload(deps, auth.companyId, current.mediaPath);
    const schedule = await findScheduleView(deps.db, auth.companyId, current.id);
    publish(auth, current.userId, { action: "update", schedule });
    return c.json(schedule);
  });

  app.get("/:id{[0-9]+}/media", validate("param", idParam), async (c) => {
    const auth = authOf(c);
    const current = await load(auth, c.req.valid("param").id);
    if (!current.mediaPath) throw notFound("ERR_NO_MEDIA_FOUND", "Mídia não encontrada");
    return await uploadResponse(
      deps,
      auth.companyId,
      current.mediaPath,
      current.mediaName ?? "imagem.jpg",
    );
  });

  app.delete("/:id{[0-9]+}", validate("param", idParam), async (c) => {
    const auth = authOf(c);
    const current = await load(auth, c.req.valid("param").id);
    await deleteSchedule(deps.db, auth.companyId, current.id);
    await removeUpload(deps, auth.companyId, current.mediaPath);
    publish(auth, current.userId, { action: "delete", scheduleId: current.id });
    return c.body(null, 204);
  });

  return app;
}
