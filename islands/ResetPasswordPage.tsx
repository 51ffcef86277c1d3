import { type FormEvent, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { api } from "./lib/api.ts";
import { errorText } from "./lib/errors.ts";
import { AuthCard } from "./lib/shell/AuthCard.tsx";
import { Button } from "./lib/ui/Button.tsx";
import { Field } from "./lib/ui/Field.tsx";
import { LIMITS } from "../contract/validation.ts";
import { icon } from "./lib/ui/icon.tsx";

const KeyRound = icon("key-round");
const Mail = icon("mail");

/** `email` and `token` come from the recovery mail's link (?email=...&token=...). */
export type ResetPasswordPageProps = { email?: string; token?: string };

/**
 * /resetpassword (issue 17): without a token, asks for the email and sends the recovery mail
 * (POST /forgetpassword/:email, the same answer for every address); with the mail's token, sets
 * the new password (POST /resetpasswords {email, token, password}) and points to /login.
 */
export default function ResetPasswordPage(props: ResetPasswordPageProps) {
  const { t } = useTranslation();
  const [email, setEmail] = useState(props.email ?? "");
  const [password, setPassword] = useState("");
  const [confirm, setConfirm] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [ready, setReady] = useState(false);
  useEffect(() => setReady(true), []);
  const token = props.token;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    const address = email.trim();
    if (token) {
      const { min, max } = LIMITS.password;
      if (password.length < min || password.length > max) {
        return setError(t("resetPassword.passwordLength", { min, max }));
      }
      if (password !== confirm) return setError(t("resetPassword.mismatch"));
    }
    setBusy(true);
    try {
      if (token) {
        // In the body: a request line with the token and the password would land in proxy logs.
        await api.post("/resetpasswords", { email: address, token, password }, {
          auth: false,
          quiet: true,
        });
        setDone(t("resetPassword.changed"));
      } else {
        const at = encodeURIComponent(address);
        await api.post(`/forgetpassword/${at}`, undefined, { auth: false, quiet: true });
        setDone(t("resetPassword.sent"));
      }
    } catch (caught) {
      setError(errorText(caught, t));
    } finally {
      setBusy(false);
    }
  };

  return (
    <AuthCard
      title={t("resetPassword.title")}
      subtitle={t(token ? "resetPassword.chooseSubtitle" : "resetPassword.askSubtitle")}
    >
      {error ? <div className="alert alert-error" role="alert">{error}</div> : null}
      {done
        ? <div className="alert alert-success" role="status" data-testid="reset-done">{done}</div>
        : (
          <form onSubmit={submit} method="post" noValidate>
            <Field
              label={t("login.email")}
              name="email"
              type="email"
              autoComplete="email"
              required
              autoFocus={!token}
              value={email}
              onChange={(e) => setEmail(e.target.value)}
            />
            {token
              ? (
                <>
                  <Field
                    label={t("resetPassword.newPassword")}
                    name="password"
                    type="password"
                    autoComplete="new-password"
                    required
                    autoFocus
                    value={password}
                    onChange={(e) => setPassword(e.target.value)}
                  />
                  <Field
                    label={t("resetPassword.confirm")}
                    name="confirm"
                    type="password"
                    autoComplete="new-password"
                    required
                    value={confirm}
                    onChange={(e) => setConfirm(e.target.value)}
                  />
                </>
              )
              : null}
            <Button type="submit" variant="primary" block loading={busy} disabled={!ready}>
              {token
                ? <KeyRound size={18} aria-hidden="true" />
                : <Mail size={18} aria-hidden="true" />}
              {t(token ? "resetPassword.save" : "resetPassword.send")}
            </Button>
          </form>
        )}
      <p className="auth-footer">
        <a href="/login">{t("resetPassword.backToLogin")}</a>
      </p>
    </AuthCard>
  );
}
