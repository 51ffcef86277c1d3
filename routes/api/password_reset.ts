import { type Context, Hono } from "hono";
import { z } from "zod";
import { allow, requireAuth } from "../../server/auth/middleware.ts";
import { guardAttempt, limitRequests } from "../../server/auth/rate_limit.ts";
import type { AppDeps, AppEnv } from "../../server/context.ts";
import { AppError } from "../../server/errors.ts";
import { clientAddress } from "../../server/http/client_address.ts";
import { password5to50 } from "../../server/http/fields.ts";
import { idParam } from "../../server/http/params.ts";
import { validate } from "../../server/http/validate.ts";
import {
  requestPasswordReset,
  resetPassword,
  setPasswordBySuper,
} from "../../server/password_reset/service.ts";

const email = z.string().trim().min(3).max(254);
// A token is 32 random bytes in base64url (43 characters); anything else cannot be one.
const token = z.string().regex(/^[A-Za-z0-9_-]{20,100}$/, "Invalid token");
const resetInput = z.object({ email, token, password: password5to50 });

/**
 * Password recovery, at the paths the seeds' client calls (issue 17):
 * POST /forgetpassword/:email, POST /resetpasswords/:email/:token/:password; the same reset with
 * the secrets in a JSON body, POST /resetpasswords {email, token, password}, which our page uses
 * (a request line lands in proxy logs, a body does not: issue 35); and, without mail,
 * PUT /passwords/:id for super users (company admins use PUT /users/:id).
 */
export function passwordResetRoutes(deps: AppDeps) {
  const app = new Hono<AppEnv>();
  const keys = (c: Context<AppEnv>, kind: string, account: string) => ({
    kind,
    account,
    address: clientAddress(c, deps.config.trustedProxies),
  });
  const retryAfter = (c: Context<AppEnv>) => (wait: number) =>
    c.header("Retry-After", String(wait));

  app.post("/forgetpassword/:email", validate("param", z.object({ email })), async (c) => {
    const { email } = c.req.valid("param");
    // Every request counts: each may send a mail, whatever the answer says.
    await limitRequests(deps.attemptLimits, keys(c, "forget", email), retryAfter(c));
    void requestPasswordReset(deps, email);
    return c.json({
      message: "Se o e-mail estiver cadastrado, você receberá as instruções em instantes.",
    });
  });

  // Only wrong tokens count, against the email and the client address.
  const reset = async (c: Context<AppEnv>, input: z.infer<typeof resetInput>) => {
    await guardAttempt(
      deps.attemptLimits,
      keys(c, "reset", input.email),
      () => resetPassword(deps, input.email, input.token, input.password),
      {
        isFailure: (e) => e instanceof AppError && e.code === "ERR_INVALID_RESET_TOKEN",
        retryAfter: retryAfter(c),
      },
    );
    return c.json({ message: "Senha redefinida. Entre com a nova senha." });
  };

  app.post("/resetpasswords", validate("json", resetInput), (c) => reset(c, c.req.valid("json")));
  app.post(
    "/resetpasswords/:email/:token/:password",
    validate("param", resetInput),
    (c) => reset(c, c.req.valid("param")),
  );

  app.put(
    "/passwords/:id",
    requireAuth(deps),
    allow("user:set-password"),
    validate("param", idParam),
    validate("json", z.object({ password: password5to50 })),
    async (c) => {
      await setPasswordBySuper(deps, c.req.valid("param").id, c.req.valid("json").password);
      return c.json({ ok: true });
    },
  );
  return app;
}
