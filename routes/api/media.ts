import { Hono } from "hono";
import { requireAuth } from "../../server/auth/middleware.ts";
import { type AppDeps, type AppEnv, authOf } from "../../server/context.ts";
import { validate } from "../../server/http/validate.ts";
import { idParam } from "../../server/http/params.ts";
import { openMessageMedia } from "../../server/messages/media_service.ts";

/** Types a browser may show inline; anything else downloads (never rendered as a page). */
const INLINE = /^(image\/(png|jpeg|gif|webp)|audio\/|video\/|application\/pdf$)/;

/**
 * GET /api/messages/:id/media: a message's media file, the only way media leaves the server.
 * Bearer token; the message must be in the caller's company and in a ticket the caller may see
 * (otherwise 404 ERR_NO_MESSAGE_FOUND, exactly like a missing one).
 */
export function mediaRoutes(deps: AppDeps) {
  const app = new Hono<AppEnv>();

  app.get("/:id/media", requireAuth(deps), validate("param", idParam), async (c) => {
    const media = await openMessageMedia(deps, authOf(c), c.req.valid("param").id);
    const name = encodeURIComponent(media.name);
    const disposition = INLINE.test(media.mimetype) ? "inline" : "attachment";
    return c.body(media.file.readable, 200, {
      "content-type": media.mimetype,
      "content-length": String(media.size),
      "content-disposition": `${disposition}; filename*=UTF-8''${name}`,
      "x-content-type-options": "nosniff",
      "content-security-policy": "default-src 'none'; sandbox",
      "cache-control": "private, max-age=3600",
    });
  });

  return app;
}
