import { Hono } from "hono";
import { z } from "zod";
import { requireAuth } from "../../server/auth/middleware.ts";
import { type AppDeps, type AppEnv, authOf } from "../../server/context.ts";
import { flag, pageNumber } from "../../server/http/params.ts";
import { validate } from "../../server/http/validate.ts";
import { listMessages } from "../../server/messages/service.ts";
import { viewerOf } from "../../server/tickets/access.ts";

const ticketParam = z.object({ ticketId: z.coerce.number().int().positive() });

/** /api/messages (seeds/000 section 7). */
export function messageRoutes(deps: AppDeps) {
  const app = new Hono<AppEnv>();
  // Per route, not app.use("*"): routes/api/media.ts shares the /api/messages prefix.
  const signedIn = requireAuth(deps);

  app.get(
    "/:ticketId{[0-9]+}",
    signedIn,
    validate("param", ticketParam),
    validate("query", z.object({ pageNumber, peek: flag })),
    async (c) => {
      const viewer = await viewerOf(deps.db, authOf(c));
      const { pageNumber, peek } = c.req.valid("query");
      return c.json(
        await listMessages(deps, viewer, c.req.valid("param").ticketId, pageNumber, peek),
      );
    },
  );

  return app;
}
