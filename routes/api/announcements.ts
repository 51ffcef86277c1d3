import { Hono } from "hono";
import { z } from "zod";
import { allow, requireAuth } from "../../server/auth/middleware.ts";
import { assertAllowed } from "../../server/auth/policy.ts";
import { type AppDeps, type AppEnv, authOf } from "../../server/context.ts";
import { idParam, pageNumber } from "../../server/http/params.ts";
import { validate } from "../../server/http/validate.ts";
import { ADMIN_TEXTS, limitedText } from "../../server/http/fields.ts";
import { fileField } from "../../server/media/uploads.ts";
import {
  announcementImage,
  attachAnnouncementImage,
  changeAnnouncement,
  createAnnouncement,
  detachAnnouncementImage,
  listAnnouncements,
  markRead,
  removeAnnouncement,
  showAnnouncement,
} from "../../server/announcements/service.ts";
import { LIMITS } from "../../contract/validation.ts";

// seeds/002 section 5: title and text required ('Obrigatório'); priority 1 to 3; status a flag.
const title = limitedText(LIMITS.announcementTitle, ADMIN_TEXTS);
const text = limitedText(LIMITS.announcementText, ADMIN_TEXTS);
const priority = z.coerce.number().int().min(1, "1 a 3").max(3, "1 a 3");
// Whaticket's dialog sends status as a boolean, some clients as 0/1 or "true"/"false".
const status = z.union([z.boolean(), z.literal(0), z.literal(1), z.enum(["true", "false"])])
  .transform((v) => v === true || v === 1 || v === "true");

/**
 * /api/announcements (seeds/002 sections 2.6, 6, 7). Every signed-in user reads the active ones
 * (the top bar's bell, seeds/000 section 7) and marks them read; super users alone create, change,
 * delete, attach images and see the inactive ones (`all=true`, the /announcements page).
 */
export function announcementRoutes(deps: AppDeps) {
  const app = new Hono<AppEnv>();
  app.use("*", requireAuth(deps), allow("announcement:read"));

  app.get(
    "/",
    validate(
      "query",
      z.object({
        searchParam: z.string().max(100).optional(),
        pageNumber,
        all: z.enum(["true", "false"]).optional(),
      }),
    ),
    async (c) => {
      const auth = authOf(c);
      const { searchParam, pageNumber, all } = c.req.valid("query");
      // The management list (inactive ones too) is the super users' page: refused to others.
      if (all === "true") assertAllowed(auth, "announcement:manage");
      return c.json(
        await listAnnouncements(deps, auth, {
          activeOnly: all !== "true",
          searchParam,
          pageNumber,
        }),
      );
    },
  );

  // The bell was opened: what it listed is read (announcement_reads; a repeat is harmless).
  app.post(
    "/read",
    validate("json", z.object({ ids: z.array(z.number().int().positive()).max(100) })),
    async (c) => {
      await markRead(deps, authOf(c), c.req.valid("json").ids);
      return c.body(null, 204);
    },
  );

  app.get("/:id{[0-9]+}", validate("param", idParam), async (c) => {
    return c.json(await showAnnouncement(deps, authOf(c), c.req.valid("param").id));
  });

  app.get("/:id{[0-9]+}/media", validate("param", idParam), async (c) => {
    return await announcementImage(deps, authOf(c), c.req.valid("param").id);
  });

  app.post(
    "/",
    allow("announcement:manage"),
    validate(
      "json",
      z.object({ title, text, priority: priority.optional(), status: status.optional() }),
    ),
    async (c) => c.json(await createAnnouncement(deps, authOf(c), c.req.valid("json")), 201),
  );

  app.put(
    "/:id{[0-9]+}",
    allow("announcement:manage"),
    validate("param", idParam),
    validate(
      "json",
      z.object({
        title: title.optional(),
        text: text.optional(),
        priority: priority.optional(),
        status: status.optional(),
      }),
    ),
    async (c) =>
      c.json(await changeAnnouncement(deps, c.req.valid("param").id, c.req.valid("json"))),
  );

  app.delete(
    "/:id{[0-9]+}",
    allow("announcement:manage"),
    validate("param", idParam),
    async (c) => {
      await removeAnnouncement(deps, c.req.valid("param").id);
      return c.body(null, 204);
    },
  );

  app.post(
    "/:id{[0-9]+}/media-upload",
    allow("announcement:manage"),
    validate("param", idParam),
    async (c) => {
      const file = fileField(await c.req.parseBody());
      return c.json(
        await attachAnnouncementImage(deps, authOf(c), c.req.valid("param").id, file),
      );
    },
  );

  app.delete(
    "/:id{[0-9]+}/media-upload",
    allow("announcement:manage"),
    validate("param", idParam),
    async (c) => {
      return c.json(await detachAnnouncementImage(deps, c.req.valid("param").id));
    },
  );

  return app;
}
