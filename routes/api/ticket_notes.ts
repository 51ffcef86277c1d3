import { Hono } from "hono";
import { z } from "zod";
import { allow, requireAuth } from "../../server/auth/middleware.ts";
import { type AppDeps, type AppEnv, authOf } from "../../server/context.ts";
import { idParam } from "../../server/http/params.ts";
import { validate } from "../../server/http/validate.ts";
import { addNote, removeNote, ticketNotes } from "../../server/notes/service.ts";

const id = z.coerce.number().int().positive();

/** /api/ticket-notes (seeds/000 sections 3, 5, 7): notes anyone who can read the ticket sees. */
export function ticketNoteRoutes(deps: AppDeps) {
  const app = new Hono<AppEnv>();
  app.use("*", requireAuth(deps), allow("ticket:work"));

  app.get(
    "/list",
    validate("query", z.object({ ticketId: id, contactId: id })),
    async (c) => {
      const { ticketId, contactId } = c.req.valid("query");
      return c.json(await ticketNotes(deps, authOf(c), ticketId, contactId));
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
    async (c) => c.json(await addNote(deps, authOf(c), c.req.valid("json")), 201),
  );

  app.delete("/:id{[0-9]+}", validate("param", idParam), async (c) => {
    await removeNote(deps, authOf(c), c.req.valid("param").id);
    return c.body(null, 204);
  });

  return app;
}
