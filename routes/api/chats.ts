import { Hono } from "hono";
import { z } from "zod";
import { allow, requireAuth, requirePlan } from "../../server/auth/middleware.ts";
import { type AppDeps, type AppEnv, authOf } from "../../server/context.ts";
import { idParam, pageNumber } from "../../server/http/params.ts";
import { validate } from "../../server/http/validate.ts";
import { limitedText } from "../../server/http/fields.ts";
import {
  changeChat,
  createChat,
  listChatMessages,
  listChats,
  markChatRead,
  postMessage,
  readChat,
  removeChat,
} from "../../server/chats/service.ts";
import { CHAT_MAX_USERS, LIMITS, RULE_TEXTS } from "../../contract/validation.ts";

// seeds/002 section 5 'Chat dialog': a title and at least one user.
const chatBody = z.object({
  title: limitedText(LIMITS.chatTitle, { ...RULE_TEXTS, required: RULE_TEXTS.obrigatorio }),
  users: z.array(
    z.union([
      z.number().int().positive(),
      // Whaticket's dialog sends the picked users as objects.
      z.object({ id: z.number().int().positive() }).transform((u) => u.id),
    ]),
  ).min(1, "Selecione pelo menos um usuário").max(CHAT_MAX_USERS),
});

/** A chat path key: its numeric id, or its uuid (the /chats/:id page's address). */
const chatKey = z.object({
  id: z.union([
    z.coerce.number().int().positive(),
    z.uuid(),
  ]),
});

/**
 * /api/chats (seeds/002 section 7 'Internal chat'), behind the plan flag useInternalChat on every
 * route. A failed check is answered like any API error; the chat page stays quiet about them.
 */
export function chatRoutes(deps: AppDeps) {
  const app = new Hono<AppEnv>();
  app.use("*", requireAuth(deps), requirePlan("useInternalChat"), allow("chat:work"));

  app.get(
    "/",
    validate("query", z.object({ searchParam: z.string().max(100).optional(), pageNumber })),
    async (c) => {
      const { searchParam, pageNumber } = c.req.valid("query");
      return c.json(await listChats(deps, authOf(c), searchParam, pageNumber));
    },
  );

  app.get("/:id", validate("param", chatKey), async (c) => {
    const id = c.req.valid("param").id;
    return c.json(
      await readChat(deps, authOf(c), typeof id === "number" ? { id } : { uuid: id }),
    );
  });

  app.post("/", validate("json", chatBody), async (c) => {
    return c.json(await createChat(deps, authOf(c), c.req.valid("json")), 201);
  });

  app.put("/:id{[0-9]+}", validate("param", idParam), validate("json", chatBody), async (c) => {
    return c.json(await changeChat(deps, authOf(c), c.req.valid("param").id, c.req.valid("json")));
  });

  app.delete("/:id{[0-9]+}", validate("param", idParam), async (c) => {
    await removeChat(deps, authOf(c), c.req.valid("param").id);
    return c.body(null, 204);
  });

  app.get(
    "/:id{[0-9]+}/messages",
    validate("param", idParam),
    validate("query", z.object({ pageNumber })),
    async (c) => {
      const { id } = c.req.valid("param");
      return c.json(
        await listChatMessages(deps, authOf(c), id, c.req.valid("query").pageNumber),
      );
    },
  );

  app.post(
    "/:id{[0-9]+}/messages",
    validate("param", idParam),
    // Blank and too long are the service's, each with its own code (ERR_EMPTY_MESSAGE,
    // ERR_MESSAGE_TOO_LONG); the JSON body limit bounds the text before that.
    validate("json", z.object({ message: z.string({ error: "Obrigatório" }) })),
    async (c) => {
      const { id } = c.req.valid("param");
      return c.json(await postMessage(deps, authOf(c), id, c.req.valid("json").message), 201);
    },
  );

  // seeds/002 section 7 sends {userId}: it can only be the caller's own counter, so it is ignored.
  app.post("/:id{[0-9]+}/read", validate("param", idParam), async (c) => {
    return c.json(await markChatRead(deps, authOf(c), c.req.valid("param").id));
  });

  return app;
}
