import { Hono } from "hono";
import { z } from "zod";
import { allow, requireAuth } from "../../server/auth/middleware.ts";
import { assertAllowed } from "../../server/auth/policy.ts";
import { type AppDeps, type AppEnv, authOf } from "../../server/context.ts";
import { badRequest, notFound } from "../../server/errors.ts";
import { idParam } from "../../server/http/params.ts";
import { validate } from "../../server/http/validate.ts";
import {
  deleteNote,
  findNote,
  findNoteView,
  insertNote,
  listNotes,
} from "../../server/notes/repository.ts";
import { viewerOf } from "../../server/tickets/access.ts";
import { readableTicket } from "../../server/tickets/service.ts";

const id = z.coerce.number().int().positive();

/** /api/ticket-notes (seeds/000 sections 3, 5, 7): notes anyone who can read the ticket sees. */
export function ticketNoteRoutes(deps: AppDeps) {
  const app = new Hono<AppEnv>();
  app.use("*", requireAuth(deps), allow("ticket:work"));

  app.get(
    "/list",
    validate("query", z.object({ ticketId: id, contactId: id })),
    async (c) => {
      const viewer = await viewerOf(deps.db, authOf(c));
      const { ticketId, contactId } = c.req.valid("query");
      await readableTicket(deps.db, viewer, { id: ticketId });
      return c.json(await listNotes(deps.db, viewer.companyId, ticketId, contactId));
    },
  );

  app.post(
    "/",
    validate(
      "json",
      z.object({
        // seeds/000 section 5: required, at least 2 characters.
        note: z.string().trim().min(2, "Too Short!").max(5000),
        ticketId: z.number().int().positive(),
        contactId: z.number().int().positive(),
      }),
    ),
    async (c) => {
      const viewer = await viewerOf(deps.db, authOf(c));
      const input = c.req.valid("json");
      const ticket = await readableTicket(deps.db, viewer, { id: input.ticketId });
      if (ticket.contactId !== input.contactId) {
        throw badRequest("ERR_VALIDATION", "contactId: not the ticket's contact", {
          contactId: ["not the ticket's contact"],
        });
      }
      const now = deps.clock.now().toISOString();
      const noteId = await insertNote(deps.db, {
        companyId: viewer.companyId,
        ticketId: ticket.id,
        contactId: ticket.contactId,
        userId: viewer.userId,
        note: input.note,
        createdAt: now,
        updatedAt: now,
      });
      return c.json(await findNoteView(deps.db, viewer.companyId, noteId), 201);
    },
  );

  app.delete("/:id{[0-9]+}", validate("param", idParam), async (c) => {
    const viewer = await viewerOf(deps.db, authOf(c));
    const note = await findNote(deps.db, viewer.companyId, c.req.valid("param").id);
    if (!note) throw notFound("ERR_NO_NOTE_FOUND", "Note not found");
    await readableTicket(deps.db, viewer, { id: note.ticketId });
    // The author or an admin removes a note; other attendants only read it.
    if (note.userId !== viewer.userId) assertAllowed(viewer, "ticket-note:delete-any");
    await deleteNote(deps.db, viewer.companyId, note.id);
    return c.body(null, 204);
  });

  return app;
}
