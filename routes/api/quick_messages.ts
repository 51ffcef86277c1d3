import { Hono } from "hono";
import { z } from "zod";
import { requireAuth } from "../../server/auth/middleware.ts";
import { type AppDeps, type AppEnv, type AuthInfo, authOf } from "../../server/context.ts";
import { forbidden, notFound } from "../../server/errors.ts";
import { idParam, pageNumber } from "../../server/http/params.ts";
import { validate } from "../../server/http/validate.ts";
import type { QuickMessage } from "../../db/schema.ts";
import {
  deleteQuickMessage,
  findQuickMessage,
  insertQuickMessage,
  listQuickMessages,
  pageQuickMessages,
  type QuickMessageScope,
  type QuickMessageView,
  quickMessageView,
  updateQuickMessage,
} from "../../server/quick_messages/repository.ts";
import { LIMITS } from "../../islands/lib/validation.ts";
import { ADMIN_TEXTS, limitedText } from "../../server/http/fields.ts";

// seeds/001 section 5: shortcode required ('Obrigatório').
const shortcode = limitedText(LIMITS.shortcode, ADMIN_TEXTS);
const message = z.string().max(10_000);
const geral = z.union([z.boolean(), z.literal(0), z.literal(1)]).transform((v) =>
  v === true || v === 1
);

const isAdmin = (auth: AuthInfo) => auth.profile === "admin";
const scopeOf = (auth: AuthInfo): QuickMessageScope => ({
  companyId: auth.companyId,
  userId: auth.userId,
  all: isAdmin(auth),
});

/** Readable: general ones, one's own, or any for admins; otherwise 404 like a missing one. */
function canSee(auth: AuthInfo, q: QuickMessage): boolean {
  return isAdmin(auth) || q.geral === 1 || q.userId === auth.userId;
}

/** Changeable: one's own, or any for admins. */
function assertCanChange(auth: AuthInfo, q: QuickMessage) {
  if (!isAdmin(auth) && q.userId !== auth.userId) throw forbidden();
}

/** /api/quick-messages (seeds/001 sections 2, 3, 5, 7). */
export function quickMessageRoutes(deps: AppDeps) {
  const app = new Hono<AppEnv>();
  app.use("*", requireAuth(deps));

  // General answers go to the company; private ones to their owner and the admins.
  const publish = (
    auth: AuthInfo,
    action: string,
    record: QuickMessageView | { id: number; geral: boolean; userId: number | null },
  ) => {
    const audiences = record.geral ? [{ kind: "company" as const }] : [
      { kind: "admins" as const },
      ...(record.userId !== null ? [{ kind: "user" as const, userId: record.userId }] : []),
    ];
    deps.hub.publish(auth.companyId, "quickMessage", { action, record }, audiences);
  };

  const load = async (auth: AuthInfo, id: number) => {
    const q = await findQuickMessage(deps.db, auth.companyId, id);
    if (!q || !canSee(auth, q)) {
      throw notFound("ERR_NO_QUICK_MESSAGE_FOUND", "Quick message not found");
    }
    return q;
  };

  // userId of Whaticket's query is ignored: a user gets their own answers, never another's.
  app.get("/list", async (c) => c.json(await listQuickMessages(deps.db, scopeOf(authOf(c)))));

  app.get(
    "/",
    validate("query", z.object({ searchParam: z.string().max(100).optional(), pageNumber })),
    async (c) => {
      const { searchParam, pageNumber } = c.req.valid("query");
      return c.json(await pageQuickMessages(deps.db, scopeOf(authOf(c)), searchParam, pageNumber));
    },
  );

  app.get("/:id{[0-9]+}", validate("param", idParam), async (c) => {
    return c.json(quickMessageView(await load(authOf(c), c.req.valid("param").id)));
  });

  app.post(
    "/",
    validate(
      "json",
      z.object({ shortcode, message: message.default(""), geral: geral.optional() }),
    ),
    async (c) => {
      const auth = authOf(c);
      const input = c.req.valid("json");
      const now = deps.clock.now().toISOString();
      const row = await insertQuickMessage(deps.db, {
        companyId: auth.companyId,
        userId: auth.userId,
        shortcode: input.shortcode,
        message: input.message,
        geral: input.geral ? 1 : 0,
        mediaPath: null,
        mediaName: null,
        createdAt: now,
        updatedAt: now,
      });
      const view = quickMessageView(row);
      publish(auth, "create", view);
      return c.json(view, 201);
    },
  );

  app.put(
    "/:id{[0-9]+}",
    validate("param", idParam),
    validate(
      "json",
      z.object({
        shortcode: shortcode.optional(),
        message: message.optional(),
        geral: geral.optional(),
      }),
    ),
    async (c) => {
      const auth = authOf(c);
      const current = await load(auth, c.req.valid("param").id);
      assertCanChange(auth, current);
      const input = c.req.valid("json");
      const row = await updateQuickMessage(deps.db, auth.companyId, current.id, {
        shortcode: input.shortcode,
        message: input.message,
        geral: input.geral === undefined ? undefined : input.geral ? 1 : 0,
        updatedAt: deps.clock.now().toISOString(),
      });
      const view = quickMessageView(row!);
      publish(auth, "update", view);
      // A general answer made private leaves the others' lists.
      if (current.geral === 1 && !view.geral) publish(auth, "delete", { ...view, geral: true });
      return c.json(view);
    },
  );

  app.delete("/:id{[0-9]+}", validate("param", idParam), async (c) => {
    const auth = authOf(c);
    const current = await load(auth, c.req.valid("param").id);
    assertCanChange(auth, current);
    await deleteQuickMessage(deps.db, auth.companyId, current.id);
    publish(auth, "delete", { id: current.id, geral: current.geral === 1, userId: current.userId });
    return c.body(null, 204);
  });

  return app;
}
