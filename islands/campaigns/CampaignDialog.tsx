import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { api } from "../lib/api.ts";
import {
  type CampaignVariable,
  CONFIRMATION_FIELDS,
  editableParts,
  MESSAGE_FIELDS,
} from "../../contract/campaign_rules.ts";
import { CAMPAIGN_MESSAGE_VARIABLES } from "../../contract/message_variables.ts";
import type { CampaignView } from "../../contract/campaign_types.ts";
import { FormDialog } from "../lib/list/FormDialog.tsx";
import { type RecordDialogProps, useRecordForm } from "../lib/list/record_form.ts";
import { AttachmentField } from "../lib/ui/AttachmentField.tsx";
import { Field } from "../lib/ui/Field.tsx";
import { SelectField } from "../lib/ui/Select.tsx";
import { Tabs } from "../lib/ui/Tabs.tsx";
import { TextAreaField } from "../lib/ui/TextArea.tsx";
import { VariableList } from "../lib/ui/VariableList.tsx";
import { TemplateFields, templateKey } from "../lib/ui/TemplateFields.tsx";
import type { Capabilities, WindowTemplate } from "../../contract/channels.ts";
import { length, LIMITS } from "../../contract/validation.ts";
import { useCompanyClock } from "../lib/clock.ts";
import { bodyOf, type CampaignForm, emptyForm, formOf, NONE } from "./form.ts";

type Named = { id: number; name: string };
type Connection = Named & { capabilities?: Capabilities };

/**
 * Issue 45: the approved templates of the chosen connection when it sends templates (a Cloud
 * API number); `window24h`: it takes templates only, so the free-form parts are hidden.
 */
function useTemplates(connection: Connection | undefined) {
  const [templates, setTemplates] = useState<WindowTemplate[]>([]);
  const sends = connection?.capabilities?.templates === true;
  useEffect(() => {
    setTemplates([]);
    if (!connection || !sends) return;
    api.get<{ templates: (WindowTemplate & { status: string })[] }>(
      `/whatsapp/${connection.id}/templates`,
    ).then((r) => setTemplates(r.templates.filter((x) => x.status === "approved")))
      .catch(() => {});
  }, [connection?.id, sends]);
  return { templates, sends, only: connection?.capabilities?.window24h === true };
}

/** The options of the dialog's selects, read once per opening. */
function useChoices(open: boolean) {
  const [choices, setChoices] = useState<Record<string, Connection[]>>({});
  const [shortcuts, setShortcuts] = useState<string[]>([]);
  useEffect(() => {
    if (!open) return;
    Promise.all([
      api.get<Connection[]>("/whatsapp"),
      api.get<Named[]>("/contact-lists/list"),
      api.get<Named[]>("/tags/list"),
      api.get<Named[]>("/files/list"),
      api.get<{ key: string; value: unknown }[]>("/campaign-settings"),
    ]).then(([whatsapps, lists, tags, files, settings]) => {
      setChoices({ whatsapps, lists, tags, files });
      const saved = settings.find((s) => s.key === "variables")?.value;
      setShortcuts(Array.isArray(saved) ? saved.map((v: CampaignVariable) => v.key) : []);
    }).catch(() => {});
  }, [open]);
  return { choices, shortcuts };
}

/**
 * Add or edit a campaign (seeds/002 sections 3, 4, 5): name 2 to 50, connection, contact list or
 * tag, file list, schedule, confirmation, message1..5 and confirmationMessage1..5 tabs, and its
 * attachment, sent after the campaign is saved. A campaign that may not change is shown
 * read-only; a CANCELADA one allows its messages only.
 */
