import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { api } from "../lib/api.ts";
import { FormDialog, saveRecord, useFormSubmit } from "../lib/list/FormDialog.tsx";
import { PROMPT_DEFAULTS, PROMPT_VOICES, type PromptView } from "../../contract/integrations.ts";
import type { QueueRef } from "../../contract/types.ts";
import { Field } from "../lib/ui/Field.tsx";
import { Select } from "../lib/ui/Select.tsx";
import { TextAreaField } from "../lib/ui/TextArea.tsx";
import { check, type Rule } from "../../contract/validation.ts";

const NO_QUEUE = "none";
const required: Rule = (v) => (v.trim() ? null : "people.validation.required");

type Form = {
  name: string;
  apiKey: string;
  prompt: string;
  voice: string;
  voiceKey: string;
  voiceRegion: string;
  temperature: string;
  maxTokens: string;
  maxMessages: string;
  queueId: string;
};

const EMPTY: Form = {
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
};

/**
 * Add or edit an AI prompt (seeds/002 sections 3, 5, 9): saving needs a queue ('Informe o
 * setor'); keys come back masked, and an unchanged mask keeps the stored key.
 */
export function PromptDialog(
  { open, onOpenChange, promptId, onSaved }: {
    open: boolean;
    onOpenChange: (open: boolean) => void;
    promptId: number | null;
    onSaved?: (saved: PromptView) => void;
  },
) {
  const { t } = useTranslation();
  const [form, setForm] = useState<Form>(EMPTY);
  const [queues, setQueues] = useState<QueueRef[]>([]);
  const [loading, setLoading] = useState(false);
  const set = (key: keyof Form) => (value: string) => setForm((f) => ({ ...f, [key]: value }));
  const submit = useFormSubmit({
    validate: () =>
      check(form, {
        name: required,
        prompt: required,
        ...(promptId === null ? { apiKey: required } : {}),
        queueId: (v) => (v === NO_QUEUE ? "prompts.queueRequired" : null),
      }),
    send: () =>
      saveRecord<PromptView>("/prompt", promptId, {
        ...form,
        temperature: Number(form.temperature),
        maxTokens: Number(form.maxTokens),
        maxMessages: Number(form.maxMessages),
        queueId: form.queueId === NO_QUEUE ? null : Number(form.queueId),
      }),
    successKey: "prompts.toasts.saved",
    onDone: (saved) => {
      onSaved?.(saved);
      onOpenChange(false);
    },
  });

  useEffect(() => {
    if (!open) return;
    submit.setErrors({});
    setForm(EMPTY);
    api.get<QueueRef[]>("/queue").then(setQueues).catch(() => {});
    if (promptId === null) return;
    setLoading(true);
    api.get<PromptView>(`/prompt/${promptId}`).then((p) =>
      setForm({
        name: p.name,
        apiKey: p.apiKey,
        prompt: p.prompt,
        voice: p.voice,
        voiceKey: p.voiceKey,
        voiceRegion: p.voiceRegion,
        temperature: String(p.temperature),
        maxTokens: String(p.maxTokens),
        maxMessages: String(p.maxMessages),
        queueId: String(p.queueId),
      })
    ).catch(() => onOpenChange(false)).finally(() => setLoading(false));
  }, [open, promptId]);

  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      width={620}
      title={promptId === null ? t("prompts.addTitle") : t("prompts.editTitle")}
      formId="prompt-form"
      form={submit}
      submitLabel={promptId === null ? t("common.add") : t("common.save")}
      disabled={loading}
    >
      <Field label={t("prompts.name")} {...submit.bind("name", form.name, set("name"))} />
      <Field
        label={t("prompts.apiKey")}
        type="password"
        autoComplete="off"
        {...submit.bind("apiKey", form.apiKey, set("apiKey"))}
      />
      <TextAreaField
        label={t("prompts.prompt")}
        rows={6}
        {...submit.bind("prompt", form.prompt, set("prompt"))}
      />
      <div className="field">
        <label>{t("prompts.queue")}</label>
        <Select
          label={t("prompts.queue")}
          value={form.queueId}
          onValueChange={set("queueId")}
          options={[
            { value: NO_QUEUE, label: t("prompts.noQueue") },
            ...queues.map((q) => ({ value: String(q.id), label: q.name })),
          ]}
        />
        {submit.errors.queueId
          ? <span className="field-error" role="alert">{submit.errors.queueId}</span>
          : null}
      </div>
      <div className="row">
        <div className="field">
          <label>{t("prompts.voice")}</label>
          <Select
            label={t("prompts.voice")}
            value={form.voice}
            onValueChange={set("voice")}
            options={PROMPT_VOICES.map((v) => ({
              value: v,
              label: v === "texto" ? t("prompts.textOnly") : v,
            }))}
          />
        </div>
        <Field
          label={t("prompts.voiceKey")}
          type="password"
          autoComplete="off"
          {...submit.bind("voiceKey", form.voiceKey, set("voiceKey"))}
        />
        <Field
          label={t("prompts.voiceRegion")}
          {...submit.bind("voiceRegion", form.voiceRegion, set("voiceRegion"))}
        />
      </div>
      <div className="row">
        <Field
          label={t("prompts.temperature")}
          type="number"
          step="0.1"
          min={0}
          max={2}
          {...submit.bind("temperature", form.temperature, set("temperature"))}
        />
        <Field
          label={t("prompts.maxTokens")}
          type="number"
          min={1}
          {...submit.bind("maxTokens", form.maxTokens, set("maxTokens"))}
        />
        <Field
          label={t("prompts.maxMessages")}
          type="number"
          min={1}
          {...submit.bind("maxMessages", form.maxMessages, set("maxMessages"))}
        />
      </div>
    </FormDialog>
  );
}
