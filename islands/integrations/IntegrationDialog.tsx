import { useState } from "react";
import { useTranslation } from "react-i18next";
import { api } from "../lib/api.ts";
import { FormDialog } from "../lib/list/FormDialog.tsx";
import { required } from "../lib/list/form_rules.ts";
import { type RecordDialogProps, useRecordForm } from "../lib/list/record_form.ts";
import {
  INTEGRATION_LANGUAGES,
  INTEGRATION_TYPES,
  type IntegrationView,
  TYPEBOT_DEFAULTS,
} from "../../contract/integrations.ts";
import { toast } from "../lib/toast.ts";
import { Button } from "../lib/ui/Button.tsx";
import { Field } from "../lib/ui/Field.tsx";
import { SelectField } from "../lib/ui/Select.tsx";
import { TextAreaField } from "../lib/ui/TextArea.tsx";
import { length, LIMITS } from "../../contract/validation.ts";

const EMPTY = {
  type: "typebot",
  name: "",
  projectName: "",
  /** Never shown back: empty keeps the stored one. */
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

type TextKey = Exclude<keyof typeof EMPTY, "type" | "language">;

/**
 * Add or edit a queue integration (seeds/002 sections 3, 5): name 2..50; for n8n, webhook and
 * typebot the URL (and for typebot the slug) is required and projectName becomes the name on the
 * server; dialogflow takes the service account JSON (never shown back) and offers a test.
 */
export function IntegrationDialog(dialog: RecordDialogProps<IntegrationView>) {
  const { t } = useTranslation();
  const [testing, setTesting] = useState(false);
  const form = useRecordForm(dialog, {
    path: "/queueIntegration",
    empty: EMPTY,
    rules: ({ type }, stored) => ({
      name: length(LIMITS.name),
      ...(type !== "dialogflow"
        ? { urlN8N: required() }
        : stored?.hasJsonContent
        ? {}
        : { jsonContent: required() }),
      ...(type === "typebot" ? { typebotSlug: required() } : {}),
    }),
    body: (v) => ({
      ...v,
      typebotExpires: Number(v.typebotExpires) || 0,
      typebotDelayMessage: Number(v.typebotDelayMessage) || 0,
      jsonContent: v.jsonContent.trim() ? v.jsonContent : undefined,
    }),
    successKey: "integrations.saved",
  });
  const { type, jsonContent } = form.values;
  const stored = form.record;
  const text = (
    name: TextKey,
    more: { type?: string; min?: number; placeholder?: string } = {},
  ) => (
    <Field
      label={t(`integrations.${name === "urlN8N" ? "url" : name}`)}
      {...more}
      {...form.field(name)}
    />
  );

  const test = async () => {
    setTesting(true);
    try {
      await api.post("/queueIntegration/testSession", {
        projectName: form.values.projectName,
        jsonContent,
        language: form.values.language,
        ...(dialog.id !== null && !jsonContent.trim() ? { id: dialog.id } : {}),
      });
      toast.success({ key: "integrations.tested" });
    } catch {
      // the api client already showed the error's text
    } finally {
      setTesting(false);
    }
  };

  return (
    <FormDialog form={form} width={620} texts="integrations" id="integration">
      <div className="row">
        <SelectField
          label={t("integrations.type")}
          {...form.select("type")}
          options={INTEGRATION_TYPES.map((v) => ({
            value: v,
            label: t(`integrations.types.${v}`),
          }))}
        />
        {text("name")}
      </div>
      {type === "dialogflow"
        ? (
          <>
            <div className="row">
              {text("projectName")}
              <SelectField
                label={t("integrations.language")}
                {...form.select("language")}
                options={INTEGRATION_LANGUAGES.map((l) => ({ value: l, label: l }))}
              />
            </div>
            <TextAreaField
              label={t("integrations.jsonContent")}
              rows={5}
              hint={stored?.hasJsonContent
                ? t("integrations.jsonStored", { email: stored.serviceAccountEmail })
                : undefined}
              {...form.field("jsonContent")}
            />
            <Button type="button" variant="secondary" onClick={test} disabled={testing}>
              {t("integrations.test")}
            </Button>
          </>
        )
        : text("urlN8N", { placeholder: "https://" })}
      {(type === "webhook" || type === "n8n") && stored?.secret
        ? (
          <Field
            label={t("integrations.secret")}
            value={stored.secret}
            readOnly
            hint={t("integrations.secretHint")}
          />
        )
        : null}
      {type === "typebot"
        ? (
          <>
            <div className="row">
              {text("typebotSlug")}
              {text("typebotExpires", { type: "number", min: 0 })}
              {text("typebotDelayMessage", { type: "number", min: 0 })}
            </div>
            <div className="row">
              {text("typebotKeywordFinish")}
              {text("typebotKeywordRestart")}
            </div>
            {text("typebotRestartMessage")}
            {text("typebotUnknownMessage")}
          </>
        )
        : null}
    </FormDialog>
  );
}
