import { Hono } from "hono";
import { z } from "zod";
import { allow, requireAuth } from "../../server/auth/middleware.ts";
import { clientIp, limitAttempts } from "../../server/auth/rate_limit.ts";
import type { AppDeps, AppEnv } from "../../server/context.ts";
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

/**
 * Password recovery, at the paths the seeds' client calls (issue 17):
 * POST /forgetpassword/:email, POST /resetpasswords/:email/:token/:password; and, without mail,
 * PUT /passwords/:id for super users (company admins use PUT /users/:id).
 */
export function passwordResetRoutes(deps: AppDeps) {
  const app = new Hono<AppEnv>();

  /** Attempts per IP and per email count against the login limits (LOGIN_MAX_ATTEMPTS). */
  const limit = (kind: string, ip: string, address: string) =>
    limitAttempts(deps.loginLimiter, [
      `${kind}-ip:${ip}`,
      `${kind}-email:${address.toLowerCase()}`,
    ]);

  app.post("/forgetpassword/:email", validate("param", z.object({ email })), async (c) => {
    const { email } = c.req.valid("param");
    limit("forget", clientIp(c), email);
    await requestPasswordReset(deps, email);
    return c.json({
      message: "Se o e-mail estiver cadastrado, você receberá as instruções em instantes.",
    });
  });

  app.post(
    "/resetpasswords/:email/:token/:password",
    validate("param", z.object({ email, token, password: password5to50 })),
    async (c) => {
      const { email, token, password } = c.req.valid("param");
      limit("reset", clientIp(c), email);
      await resetPassword(deps, email, token, password);
      return c.json({ message: "Senha redefinida. Entre com a nova senha." });
    },
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