export function CampaignDialog(dialog: RecordDialogProps<CampaignView>) {
  const { t } = useTranslation();
  const { choices, shortcuts } = useChoices(dialog.open);
  const clock = useCompanyClock();
  // What a campaign text may use: the message variables but {{user}}, the recipient's and the
  // settings' shortcuts (contract/message_variables.ts; the server refuses any other).
  const tokens = [
    ...["nome", "numero", "email"].map((v) => ({ token: `{${v}}`, text: t(`variables.${v}`) })),
    ...shortcuts.map((k) => ({ token: `{${k}}`, text: t("variables.shortcut") })),
  ];
  const form = useRecordForm(dialog, {
    path: "/campaigns",
    empty: { ...emptyForm(), confirmation: "false" } as CampaignForm,
    values: (c) => formOf(c, clock.input),
    rules: { name: length(LIMITS.name) },
    body: (values, stored) => {
      const body = bodyOf(values, values.confirmation === "true");
      // A cancelled campaign takes its messages only (seeds/002 section 4).
      return stored && editableParts(stored, new Date()) === "messages"
        ? Object.fromEntries([...MESSAGE_FIELDS, ...CONFIRMATION_FIELDS].map((f) => [f, body[f]]))
        : body;
    },
    file: { stored: (c) => c.mediaName },
    successKey: "campaigns.saved",
  });
  const parts = form.record ? editableParts(form.record, new Date()) : "all";
  const locked = parts !== "all";
  const connection = choices.whatsapps?.find((w) => String(w.id) === form.values.whatsappId);
  const channel = useTemplates(connection);
  const confirmation = !channel.only && form.values.confirmation === "true";
  const parameters = JSON.parse(form.values.templateParameters) as string[];
  const chooseTemplate = (key: string) => {
    const found = channel.templates.find((x) => templateKey(x) === key);
    form.set("template", key);
    // The first variable starts as the recipient's name, as the composer's does.
    form.set(
      "templateParameters",
      JSON.stringify(Array.from({ length: found?.parameters ?? 0 }, (_, i) => i ? "" : "{nome}")),
    );
  };
  const select = (field: string, label: string, list: Named[] | undefined) => (
    <SelectField
      label={label}
      {...form.select(field)}
      disabled={locked}
      options={[
        { value: NONE, label: t("campaigns.none") },
        ...(list ?? []).map((x) => ({ value: String(x.id), label: x.name })),
      ]}
    />
  );
  const texts = (fields: readonly string[], key: string) =>
    fields.map((f, i) => ({
      value: f,
      label: t(key, { n: i + 1 }),
      content: (
        <TextAreaField
          label={t(key, { n: i + 1 })}
          rows={5}
          disabled={parts === "none"}
          {...form.field(f)}
        />
      ),
    }));
  return (
    <FormDialog
      form={form}
      title={t(dialog.id === null ? "campaigns.add" : "campaigns.edit")}
      description={parts === "none" ? t("campaigns.notEditable") : undefined}
      id="campaign"
      width={760}
      disabled={form.loading || parts === "none"}
      submitLabel={t("common.save")}
    >
      <Field label={t("campaigns.name")} autoFocus disabled={locked} {...form.field("name")} />
      {select("whatsappId", t("campaigns.whatsapp"), choices.whatsapps)}
      {select("contactListId", t("campaigns.contactList"), choices.lists)}
      {select("tagListId", t("campaigns.tagList"), choices.tags)}
      {channel.only ? null : select("fileListId", t("campaigns.fileList"), choices.files)}
      <Field
        label={t("campaigns.scheduledAt")}
        type="datetime-local"
        disabled={locked}
        {...form.field("scheduledAt")}
      />
      {channel.sends
        ? (
          <TemplateFields
            templates={channel.templates}
            chosen={form.values.template}
            onChoose={chooseTemplate}
            values={parameters}
            onValues={(v) => form.set("templateParameters", JSON.stringify(v))}
            error={form.errors.template}
            disabled={locked}
          />
        )
        : null}
      {channel.only ? null : (
        <>
          <AttachmentField
            attachment={form.attachment}
            label={t("campaigns.media")}
            removeLabel={t("common.delete")}
            testId="campaign-media"
            readOnly={locked}
          />
          <label className="checkbox-row">
            <input
              type="checkbox"
              checked={confirmation}
              disabled={locked}
              onChange={(e) => form.set("confirmation", String(e.target.checked))}
            />{" "}
            {t("campaigns.confirmation")}
          </label>
          <Tabs
            label={t("campaigns.message", { n: "" })}
            tabs={[
              ...texts(MESSAGE_FIELDS, "campaigns.message"),
              ...(confirmation ? texts(CONFIRMATION_FIELDS, "campaigns.confirmationMessage") : []),
            ]}
          />
        </>
      )}
      <VariableList variables={CAMPAIGN_MESSAGE_VARIABLES} tokens={tokens} />
    </FormDialog>
  );
}
