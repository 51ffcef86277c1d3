import { useState } from "react";
import { useTranslation } from "react-i18next";
import { api } from "../lib/api.ts";
import { FormDialog } from "../lib/list/FormDialog.tsx";
import { required } from "../lib/list/form_rules.ts";
import { type RecordDialogProps, useRecordForm } from "../lib/list/record_form.ts";
import { PROMPT_DEFAULTS, PROMPT_VOICES, type PromptView } from "../../contract/integrations.ts";
import type { QueueRef } from "../../contract/types.ts";
import { Field } from "../lib/ui/Field.tsx";
import { SelectField } from "../lib/ui/Select.tsx";
import { TextAreaField } from "../lib/ui/TextArea.tsx";

const NO_QUEUE = "none";

/**
 * Add or edit an AI prompt (seeds/002 sections 3, 5, 9): saving needs a queue ('Informe o
 * setor'); keys come back masked, and an unchanged mask keeps the stored key.
 */
export function PromptDialog(dialog: RecordDialogProps<PromptView>) {
  const { t } = useTranslation();
  const [queues, setQueues] = useState<QueueRef[]>([]);
  const form = useRecordForm(dialog, {
    path: "/prompt",
    empty: {
      name: "",
      apiKey: "",
      prompt: "",
      voice: "texto",
      voiceKey: "",
      voiceRegion: "",
      temperature: String(PROMPT_DEFAULTS.temperature),
      maxTokens: String(PROMPT_DEFAULTS.maxTokens),
      maxMessages: String(PROMPT_DEFAULTS.maxMessages),
      queueId: NO_QUEUE,
    },
    onOpen: () => void api.get<QueueRef[]>("/queue").then(setQueues).catch(() => {}),
    rules: {
      name: required(),
      prompt: required(),
      ...(dialog.id === null ? { apiKey: required() } : {}),
      queueId: (v) => (v === NO_QUEUE ? "prompts.queueRequired" : null),
    },
    body: (v) => ({
      ...v,
      temperature: Number(v.temperature),
      maxTokens: Number(v.maxTokens),
      maxMessages: Number(v.maxMessages),
      queueId: v.queueId === NO_QUEUE ? null : Number(v.queueId),
    }),
    successKey: "prompts.toasts.saved",
  });
  const number = (name: "temperature" | "maxTokens" | "maxMessages", min: number) => (
    <Field label={t(`prompts.${name}`)} type="number" min={min} {...form.field(name)} />
  );
  return (
    <FormDialog form={form} width={620} texts="prompts" id="prompt">
      <Field label={t("prompts.name")} {...form.field("name")} />
      <Field
        label={t("prompts.apiKey")}
        type="password"
        autoComplete="off"
        {...form.field("apiKey")}
      />
      <TextAreaField label={t("prompts.prompt")} rows={6} {...form.field("prompt")} />
      <SelectField
        label={t("prompts.queue")}
        {...form.select("queueId")}
        options={[
          { value: NO_QUEUE, label: t("prompts.noQueue") },
          ...queues.map((q) => ({ value: String(q.id), label: q.name })),
        ]}
      />
      <div className="row">
        <SelectField
          label={t("prompts.voice")}
          {...form.select("voice")}
          options={PROMPT_VOICES.map((v) => ({
            value: v,
            label: v === "texto" ? t("prompts.textOnly") : v,
          }))}
        />
        <Field
          label={t("prompts.voiceKey")}
          type="password"
          autoComplete="off"
          {...form.field("voiceKey")}
        />
        <Field label={t("prompts.voiceRegion")} {...form.field("voiceRegion")} />
      </div>
      <div className="row">
        <Field
          label={t("prompts.temperature")}
          type="number"
          step="0.1"
          min={0}
          max={2}
          {...form.field("temperature")}
        />
        {number("maxTokens", 1)}
        {number("maxMessages", 1)}
      </div>
    </FormDialog>
  );
}
