import { Hono } from "hono";
import { z } from "zod";
import { requireAuth } from "../../server/auth/middleware.ts";
import { type AppDeps, type AppEnv, authOf } from "../../server/context.ts";
import { day, flag, idList, idParam, pageNumber } from "../../server/http/params.ts";
import { validate } from "../../server/http/validate.ts";
import { viewerOf } from "../../server/tickets/access.ts";
import { listTicketIds } from "../../server/tickets/list.ts";
import {
  createTicket,
  deleteTicket,
  readableTicket,
  updateTicket,
} from "../../server/tickets/service.ts";
import { applyTicketChange } from "../../server/tickets/effects.ts";
import { loadTicketView, loadTicketViews } from "../../server/tickets/view.ts";

const status = z.enum(["pending", "open", "closed"]);
const optionalId = z.number().int().positive().nullable().optional();

const listQuery = z.object({
  searchParam: z.string().max(200).optional(),
  pageNumber,
  tags: idList,
  users: idList,
  status: status.optional(),
  date: day,
  updatedAt: day,
  showAll: flag,
  queueIds: idList,
  withUnreadMessages: flag,
});

const createBody = z.object({
  contactId: z.number().int().positive(),
  queueId: optionalId,
  whatsappId: optionalId,
  userId: optionalId,
  status: z.enum(["open", "pending"]).optional(),
});

const updateBody = z.object({
  action: z.enum(["accept", "return", "resolve", "reopen", "transfer"]).optional(),
  status: status.optional(),
  userId: optionalId,
  queueId: optionalId,
  whatsappId: optionalId,
});

/** /api/tickets (seeds/000 sections 4-7). */
export function ticketRoutes(deps: AppDeps) {
  const app = new Hono<AppEnv>();
  app.use("*", requireAuth(deps));

  app.get("/", validate("query", listQuery), async (c) => {
    const viewer = await viewerOf(deps.db, authOf(c));
    const page = await listTicketIds(deps.db, viewer, c.req.valid("query"));
    const tickets = await loadTicketViews(deps.db, viewer.companyId, page.ids);
    return c.json({ tickets, count: page.count, hasMore: page.hasMore });
  });

  app.get("/u/:uuid", validate("param", z.object({ uuid: z.string().max(64) })), async (c) => {
    const viewer = await viewerOf(deps.db, authOf(c));
    const ticket = await readableTicket(deps.db, viewer, { uuid: c.req.valid("param").uuid });
    return c.json(await loadTicketView(deps.db, viewer.companyId, ticket.id));
  });

  app.get("/:id{[0-9]+}", validate("param", idParam), async (c) => {
    const viewer = await viewerOf(deps.db, authOf(c));
    const ticket = await readableTicket(deps.db, viewer, { id: c.req.valid("param").id });
    return c.json(await loadTicketView(deps.db, viewer.companyId, ticket.id));
  });

  app.post("/", validate("json", createBody), async (c) => {
    const auth = authOf(c);
    const viewer = await viewerOf(deps.db, auth);
    const ticket = await createTicket(deps, viewer, auth.user.whatsappId, c.req.valid("json"));
    deps.events.emit("ticket.created", { ticket });
    return c.json(ticket, 201);
  });

  app.put("/:id{[0-9]+}", validate("param", idParam), validate("json", updateBody), async (c) => {
    const auth = authOf(c);
    const viewer = await viewerOf(deps.db, auth);
    const change = await updateTicket(deps, viewer, c.req.valid("param").id, c.req.valid("json"));
    return c.json(await applyTicketChange(deps, change, auth.userId));
  });

  app.delete("/:id{[0-9]+}", validate("param", idParam), async (c) => {
    const viewer = await viewerOf(deps.db, authOf(c));
    const id = c.req.valid("param").id;
    const before = await deleteTicket(deps, viewer, id);
    deps.events.emit("ticket.deleted", { companyId: viewer.companyId, ticketId: id, before });
    return c.body(null, 204);
  });

  return app;
}
