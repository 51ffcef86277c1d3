import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { api } from "../lib/api.ts";
import { errorText } from "../lib/errors.ts";
import type { FieldProps } from "../lib/list/form_submit.ts";
import { Button, IconButton } from "../lib/ui/Button.tsx";
import { Field } from "../lib/ui/Field.tsx";
import { icon } from "../lib/ui/icon.tsx";
import {
  CLOUD_FIELDS,
  CLOUD_SECRETS,
  type CloudField,
  type Connection,
} from "../../contract/connection.ts";

const Copy = icon("copy");
const PlugZap = icon("plug-zap");
const KeyRound = icon("key-round");

type Tested = { displayNumber: string | null; verifiedName: string | null; qualityRating: string };

/**
 * The Cloud API part of the connection dialog (issue 45 item 2): Meta's ids, the access token and
 * app secret (typed once, never shown again: blank keeps them), the verify token; once saved, the
 * webhook URL to paste into Meta, 'Testar' (reads the number through the Graph API) and, when Meta
 * refused the token (190), 'Reautorizar': a new token typed here and saved restarts the number.
 */
export function CloudFields(
  { field, saved }: {
    field: (name: CloudField) => FieldProps;
    /** The saved connection (its webhook URL, last error), or null while adding. */
    saved: Connection | null;
  },
) {
  const { t } = useTranslation();
  const label = (key: string) => t(`connections.cloud.${key}`);
  const cloud = saved?.cloud;
  const [tested, setTested] = useState<Tested | null>(null);
  const [failure, setFailure] = useState<{ code: string | null; text: string } | null>(null);
  const [testing, setTesting] = useState(false);
  useEffect(() => {
    setTested(null);
    setFailure(null);
  }, [saved?.id]);
  const expired = (failure?.code ?? cloud?.lastError) === "ERR_WHATSAPP_TOKEN_INVALID";
  const keep = saved ? label("keepSecret") : undefined;

  const test = async () => {
    if (!saved) return;
    setTesting(true);
    try {
      setTested(await api.post<Tested>(`/whatsapp/${saved.id}/test`, {}, { quiet: true }));
      setFailure(null);
    } catch (error) {
      const code = (error as { code?: string }).code ?? null;
      setTested(null);
      setFailure({ code, text: errorText(error, t) });
    } finally {
      setTesting(false);
    }
  };

  const reauthorize = () => {
    const input = document.querySelector<HTMLInputElement>("input[name=accessToken]");
    input?.focus();
  };

  return (
    <div className="span-2 cloud-fields" data-testid="cloud-fields">
      <p className="form-note">{label("intro")}</p>
      <div className="form-grid">
        {CLOUD_FIELDS.map((name) => {
          const secret = CLOUD_SECRETS.includes(name);
          const id = name === "phoneNumberId" || name === "businessAccountId";
          const input = (
            <Field
              key={name}
              label={label(name)}
              inputMode={id ? "numeric" : undefined}
              type={secret ? "password" : undefined}
              autoComplete={id ? undefined : "off"}
              spellCheck={id ? undefined : false}
              hint={secret ? keep : name === "verifyToken" ? label("verifyTokenHint") : undefined}
              {...field(name)}
            />
          );
          // The verify token is pasted into Meta beside the URL: a whole row, like it.
          return name === "verifyToken" ? <div key={name} className="span-2">{input}</div> : input;
        })}
      </div>
      {cloud
        ? (
          <div className="cloud-webhook">
            <div className="token-row">
              <Field
                label={label("webhookUrl")}
                name="webhookUrl"
                value={cloud.webhookUrl}
                readOnly
                hint={label("webhookHint")}
                data-testid="cloud-webhook-url"
              />
              <IconButton
                label={label("copy")}
                onClick={() =>
                  void navigator.clipboard?.writeText(cloud.webhookUrl).catch(() => {})}
              >
                <Copy size={18} aria-hidden="true" />
              </IconButton>
            </div>
            {expired
              ? (
                <div className="cloud-expired" role="alert" data-testid="cloud-expired">
                  <span>{t("errors.ERR_WHATSAPP_TOKEN_INVALID")}</span>
                  <Button
                    variant="secondary"
                    className="btn-sm"
                    onClick={reauthorize}
                    data-testid="cloud-reauthorize"
                  >
                    <KeyRound size={16} aria-hidden="true" />
                    {label("reauthorize")}
                  </Button>
                </div>
              )
              : null}
            <div className="cloud-test">
              <Button
                variant="secondary"
                className="btn-sm"
                onClick={test}
                loading={testing}
                data-testid="cloud-test"
              >
                <PlugZap size={16} aria-hidden="true" />
                {label("test")}
              </Button>
              {tested
                ? (
                  <span role="status" data-testid="cloud-test-result">
                    {label("tested")}: {tested.displayNumber ?? "—"} · {tested.verifiedName ?? "—"}
                    {" · "}
                    {label("quality")}: {tested.qualityRating ?? "—"}
                  </span>
                )
                : null}
              {failure && !expired
                ? (
                  <span role="alert" className="error" data-testid="cloud-test-error">
                    {failure.text}
                  </span>
                )
                : null}
            </div>
          </div>
        )
        : <p className="form-note">{label("webhookAfterSave")}</p>}
    </div>
  );
}
