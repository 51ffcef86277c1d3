import { Hono } from "hono";
import { z } from "zod";
import { allow, requireAuth } from "../../server/auth/middleware.ts";
import { type AppDeps, type AppEnv, authOf } from "../../server/context.ts";
import { day, flag, idList, idParam, pageNumber } from "../../server/http/params.ts";
import { validate } from "../../server/http/validate.ts";
import {
  createTicket,
  deleteTicket,
  listTickets,
  showTicket,
  updateTicket,
} from "../../server/tickets/service.ts";
import { pinTicket, unpinTicket } from "../../server/tickets/pins.ts";
import { closeTakenBackNotices, takenBackNotices } from "../../server/distribution/taken_back.ts";
import {
  lastTicketSummary,
  ticketSuggestions,
  ticketSummary,
} from "../../server/assist/service.ts";

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
  // Issue 26: "timeLeft" puts the tickets closest to their service-level target first.
  sort: z.enum(["updatedAt", "timeLeft"]).optional(),
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
  app.use("*", requireAuth(deps), allow("ticket:work"));

  app.get("/", validate("query", listQuery), async (c) => {
    return c.json(await listTickets(deps, authOf(c), c.req.valid("query")));
  });

  app.get("/u/:uuid", validate("param", z.object({ uuid: z.string().max(64) })), async (c) => {
    return c.json(await showTicket(deps, authOf(c), { uuid: c.req.valid("param").uuid }));
  });

  app.get("/:id{[0-9]+}", validate("param", idParam), async (c) => {
    return c.json(await showTicket(deps, authOf(c), { id: c.req.valid("param").id }));
  });

  app.post("/", validate("json", createBody), async (c) => {
    return c.json(await createTicket(deps, authOf(c), c.req.valid("json")), 201);
  });

  app.put("/:id{[0-9]+}", validate("param", idParam), validate("json", updateBody), async (c) => {
    const id = c.req.valid("param").id;
    return c.json(await updateTicket(deps, authOf(c), id, c.req.valid("json")));
  });

  // Issue 50 item 17: tickets distribution took back from the caller while they were offline.
  app.get("/taken-back", async (c) => c.json(await takenBackNotices(deps, authOf(c))));
  app.post("/taken-back/seen", async (c) => c.json(await closeTakenBackNotices(deps, authOf(c))));

  // Issue 28: pins are the caller's own; the answer is the ticket with `pinned: true`.
  app.post("/:id{[0-9]+}/pin", validate("param", idParam), async (c) => {
    return c.json(await pinTicket(deps, authOf(c), c.req.valid("param").id));
  });

  app.delete("/:id{[0-9]+}/pin", validate("param", idParam), async (c) => {
    await unpinTicket(deps, authOf(c), c.req.valid("param").id);
    return c.body(null, 204);
  });

  // Issue 48: the attendant's assistant (plan useAssist and the company's switches, checked by
  // the service): a summary now, the latest kept, suggested replies.
  app.post("/:id{[0-9]+}/summary", validate("param", idParam), async (c) => {
    return c.json(await ticketSummary(deps, authOf(c), c.req.valid("param").id));
  });

  app.get("/:id{[0-9]+}/summary", validate("param", idParam), async (c) => {
    return c.json(await lastTicketSummary(deps, authOf(c), c.req.valid("param").id));
  });

  app.post("/:id{[0-9]+}/suggestions", validate("param", idParam), async (c) => {
    return c.json(await ticketSuggestions(deps, authOf(c), c.req.valid("param").id));
  });

  app.delete("/:id{[0-9]+}", allow("ticket:delete"), validate("param", idParam), async (c) => {
    await deleteTicket(deps, authOf(c), c.req.valid("param").id);
    return c.body(null, 204);
  });

  return app;
}
