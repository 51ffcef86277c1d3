import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { api } from "../lib/api.ts";
import { FormDialog, saveRecord, useFormSubmit } from "../lib/list/FormDialog.tsx";
import {
  INTEGRATION_LANGUAGES,
  INTEGRATION_TYPES,
  type IntegrationType,
  type IntegrationView,
  TYPEBOT_DEFAULTS,
} from "../../contract/integrations.ts";
import { toast } from "../lib/toast.ts";
import { Button } from "../lib/ui/Button.tsx";
import { Field } from "../lib/ui/Field.tsx";
import { Select } from "../lib/ui/Select.tsx";
import { TextAreaField } from "../lib/ui/TextArea.tsx";
import { check, length, LIMITS, type Rule } from "../../contract/validation.ts";

const required: Rule = (v) => (v.trim() ? null : "people.validation.required");

type Form = {
  type: IntegrationType;
  name: string;
  projectName: string;
  jsonContent: string;
  language: string;
  urlN8N: string;
  typebotSlug: string;
  typebotExpires: string;
  typebotDelayMessage: string;
  typebotKeywordFinish: string;
  typebotKeywordRestart: string;
  typebotRestartMessage: string;
  typebotUnknownMessage: string;
};

const EMPTY: Form = {
  type: "typebot",
  name: "",
  projectName: "",
  jsonContent: "",
  language: "pt-BR",
  urlN8N: "",
  typebotSlug: "",
  typebotExpires: String(TYPEBOT_DEFAULTS.typebotExpires),
  typebotDelayMessage: String(TYPEBOT_DEFAULTS.typebotDelayMessage),
  typebotKeywordFinish: "",
  typebotKeywordRestart: "",
  typebotRestartMessage: "",
  typebotUnknownMessage: "",
};

/**
 * Add or edit a queue integration (seeds/002 sections 3, 5): name 2..50; for n8n, webhook and
 * typebot the URL (and for typebot the slug) is required and projectName becomes the name on the
 * server; dialogflow takes the service account JSON (never shown back) and offers a test.
 */
