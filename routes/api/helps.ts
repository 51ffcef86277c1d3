import { Hono } from "hono";
import { z } from "zod";
import { allow, requireAuth } from "../../server/auth/middleware.ts";
import type { AppDeps, AppEnv } from "../../server/context.ts";
import { limitedText } from "../../server/http/fields.ts";
import { idParam, pageNumber } from "../../server/http/params.ts";
import { validate } from "../../server/http/validate.ts";
import {
  changeHelp,
  createHelp,
  listHelps,
  pageHelps,
  removeHelp,
} from "../../server/helps/service.ts";
import { youtubeId } from "../../contract/platform_types.ts";

/** A YouTube video id, or a pasted YouTube URL reduced to its id. */
const video = z.string().trim().max(500).transform((text, ctx) => {
  if (text === "") return "";
  const id = youtubeId(text);
  if (id) return id;
  ctx.addIssue({ code: "custom", message: "Informe o id ou o endereço de um vídeo do YouTube" });
  return z.NEVER;
});

const fields = {
  title: limitedText({ min: 2, max: 100 }),
  description: z.string().trim().max(1000, "Too Long!"),
  video,
};
const createBody = z.object({
  title: fields.title,
  description: fields.description.default(""),
  video: fields.video.default(""),
});
const updateBody = z.object(fields).partial();

/** /api/helps (seeds/001 section 7 'Helps'): everyone reads, super users write. */
export function helpRoutes(deps: AppDeps) {
  const app = new Hono<AppEnv>();
  app.use("*", requireAuth(deps), allow("help:read"));
  app.get(
    "/",
    validate("query", z.object({ searchParam: z.string().max(100).optional(), pageNumber })),
    async (c) => {
      const { searchParam, pageNumber } = c.req.valid("query");
      return c.json(await pageHelps(deps, searchParam, pageNumber));
    },
  );
  app.get("/list", async (c) => c.json(await listHelps(deps)));
  app.post("/", allow("help:manage"), validate("json", createBody), async (c) => {
    return c.json(await createHelp(deps, c.req.valid("json")), 201);
  });
  app.put(
    "/:id{[0-9]+}",
    allow("help:manage"),
    validate("param", idParam),
    validate("json", updateBody),
    async (c) => c.json(await changeHelp(deps, c.req.valid("param").id, c.req.valid("json"))),
  );
  app.delete("/:id{[0-9]+}", allow("help:manage"), validate("param", idParam), async (c) => {
    await removeHelp(deps, c.req.valid("param").id);
    return c.body(null, 204);
  });
  return app;
}
