import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { api } from "../lib/api.ts";
import {
  CONFIRMATION_FIELDS,
  editableParts,
  MESSAGE_FIELDS,
} from "../../contract/campaign_rules.ts";
import type { CampaignView } from "../../contract/campaign_types.ts";
import { FormDialog, saveRecord, useFormSubmit } from "../lib/list/FormDialog.tsx";
import { Field } from "../lib/ui/Field.tsx";
import { Select, type SelectOption } from "../lib/ui/Select.tsx";
import { Tabs } from "../lib/ui/Tabs.tsx";
import { TextAreaField } from "../lib/ui/TextArea.tsx";
import { check, length, LIMITS } from "../../contract/validation.ts";
import { bodyOf, type CampaignForm, emptyForm, formOf, NONE } from "./form.ts";

type Named = { id: number; name: string };

/** The options of the dialog's selects, read once per opening. */
function useChoices(open: boolean) {
  const [choices, setChoices] = useState<Record<string, Named[]>>({});
  useEffect(() => {
    if (!open) return;
    Promise.all([
      api.get<Named[]>("/whatsapp"),
      api.get<Named[]>("/contact-lists/list"),
      api.get<Named[]>("/tags/list"),
      api.get<Named[]>("/files/list"),
    ]).then(([whatsapps, lists, tags, files]) => setChoices({ whatsapps, lists, tags, files }))
      .catch(() => {});
  }, [open]);
  return choices;
}

/**
 * Add or edit a campaign (seeds/002 sections 3, 4, 5): name 2 to 50, connection, contact list or
 * tag, file list, schedule, confirmation, message1..5 and confirmationMessage1..5 tabs. A campaign
 * that may not change is shown read-only; a CANCELADA one allows its messages only.
 */
export function CampaignDialog(
  { open, onOpenChange, campaignId, onSaved }: {
    open: boolean;
    onOpenChange: (open: boolean) => void;
    campaignId: number | null;
    onSaved: (campaign: CampaignView) => void;
  },
) {
  const { t } = useTranslation();
  const [values, setValues] = useState<CampaignForm>(emptyForm);
  const [confirmation, setConfirmation] = useState(false);
  const [parts, setParts] = useState<"all" | "messages" | "none">("all");
  const [media, setMedia] = useState<File | null>(null);
  const [mediaName, setMediaName] = useState<string | null>(null);
  const choices = useChoices(open);
  const set = (field: string) => (value: string) => setValues((v) => ({ ...v, [field]: value }));
  const form = useFormSubmit({
    validate: () => check({ name: values.name }, { name: length(LIMITS.name) }),
    send: async () => {
      const body = bodyOf(values, confirmation);
      // A cancelled campaign takes its messages only (seeds/002 section 4).
      const sent = parts === "messages"
        ? Object.fromEntries(
          [...MESSAGE_FIELDS, ...CONFIRMATION_FIELDS].map((f) => [f, body[f]]),
        )
        : body;
      const saved = await saveRecord<CampaignView>("/campaigns", campaignId, sent);
      if (!media || parts !== "all") return saved;
      // The campaign's own attachment goes after the save (POST /campaigns/:id/media-upload).
      const data = new FormData();
      data.append("file", media);
      return await api.post<CampaignView>(`/campaigns/${saved.id}/media-upload`, data, {
        quiet: true,
      });
    },
    successKey: "campaigns.saved",
    onDone: (saved) => {
      onSaved(saved);
      onOpenChange(false);
    },
  });
  useEffect(() => {
    if (!open) return;
    setValues(emptyForm());
    setConfirmation(false);
    setParts("all");
    setMedia(null);
    setMediaName(null);
    form.setErrors({});
    if (campaignId !== null) {
      api.get<CampaignView>(`/campaigns/${campaignId}`).then((c) => {
        setValues(formOf(c));
        setConfirmation(c.confirmation);
        setParts(editableParts(c, new Date()));
        setMediaName(c.mediaName);
      }).catch(() => {});
    }
  }, [open, campaignId]);
  const locked = parts !== "all";
  const options = (list: Named[] | undefined): SelectOption[] => [
    { value: NONE, label: t("campaigns.none") },
    ...(list ?? []).map((x) => ({ value: String(x.id), label: x.name })),
  ];
  const select = (field: string, label: string, list: Named[] | undefined) => (
    <div className="field">
      <label>{label}</label>
      <Select
        label={label}
        value={values[field]}
        onValueChange={set(field)}
        options={options(list)}
        disabled={locked}
      />
      {form.errors[field] ? <span className="field-error">{form.errors[field]}</span> : null}
    </div>
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
          hint={t("campaigns.variablesHint")}
          {...form.bind(f, values[f], set(f))}
        />
      ),
    }));
  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      title={campaignId === null ? t("campaigns.add") : t("campaigns.edit")}
      description={parts === "none" ? t("campaigns.notEditable") : undefined}
      formId="campaign-form"
      form={form}
      width={760}
      disabled={parts === "none"}
      submitLabel={t("common.save")}
    >
      <Field
        label={t("campaigns.name")}
        autoFocus
        disabled={locked}
        {...form.bind("name", values.name, set("name"))}
      />
      {select("whatsappId", t("campaigns.whatsapp"), choices.whatsapps)}
      {select("contactListId", t("campaigns.contactList"), choices.lists)}
      {select("tagListId", t("campaigns.tagList"), choices.tags)}
      {select("fileListId", t("campaigns.fileList"), choices.files)}
      <Field
        label={t("campaigns.scheduledAt")}
        type="datetime-local"
        disabled={locked}
        {...form.bind("scheduledAt", values.scheduledAt, set("scheduledAt"))}
      />
      <div className="field">
        <label htmlFor="campaign-media">{t("campaigns.media")}</label>
        {mediaName ? <span className="field-hint">{mediaName}</span> : null}
        <input
          id="campaign-media"
          type="file"
          className="input"
          disabled={locked}
          onChange={(e) => setMedia(e.target.files?.[0] ?? null)}
        />
      </div>
      <label className="checkbox-row">
        <input
          type="checkbox"
          checked={confirmation}
          disabled={locked}
          onChange={(e) => setConfirmation(e.target.checked)}
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
    </FormDialog>
  );
}
