import { type FormEvent, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { api } from "./lib/api.ts";
import { ApiError, errorText } from "./lib/errors.ts";
import { AuthCard } from "./lib/shell/AuthCard.tsx";
import { rememberSession } from "./lib/session_storage.ts";
import {
  type LoginAnswer,
  SESSION_ENDED_QUERY,
  type TwoFactorChallenge,
} from "../contract/types.ts";
import { SIGNUP_DONE_QUERY } from "../contract/platform_types.ts";
import { Button } from "./lib/ui/Button.tsx";
import { Field } from "./lib/ui/Field.tsx";
import { icon } from "./lib/ui/icon.tsx";
import { deferredModule } from "./lib/ui/deferred.tsx";

const Eye = icon("eye");
const EyeOff = icon("eye-off");
const LogIn = icon("log-in");

/** `signupEnabled`: SIGNUP_ENABLED; without public signup the link to /signup is not shown. */
export type LoginPageProps = { signupEnabled?: boolean };

/**
 * The session's and the role policy's code, needed only once the password is accepted: loaded
 * then, not with the page (issue 33: the policy table was 1.7 KiB gzipped of /login).
 */
const AFTER_SIGN_IN = deferredModule(() =>
  Promise.all([import("./lib/session.ts"), import("./lib/permissions.ts")])
);

/**
 * /login (seeds/000 section 2): email and password, a link to /signup. A signed-in visitor is
 * sent to / before paint (head script); a refused login shows the server's message, e.g. the
 * expired subscription with its date.
 */
export default function LoginPage({ signupEnabled = true }: LoginPageProps) {
  const { t } = useTranslation();
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [showPassword, setShowPassword] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [ready, setReady] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const [ended, setEnded] = useState(false);
  // Two-factor on (issue 30): the password passed, the code is asked for with this challenge.
  const [challenge, setChallenge] = useState<string | null>(null);
  const [code, setCode] = useState("");
  // The form works only once hydrated: a click before that would submit a plain GET.
  useEffect(() => {
    setReady(true);
    // seeds/001 'Signup': a new company lands here with the success message.
    if (location.search.includes(SIGNUP_DONE_QUERY)) setNotice(t("platform.signup.success"));
    // Issue 50 item 14: ended from another device (or by an admin), not a bare form.
    if (location.search.includes(SESSION_ENDED_QUERY)) {
      setNotice(t("errors.ERR_SESSION_ENDED_ELSEWHERE"));
      setEnded(true);
    }
  }, []);

  const signedIn = (answer: LoginAnswer) => {
    rememberSession(answer);
    void AFTER_SIGN_IN.load().then(([{ setSessionUser }, { can }]) => {
      setSessionUser(answer.user);
      // Who may read the dashboard lands there; attendants on their tickets; a late company's
      // admin on /financeiro, where the shell shows that the subscription expired (issue 29).
      if (answer.restricted) location.assign("/financeiro");
      else location.assign(can(answer.user, "dashboard:read") ? "/" : "/tickets");
    }).catch(() => location.assign("/")); // the shell then sends the user where they may be
  };

  const refused = (caught: unknown) => {
    setBusy(false);
    if (caught instanceof ApiError && caught.code === "ERR_SUBSCRIPTION_EXPIRED") {
      setError(caught.message || t("login.subscriptionExpired"));
    } else if (caught instanceof ApiError && caught.code === "ERR_TWO_FACTOR_CHALLENGE_EXPIRED") {
      // Too long, or used: back to the password.
      setChallenge(null);
      setCode("");
      setError(errorText(caught, t));
    } else {
      setError(errorText(caught, t));
    }
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    setBusy(true);
    try {
      if (challenge) {
        signedIn(
          await api.post<LoginAnswer>("/auth/login/2fa", { challenge, code: code.trim() }, {
            auth: false,
            quiet: true,
          }),
        );
        return;
      }
      const answer = await api.post<LoginAnswer | TwoFactorChallenge>(
        "/auth/login",
        { email: email.trim(), password },
        { auth: false, quiet: true },
      );
      if ("challenge" in answer) {
        setBusy(false);
        setChallenge(answer.challenge);
        return;
      }
      signedIn(answer);
    } catch (caught) {
      refused(caught);
    }
  };

  if (challenge) {
    return (
      <AuthCard title={t("login.twoFactor.title")} subtitle={t("login.twoFactor.subtitle")}>
        {error
          ? <div className="alert alert-error" role="alert" data-testid="login-error">{error}</div>
          : null}
        <form onSubmit={submit} method="post" noValidate data-testid="login-2fa-form">
          <Field
            label={t("login.twoFactor.code")}
            name="code"
            autoComplete="one-time-code"
            inputMode="text"
            required
            autoFocus
            value={code}
            hint={t("login.twoFactor.hint")}
            onChange={(e) => setCode(e.target.value)}
          />
          <Button type="submit" variant="primary" block loading={busy} disabled={!code.trim()}>
            <LogIn size={18} aria-hidden="true" />
            {t("login.twoFactor.submit")}
          </Button>
        </form>
        <p className="auth-footer">
          <a
            href="/login"
            onClick={(e) => {
              e.preventDefault();
              setChallenge(null);
              setCode("");
              setError(null);
            }}
          >
            {t("login.twoFactor.back")}
          </a>
        </p>
      </AuthCard>
    );
  }

  return (
    <AuthCard title={t("login.title")} subtitle={t("login.subtitle")}>
      {notice && !error
        ? (
          <div
            className={`alert ${ended ? "alert-warning" : "alert-success"}`}
            role="status"
            data-testid="login-notice"
          >
            {notice}
          </div>
        )
        : null}
      {error
        ? <div className="alert alert-error" role="alert" data-testid="login-error">{error}</div>
        : null}
      <form onSubmit={submit} method="post" noValidate>
        <Field
          label={t("login.email")}
          name="email"
          type="email"
          autoComplete="email"
          required
          autoFocus
          value={email}
          onChange={(e) => setEmail(e.target.value)}
        />
        <div className="password-field">
          <Field
            label={t("login.password")}
            name="password"
            type={showPassword ? "text" : "password"}
            autoComplete="current-password"
            required
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
          <button
            type="button"
            className="icon-btn password-toggle"
            aria-label={t(showPassword ? "login.hidePassword" : "login.showPassword")}
            onClick={() => setShowPassword((v) => !v)}
          >
            {showPassword
              ? <EyeOff size={18} aria-hidden="true" />
              : <Eye size={18} aria-hidden="true" />}
          </button>
        </div>
        <Button type="submit" variant="primary" block loading={busy} disabled={!ready}>
          <LogIn size={18} aria-hidden="true" />
          {t("login.submit")}
        </Button>
      </form>
      <p className="auth-footer">
        <a href="/resetpassword">{t("resetPassword.forgot")}</a>
      </p>
      {signupEnabled
        ? (
          <p className="auth-footer">
            {t("login.noAccount")} <a href="/signup">{t("login.signup")}</a>
          </p>
        )
        : null}
    </AuthCard>
  );
}
