import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { api } from "../api.ts";
import { saveBlob } from "../download.ts";
import { setSessionUser } from "../session.ts";
import { can } from "../permissions.ts";
import { toast } from "../toast.ts";
import type { SessionUser } from "../../../contract/types.ts";
import type { SessionView } from "../../../contract/sessions.ts";
import { Button } from "../ui/Button.tsx";
import { Field } from "../ui/Field.tsx";
import { FormDialog } from "../list/FormDialog.tsx";
import { useFormSubmit } from "../list/form_submit.ts";
import { deviceName } from "../../../contract/device_name.ts";
import { PushDevices } from "./PushDevices.tsx";

type Setup = { secret: string; otpauthUrl: string; qrCode: string };

/**
 * The account's security (issue 30), from the account menu: two-factor sign-in (the QR code for
 * an authenticator app, confirmed with a code; the ten recovery codes shown once; turned off
 * with a code) and the live sessions, each ended with one click (admins: the company's too).
 * `required`: the company or the platform requires two-factor and this session must turn it on
 * first; the dialog cannot be closed until it is on.
 */
export function SecurityDialog(
  { user, open, onOpenChange, required = false }: {
    user: SessionUser;
    open: boolean;
    onOpenChange: (open: boolean) => void;
    required?: boolean;
  },
) {
  const { t } = useTranslation();
  const enabled = user.twoFactor?.enabled === true;
  const [setup, setSetup] = useState<Setup | null>(null);
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);
  const [code, setCode] = useState("");
  const form = useFormSubmit<{ recoveryCodes: string[] } | undefined>({
    validate: (): Record<string, string> =>
      code.trim() ? {} : { code: "shell.security.codeRequired" },
    send: () =>
      enabled
        ? api.post<undefined>("/auth/2fa/disable", { code: code.trim() }, { quiet: true })
        : api.post<{ recoveryCodes: string[] }>("/auth/2fa/enable", { code: code.trim() }, {
          quiet: true,
        }),
    codeFields: { ERR_INVALID_TWO_FACTOR_CODE: "code" },
    onDone: (answer) => {
      setCode("");
      setSetup(null);
      if (answer?.recoveryCodes) {
        setRecoveryCodes(answer.recoveryCodes);
        toast.success({ key: "shell.security.enabled" });
        setSessionUser({ ...user, twoFactor: { enabled: true, mustEnable: false } });
        return;
      }
      toast.success({ key: "shell.security.disabled" });
      setSessionUser({ ...user, twoFactor: { enabled: false, mustEnable: false } });
    },
  });

  useEffect(() => {
    if (!open) return;
    setSetup(null);
    setRecoveryCodes(null);
    setCode("");
    form.setErrors({});
  }, [open]);

  const start = () => {
    api.post<Setup>("/auth/2fa/setup").then(setSetup).catch(() => {});
  };
  const close = (next: boolean) => {
    if (!next && required && recoveryCodes === null) return;
    if (!next && required) {
      // The session may reach the whole app now: load it again from the start.
      location.reload();
      return;
    }
    onOpenChange(next);
  };

  const codeField = (
    <Field
      label={t("shell.security.code")}
      autoComplete="one-time-code"
      data-testid="two-factor-code"
      {...form.bind("code", code, setCode)}
    />
  );
  const wantsCode = (enabled && recoveryCodes === null) || setup !== null;
  return (
    <FormDialog
      open={open}
      onOpenChange={close}
      title={t("shell.security.title")}
      id="two-factor"
      form={form}
      submitLabel={t(enabled ? "shell.security.disable" : "shell.security.confirm")}
      footer={wantsCode ? undefined : (
        <Button
          variant="ghost"
          onClick={() => close(false)}
          disabled={required && recoveryCodes === null}
        >
          {t("common.close")}
        </Button>
      )}
    >
      <section className="security-section" data-testid="two-factor">
        <h3>{t("shell.security.twoFactor")}</h3>
        {required && recoveryCodes === null
          ? <p className="alert alert-warning">{t("shell.security.required")}</p>
          : null}
        {recoveryCodes
          ? (
            <>
              <p>{t("shell.security.recoveryIntro")}</p>
              <ul className="recovery-codes" data-testid="recovery-codes">
                {recoveryCodes.map((c) => (
                  <li key={c}>
                    <code>{c}</code>
                  </li>
                ))}
              </ul>
              <RecoveryActions codes={recoveryCodes} email={user.email} />
            </>
          )
          : enabled
          ? (
            <>
              <p data-testid="two-factor-on">{t("shell.security.on")}</p>
              {codeField}
            </>
          )
          : setup
          ? (
            <>
              <p>{t("shell.security.scan")}</p>
              <img src={setup.qrCode} alt={t("shell.security.qrAlt")} width={200} height={200} />
              <p>
                {t("shell.security.manual")}{" "}
                <code data-testid="two-factor-secret">{setup.secret}</code>
              </p>
              {codeField}
            </>
          )
          : (
            <>
              <p>{t("shell.security.off")}</p>
              <Button variant="primary" onClick={start} data-testid="two-factor-start">
                {t("shell.security.enable")}
              </Button>
            </>
          )}
      </section>
      {required ? null : <SessionList user={user} />}
      {required ? null : <PushDevices />}
    </FormDialog>
  );
}