export function IntegrationDialog(
  { open, onOpenChange, integrationId, onSaved }: {
    open: boolean;
    onOpenChange: (open: boolean) => void;
    integrationId: number | null;
    onSaved?: (saved: IntegrationView) => void;
  },
) {
  const { t } = useTranslation();
  const [form, setForm] = useState<Form>(EMPTY);
  const [stored, setStored] = useState<IntegrationView | null>(null);
  const [loading, setLoading] = useState(false);
  const [testing, setTesting] = useState(false);
  const set = (key: keyof Form) => (value: string) => setForm((f) => ({ ...f, [key]: value }));
  const isDialogflow = form.type === "dialogflow";
  const submit = useFormSubmit({
    validate: () =>
      check(form, {
        name: length(LIMITS.name),
        ...(isDialogflow
          ? (stored?.hasJsonContent ? {} : { jsonContent: required })
          : { urlN8N: required }),
        ...(form.type === "typebot" ? { typebotSlug: required } : {}),
      }),
    send: () => {
      const body: Record<string, unknown> = {
        ...form,
        typebotExpires: Number(form.typebotExpires) || 0,
        typebotDelayMessage: Number(form.typebotDelayMessage) || 0,
      };
      if (!form.jsonContent.trim()) delete body.jsonContent;
      return saveRecord<IntegrationView>("/queueIntegration", integrationId, body);
    },
    successKey: "integrations.saved",
    onDone: (saved) => {
      onSaved?.(saved);
      onOpenChange(false);
    },
  });

  useEffect(() => {
    if (!open) return;
    submit.setErrors({});
    setForm(EMPTY);
    setStored(null);
    if (integrationId === null) return;
    setLoading(true);
    api.get<IntegrationView>(`/queueIntegration/${integrationId}`).then((row) => {
      setStored(row);
      setForm({
        type: row.type,
        name: row.name,
        projectName: row.projectName,
        jsonContent: "",
        language: row.language,
        urlN8N: row.urlN8N,
        typebotSlug: row.typebotSlug,
        typebotExpires: String(row.typebotExpires),
        typebotDelayMessage: String(row.typebotDelayMessage),
        typebotKeywordFinish: row.typebotKeywordFinish,
        typebotKeywordRestart: row.typebotKeywordRestart,
        typebotRestartMessage: row.typebotRestartMessage,
        typebotUnknownMessage: row.typebotUnknownMessage,
      });
    }).catch(() => onOpenChange(false)).finally(() => setLoading(false));
  }, [open, integrationId]);

  const test = async () => {
    setTesting(true);
    try {
      await api.post("/queueIntegration/testSession", {
        projectName: form.projectName,
        jsonContent: form.jsonContent,
        language: form.language,
        ...(integrationId !== null && !form.jsonContent.trim() ? { id: integrationId } : {}),
      });
      toast.success({ key: "integrations.tested" });
    } catch {
      // the api client already showed the error's text
    } finally {
      setTesting(false);
    }
  };

  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      width={620}
      title={integrationId === null ? t("integrations.addTitle") : t("integrations.editTitle")}
      formId="integration-form"
      form={submit}
      submitLabel={integrationId === null ? t("common.add") : t("common.save")}
      disabled={loading}
    >
      <div className="row">
        <div className="field">
          <label>{t("integrations.type")}</label>
          <Select
            label={t("integrations.type")}
            value={form.type}
            onValueChange={(v) => set("type")(v)}
            options={INTEGRATION_TYPES.map((type) => ({
              value: type,
              label: t(`integrations.types.${type}`),
            }))}
          />
        </div>
        <Field label={t("integrations.name")} {...submit.bind("name", form.name, set("name"))} />
      </div>
      {isDialogflow
        ? (
          <>
            <div className="row">
              <Field
                label={t("integrations.projectName")}
                {...submit.bind("projectName", form.projectName, set("projectName"))}
              />
              <div className="field">
                <label>{t("integrations.language")}</label>
                <Select
                  label={t("integrations.language")}
                  value={form.language}
                  onValueChange={set("language")}
                  options={INTEGRATION_LANGUAGES.map((l) => ({ value: l, label: l }))}
                />
              </div>
            </div>
            <TextAreaField
              label={t("integrations.jsonContent")}
              rows={5}
              hint={stored?.hasJsonContent
                ? t("integrations.jsonStored", { email: stored.serviceAccountEmail })
                : undefined}
              {...submit.bind("jsonContent", form.jsonContent, set("jsonContent"))}
            />
            <Button type="button" variant="secondary" onClick={test} disabled={testing}>
              {t("integrations.test")}
            </Button>
          </>
        )
        : (
          <Field
            label={t("integrations.url")}
            placeholder="https://"
            {...submit.bind("urlN8N", form.urlN8N, set("urlN8N"))}
          />
        )}
      {form.type === "webhook" || form.type === "n8n"
        ? stored?.secret
          ? (
            <Field
              label={t("integrations.secret")}
              value={stored.secret}
              readOnly
              hint={t("integrations.secretHint")}
            />
          )
          : null
        : null}
      {form.type === "typebot"
        ? (
          <>
            <div className="row">
              <Field
                label={t("integrations.typebotSlug")}
                {...submit.bind("typebotSlug", form.typebotSlug, set("typebotSlug"))}
              />
              <Field
                label={t("integrations.typebotExpires")}
                type="number"
                min={0}
                {...submit.bind("typebotExpires", form.typebotExpires, set("typebotExpires"))}
              />
              <Field
                label={t("integrations.typebotDelayMessage")}
                type="number"
                min={0}
                {...submit.bind(
                  "typebotDelayMessage",
                  form.typebotDelayMessage,
                  set("typebotDelayMessage"),
                )}
              />
            </div>
            <div className="row">
              <Field
                label={t("integrations.typebotKeywordFinish")}
                {...submit.bind(
                  "typebotKeywordFinish",
                  form.typebotKeywordFinish,
                  set("typebotKeywordFinish"),
                )}
              />
              <Field
                label={t("integrations.typebotKeywordRestart")}
                {...submit.bind(
                  "typebotKeywordRestart",
                  form.typebotKeywordRestart,
                  set("typebotKeywordRestart"),
                )}
              />
            </div>
            <Field
              label={t("integrations.typebotRestartMessage")}
              {...submit.bind(
                "typebotRestartMessage",
                form.typebotRestartMessage,
                set("typebotRestartMessage"),
              )}
            />
            <Field
              label={t("integrations.typebotUnknownMessage")}
              {...submit.bind(
                "typebotUnknownMessage",
                form.typebotUnknownMessage,
                set("typebotUnknownMessage"),
              )}
            />
          </>
        )
        : null}
    </FormDialog>
  );
}
