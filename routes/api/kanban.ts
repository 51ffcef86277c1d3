import { Hono } from "hono";
import { z } from "zod";
import { allow, requireAuth, requirePlan } from "../../server/auth/middleware.ts";
import { type AppDeps, type AppEnv, authOf } from "../../server/context.ts";
import { idList, pageNumber } from "../../server/http/params.ts";
import { validate } from "../../server/http/validate.ts";
import { addToLane, boardLane, moveToLane, removeFromLanes } from "../../server/kanban/service.ts";

const id = z.coerce.number().int().positive();
const ticketParam = z.object({ ticketId: id });

/**
 * GET /api/ticket/kanban (seeds/001 section 7), behind the plan's useKanban flag:
 * `queueIds` (JSON array), `lane` ("open" or a kanban tag's id; none: every lane) and
 * `pageNumber` -> `{ tickets, count, hasMore }`, 20 per page, so a lane stays fast however many
 * tickets are open.
 */
export function kanbanRoutes(deps: AppDeps) {
  const app = new Hono<AppEnv>();
  app.use("*", requireAuth(deps), requirePlan("useKanban"), allow("ticket:work"));
  app.get(
    "/kanban",
    validate(
      "query",
      z.object({
        queueIds: idList,
        lane: z.union([z.literal("open"), id]).optional(),
        pageNumber,
      }),
    ),
    async (c) => {
      const { queueIds, lane, pageNumber } = c.req.valid("query");
      return c.json(await boardLane(deps, authOf(c), lane, queueIds, pageNumber));
    },
  );
  return app;
}

/**
 * /api/ticket-tags (seeds/001 section 7), behind useKanban: the seeds' two calls of a move
 * (DELETE then PUT) stay for compatibility; the board moves with POST /:ticketId/move, one
 * transaction. Each answers the ticket.
 */
export function ticketTagRoutes(deps: AppDeps) {
  const app = new Hono<AppEnv>();
  app.use("*", requireAuth(deps), requirePlan("useKanban"), allow("ticket:work"));

  app.delete("/:ticketId{[0-9]+}", validate("param", ticketParam), async (c) => {
    return c.json(await removeFromLanes(deps, authOf(c), c.req.valid("param").ticketId));
  });

  app.put(
    "/:ticketId{[0-9]+}/:tagId{[0-9]+}",
    validate("param", z.object({ ticketId: id, tagId: id })),
    async (c) => {
      const { ticketId, tagId } = c.req.valid("param");
      return c.json(await addToLane(deps, authOf(c), ticketId, tagId));
    },
  );

  app.post(
    "/:ticketId{[0-9]+}/move",
    validate("param", ticketParam),
    validate("json", z.object({ tagId: id.nullable() })),
    async (c) => {
      const { tagId } = c.req.valid("json");
      return c.json(await moveToLane(deps, authOf(c), c.req.valid("param").ticketId, tagId));
    },
  );

  return app;
}
