import { Hono } from "hono";
import { z } from "zod";
import { allow, requireAuth, requirePlan } from "../../server/auth/middleware.ts";
import { type AppDeps, type AppEnv, authOf } from "../../server/context.ts";
import { idParam } from "../../server/http/params.ts";
import { validate } from "../../server/http/validate.ts";
import {
  changePrompt,
  createPrompt,
  listPrompts,
  removePrompt,
  showPrompt,
} from "../../server/prompts/service.ts";
import { PROMPT_VOICES } from "../../contract/integrations.ts";

const required = (max: number) =>
  z.string({ error: "Required" }).trim().min(1, { message: "Required", abort: true })
    .max(max, "Too Long!");

// seeds/002 section 5: only the queue is enforced ('Informe o setor', in the service); the
// stricter schema the seeds mention is not applied. Regions go into a host name: letters only.
const body = z.object({
  name: required(100),
  apiKey: z.string().max(500, "Too Long!").optional(),
  prompt: required(20_000),
  voice: z.enum(PROMPT_VOICES).optional(),
  voiceKey: z.string().max(500, "Too Long!").optional(),
  voiceRegion: z.string().trim().regex(/^[a-z0-9]{0,40}$/, "Região inválida").optional(),
  temperature: z.coerce.number().min(0).max(2).optional(),
  maxTokens: z.coerce.number().int().min(1).max(4096).optional(),
  maxMessages: z.coerce.number().int().min(1).max(50).optional(),
  queueId: z.coerce.number().int().positive().nullable().optional(),
});

/** /api/prompt (seeds/002 section 7): plans with useOpenAi; admins change them. */
export function promptRoutes(deps: AppDeps) {
  const app = new Hono<AppEnv>();
  app.use("*", requireAuth(deps), requirePlan("useOpenAi"), allow("prompt:read"));

  app.get("/", async (c) => c.json(await listPrompts(deps, authOf(c).companyId)));

  app.get("/:id{[0-9]+}", validate("param", idParam), async (c) => {
    return c.json(await showPrompt(deps, authOf(c).companyId, c.req.valid("param").id));
  });

  app.post("/", allow("prompt:manage"), validate("json", body), async (c) => {
    return c.json(await createPrompt(deps, authOf(c), c.req.valid("json")), 201);
  });

  app.put(
    "/:id{[0-9]+}",
    allow("prompt:manage"),
    validate("param", idParam),
    validate("json", body),
    async (c) => {
      const { id } = c.req.valid("param");
      return c.json(await changePrompt(deps, authOf(c), id, c.req.valid("json")));
    },
  );

  app.delete("/:id{[0-9]+}", allow("prompt:manage"), validate("param", idParam), async (c) => {
    await removePrompt(deps, authOf(c), c.req.valid("param").id);
    // seeds/002 section 7: a message the client translates.
    return c.json({ message: "prompts.toasts.deleted" });
  });

  return app;
}
