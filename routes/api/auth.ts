import { type Context, Hono } from "hono";
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
import {
  completeTwoFactorLogin,
  disableTwoFactor,
  enableTwoFactor,
  setupTwoFactor,
} from "../../server/auth/two_factor.ts";
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
/** A TOTP code (6 digits) or a recovery code (XXXXX-XXXXX). */
const codeField = z.string().trim().min(1, "Required").max(20);
const codeBody = z.object({ code: codeField });
const secondStepBody = z.object({
  challenge: z.string().min(1, "Required").max(100),
  code: codeField,
});

/** Where a request comes from, as sessions and the audit log keep it. */
function clientOf(c: Context<AppEnv>, deps: AppDeps) {
  return {
    ip: clientAddress(c, deps.config.trustedProxies),
    userAgent: c.req.header("user-agent")?.slice(0, 300) ?? null,
  };
}

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
    const client = clientOf(c, deps);
    // Only wrong passwords count (a blocked company or a disabled user is not a guess).
    const session = await guardAttempt(
      deps.attemptLimits,
      { kind: "login", account: email, address: client.ip },
      () => login(deps, email, password, client),
      {
        isFailure: (e) => e instanceof AppError && e.code === "ERR_INVALID_CREDENTIALS",
        retryAfter: (wait) => c.header("Retry-After", String(wait)),
      },
    );
    // Two-factor on: no token yet, the code is asked for next (POST /login/2fa).
    if ("challenge" in session) return c.json(session);
    setRefreshCookie(c, session.refreshToken);
    return c.json(answerOf(session));
  });

  app.post("/login/2fa", validate("json", secondStepBody), async (c) => {
    const { challenge, code } = c.req.valid("json");
    const session = await completeTwoFactorLogin(
      deps,
      challenge,
      code,
      clientOf(c, deps),
      (wait) => c.header("Retry-After", String(wait)),
    );
    setRefreshCookie(c, session.refreshToken);
    return c.json({ token: session.token, user: session.user });
  });

  app.post("/2fa/setup", requireAuth(deps), allow("app:use"), async (c) => {
    return c.json(await setupTwoFactor(deps, authOf(c)));
  });

  app.post(
    "/2fa/enable",
    requireAuth(deps),
    allow("app:use"),
    validate("json", codeBody),
    async (c) => {
      return c.json(await enableTwoFactor(deps, authOf(c), c.req.valid("json").code));
    },
  );

  app.post(
    "/2fa/disable",
    requireAuth(deps),
    allow("app:use"),
    validate("json", codeBody),
    async (c) => {
      await disableTwoFactor(deps, authOf(c), c.req.valid("json").code);
      return c.body(null, 204);
    },
  );

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
    await logout(deps, authOf(c));
    deleteCookie(c, REFRESH_COOKIE, { path: COOKIE_PATH });
    return c.body(null, 204);
  });

  app.get("/me", requireAuth(deps), allow("app:use"), async (c) => {
    const auth = authOf(c);
    const user = await sessionUser(
      deps.db,
      auth.user,
      auth.company,
      auth.plan,
      auth.enrolling === true,
    );
    return c.json(auth.restricted ? { ...user, restricted: auth.restricted } : user);
  });

  return app;
}