/**
 * Issue 50 item 13: the recovery codes, shown once, are kept by copying them or by a .txt file
 * (made in the page: the codes never travel again).
 */
function RecoveryActions({ codes, email }: { codes: string[]; email: string }) {
  const { t } = useTranslation();
  const text = () => [t("shell.security.codesFileTitle", { email }), "", ...codes, ""].join("\n");
  const copy = () => {
    navigator.clipboard.writeText(text())
      .then(() => toast.success({ key: "shell.security.codesCopied" }))
      .catch(() => {});
  };
  const download = () =>
    saveBlob(
      new Blob([text()], { type: "text/plain;charset=utf-8" }),
      t("shell.security.codesFile"),
    );
  return (
    <div className="recovery-actions">
      <Button variant="secondary" onClick={copy}>{t("shell.security.copyCodes")}</Button>
      <Button variant="secondary" onClick={download}>{t("shell.security.downloadCodes")}</Button>
    </div>
  );
}

/** The live sessions: the user's own, or (admins) every user's of the company. */
function SessionList({ user }: { user: SessionUser }) {
  const { t } = useTranslation();
  const admin = can(user, "session:manage-any");
  const [scope, setScope] = useState<"own" | "company">("own");
  const [sessions, setSessions] = useState<SessionView[] | null>(null);
  const load = () => {
    api.get<{ sessions: SessionView[] }>("/sessions", { query: { scope } })
      .then((a) => setSessions(a.sessions)).catch(() => {});
  };
  useEffect(load, [scope]);
  const end = (id: number) => {
    api.delete(`/sessions/${id}`).then(() => {
      toast.success({ key: "shell.security.sessionEnded" });
      load();
    }).catch(() => {});
  };
  return (
    <section className="security-section" data-testid="sessions">
      <h3>{t("shell.security.sessions")}</h3>
      {admin
        ? (
          <label className="security-scope">
            <input
              type="checkbox"
              checked={scope === "company"}
              onChange={(e) => setScope(e.target.checked ? "company" : "own")}
              data-testid="sessions-company"
            />
            {t("shell.security.companySessions")}
          </label>
        )
        : null}
      <ul className="session-list">
        {(sessions ?? []).map((s) => (
          <li key={s.id} data-testid="session-row">
            <div>
              <strong>
                {scope === "company" ? `${s.userName} · ` : ""}
                {deviceName(s.userAgent, t)}
              </strong>
              <div className="session-meta">
                {s.ip ?? "?"} · {t("shell.security.started", {
                  date: new Date(s.createdAt).toLocaleString(),
                })} · {t("shell.security.lastSeen", {
                  date: new Date(s.lastSeenAt).toLocaleString(),
                })}
              </div>
            </div>
            {s.current
              ? (
                <span className="session-current" data-testid="session-current">
                  {t("shell.security.current")}
                </span>
              )
              : (
                <Button variant="secondary" onClick={() => end(s.id)}>
                  {t("shell.security.end")}
                </Button>
              )}
          </li>
        ))}
      </ul>
    </section>
  );
}
