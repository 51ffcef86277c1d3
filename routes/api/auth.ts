import { Hono } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { z } from "zod";
import { allow, requireAuth } from "../../server/auth/middleware.ts";
import { guardAttempt } from "../../server/auth/rate_limit.ts";
import {
  type IssuedSession,
  login,
  logout,
  refresh,
  sessionUser,
} from "../../server/auth/service.ts";
import { type AppDeps, type AppEnv, authOf } from "../../server/context.ts";
import { clientAddress } from "../../server/http/client_address.ts";
import { validate } from "../../server/http/validate.ts";
import { AppError } from "../../server/errors.ts";

export const REFRESH_COOKIE = "jrt";
const COOKIE_PATH = "/api/auth";

const loginBody = z.object({
  email: z.string().trim().min(1, "Required").max(254),
  password: z.string().min(1, "Required").max(200),
});

/** The login and refresh answer: a late company's admin's has `restricted` and `message`. */
function answerOf(session: IssuedSession) {
  const { token, user, restricted, message } = session;
  return restricted
    ? { token, user: { ...user, restricted }, restricted, message }
    : { token, user };
}

export function authRoutes(deps: AppDeps) {
  const app = new Hono<AppEnv>();

  const setRefreshCookie = (c: Parameters<typeof setCookie>[0], value: string) =>
    setCookie(c, REFRESH_COOKIE, value, {
      httpOnly: true,
      sameSite: "Strict",
      secure: deps.config.cookieSecure,
      path: COOKIE_PATH,
      maxAge: deps.config.refreshTokenTtlSeconds,
    });

  app.post("/login", validate("json", loginBody), async (c) => {
    const { email, password } = c.req.valid("json");
    // Only wrong passwords count (a blocked company or a disabled user is not a guess).
    const session = await guardAttempt(
      deps.attemptLimits,
      { kind: "login", account: email, address: clientAddress(c, deps.config.trustedProxies) },
      () => login(deps, email, password),
      {
        isFailure: (e) => e instanceof AppError && e.code === "ERR_INVALID_CREDENTIALS",
        retryAfter: (wait) => c.header("Retry-After", String(wait)),
      },
    );
    setRefreshCookie(c, session.refreshToken);
    return c.json(answerOf(session));
  });

  app.post("/refresh_token", async (c) => {
    try {
      const session = await refresh(deps, getCookie(c, REFRESH_COOKIE));
      setRefreshCookie(c, session.refreshToken);
      return c.json(answerOf(session));
    } catch (error) {
      deleteCookie(c, REFRESH_COOKIE, { path: COOKIE_PATH });
      throw error;
    }
  });

  app.delete("/logout", requireAuth(deps), allow("app:use"), async (c) => {
    const auth = authOf(c);
    await logout(deps, auth.companyId, auth.userId);
    deleteCookie(c, REFRESH_COOKIE, { path: COOKIE_PATH });
    return c.body(null, 204);
  });

  app.get("/me", requireAuth(deps), allow("app:use"), async (c) => {
    const auth = authOf(c);
    const user = await sessionUser(deps.db, auth.user, auth.company, auth.plan);
    return c.json(auth.restricted ? { ...user, restricted: auth.restricted } : user);
  });

  return app;
}
