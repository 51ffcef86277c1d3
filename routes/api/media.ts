import { Hono } from "hono";
import { allow, requireAuth } from "../../server/auth/middleware.ts";
import { type AppDeps, type AppEnv, authOf } from "../../server/context.ts";
import { validate } from "../../server/http/validate.ts";
import { idParam } from "../../server/http/params.ts";
import { fileResponse } from "../../server/media/uploads.ts";
import { openMessageMedia } from "../../server/messages/media_service.ts";

/**
 * GET /api/messages/:id/media: a message's media file, the only way media leaves the server.
 * Bearer token; the message must be in the caller's company and in a ticket the caller may see
 * (otherwise 404 ERR_NO_MESSAGE_FOUND, exactly like a missing one).
 */
export function mediaRoutes(deps: AppDeps) {
  const app = new Hono<AppEnv>();

  app.get(
    "/:id/media",
    requireAuth(deps),
    allow("ticket:work"),
    validate("param", idParam),
    async (c) => {
      const media = await openMessageMedia(deps, authOf(c), c.req.valid("param").id);
      return fileResponse(media, media.mimetype, media.name);
    },
  );

  return app;
}
