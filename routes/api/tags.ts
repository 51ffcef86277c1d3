import { Hono } from "hono";
import { z } from "zod";
import { allow, requireAuth } from "../../server/auth/middleware.ts";
import { type AppDeps, type AppEnv, authOf } from "../../server/context.ts";
import { idParam, pageNumber } from "../../server/http/params.ts";
import { validate } from "../../server/http/validate.ts";
import {
  changeTag,
  createTag,
  listTagPage,
  removeTag,
  showTag,
  syncTicketTags,
  tagChoices,
} from "../../server/tags/service.ts";
import { LIMITS } from "../../contract/validation.ts";
import { HEX_COLOR_PATTERN } from "../../contract/palette.ts";
import { ADMIN_TEXTS, limitedText } from "../../server/http/fields.ts";

// seeds/001 section 5: name required ('Obrigatório'), at least 3 characters ('Mensagem muito curta').
const name = limitedText(LIMITS.tagName, ADMIN_TEXTS);
// A colour the browser can paint: #RGB, #RGBA, #RRGGBB or #RRGGBBAA (never a CSS expression).
const color = z.string().trim().regex(HEX_COLOR_PATTERN, "Cor inválida");
// Whaticket's modal sends kanban as 0/1.
const kanban = z.union([z.boolean(), z.literal(0), z.literal(1)]).transform((v) =>
  v === true || v === 1
);

/** /api/tags (seeds/001 sections 2, 3, 5, 7). */
export function tagRoutes(deps: AppDeps) {
  const app = new Hono<AppEnv>();
  app.use("*", requireAuth(deps), allow("tag:work"));

  app.get(
    "/",
    validate("query", z.object({ searchParam: z.string().max(100).optional(), pageNumber })),
    async (c) => {
      const { searchParam, pageNumber } = c.req.valid("query");
      return c.json(await listTagPage(deps, authOf(c).companyId, searchParam, pageNumber));
    },
  );

  app.get("/list", async (c) => c.json(await tagChoices(deps, authOf(c).companyId)));

  app.get(
    "/kanban",
    async (c) =>
      c.json({ lista: await tagChoices(deps, authOf(c).companyId, { kanbanOnly: true }) }),
  );

  app.get("/:id{[0-9]+}", validate("param", idParam), async (c) => {
    return c.json(await showTag(deps, authOf(c).companyId, c.req.valid("param").id));
  });

  app.post(
    "/",
    validate("json", z.object({ name, color: color.optional(), kanban: kanban.optional() })),
    async (c) => c.json(await createTag(deps, authOf(c), c.req.valid("json")), 201),
  );

  app.put(
    "/:id{[0-9]+}",
    validate("param", idParam),
    validate(
      "json",
      z.object({ name: name.optional(), color: color.optional(), kanban: kanban.optional() }),
    ),
    async (c) =>
      c.json(await changeTag(deps, authOf(c), c.req.valid("param").id, c.req.valid("json"))),
  );

  app.delete("/:id{[0-9]+}", validate("param", idParam), async (c) => {
    await removeTag(deps, authOf(c), c.req.valid("param").id);
    return c.body(null, 204);
  });

  app.post(
    "/sync",
    validate(
      "json",
      z.object({
        ticketId: z.number().int().positive(),
        tags: z.array(z.object({ id: z.number().int().positive() })).max(100),
      }),
    ),
    async (c) => {
      const { ticketId, tags } = c.req.valid("json");
      return c.json(await syncTicketTags(deps, authOf(c), ticketId, tags.map((t) => t.id)));
    },
  );

  return app;
}
