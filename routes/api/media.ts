import { Hono } from "hono";
import { requireAuth } from "../../server/auth/middleware.ts";
import { type AppDeps, type AppEnv, authOf } from "../../server/context.ts";
import { notFound } from "../../server/errors.ts";
import { validate } from "../../server/http/validate.ts";
import { idParam } from "../../server/http/params.ts";
import { openMedia } from "../../server/media/store.ts";
import { canViewTicket } from "../../server/realtime/socket.ts";
import { fileResponse } from "../../server/media/uploads.ts";

/**
 * GET /api/messages/:id/media: a message's media file, the only way media leaves the server.
 * Bearer token; the message must be in the caller's company and in a ticket the caller may see
 * (otherwise 404 ERR_NO_MESSAGE_FOUND, exactly like a missing one).
 */
export function mediaRoutes(deps: AppDeps) {
  const app = new Hono<AppEnv>();

  app.get("/:id/media", requireAuth(deps), validate("param", idParam), async (c) => {
    const auth = authOf(c);
    const message = await deps.db.selectFrom("messages")
      .select(["id", "ticketId", "mediaUrl", "mediaMimetype", "mediaName"])
      .where("companyId", "=", auth.companyId).where("id", "=", c.req.valid("param").id)
      .executeTakeFirst();
    if (!message?.mediaUrl || !(await canViewTicket(deps, auth, message.ticketId))) {
      throw notFound("ERR_NO_MESSAGE_FOUND", "Mensagem não encontrada");
    }
    const opened = await openMedia(deps.config, auth.companyId, message.mediaUrl);
    if (!opened) throw notFound("ERR_NO_MEDIA_FOUND", "Arquivo não encontrado");
    return fileResponse(opened, message.mediaMimetype, message.mediaName ?? "file");
  });

  return app;
}
