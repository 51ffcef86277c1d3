import { type FormEvent, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import RefreshCw from "lucide-react/icons/refresh-cw";
import { api } from "../lib/api.ts";
import { ApiError } from "../lib/errors.ts";
import { toast } from "../lib/toast.ts";
import { Button, IconButton } from "../lib/ui/Button.tsx";
import { Field } from "../lib/ui/Field.tsx";
import { Modal } from "../lib/ui/Modal.tsx";
import { Tabs } from "../lib/ui/Tabs.tsx";
import { MultiSelect, SelectField, SwitchField, TextArea } from "./FormControls.tsx";
import {
  type Connection,
  type ConnectionForm,
  emptyForm,
  formOf,
  nameError,
  PROVIDERS,
  type QueueItem,
  requestBody,
} from "./model.ts";
import { formSubmitDelay } from "../lib/form_delay.ts";

export type PromptItem = { id: number; name: string };

/** Which tab holds a field, to show the tab of a field the server refused. */
const TAB_OF: Record<string, "general" | "messages" | "automation"> = {
  name: "general",
  provider: "general",
  isDefault: "general",
  queueIds: "general",
  promptId: "general",
  integrationId: "general",
  greetingMessage: "messages",
  complationMessage: "messages",
  outOfHoursMessage: "messages",
  ratingMessage: "messages",
  expiresTicket: "automation",
  expiresInactiveMessage: "automation",
  timeSendQueue: "automation",
  sendIdQueue: "automation",
  timeUseBotQueues: "automation",
  maxUseBotQueues: "automation",
};

/**
 * Add/edit a connection (seeds/000 sections 2, 3, 5 and 9): name (2 to 50), provider (real
 * WhatsApp by default, or the simulator), default flag, queues, prompt (when the prompts area
 * exists), the automatic messages and the timers. Server refusals (ERR_WAPP_GREETING_REQUIRED,
 * ERR_NO_OTHER_WHATSAPP, ERR_PLAN_LIMIT...) are shown as translated toasts.
 */
export function ConnectionDialog(
  { open, onOpenChange, editing, queues, prompts, integrations = null, onSaved }: {
    open: boolean;
    onOpenChange: (open: boolean) => void;
    /** The connection being edited; null adds a new one. */
    editing: Connection | null;
    queues: QueueItem[];
    /** null: the prompts area does not exist here, the field is hidden. */
    prompts: PromptItem[] | null;
    /** null: the plan has no integrations, the field is hidden. */
    integrations?: PromptItem[] | null;
    onSaved: (saved: Connection, created: boolean) => void;
  },
) {
  const { t } = useTranslation();
  const [form, setForm] = useState<ConnectionForm>(emptyForm);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [tab, setTab] = useState("general");
  const [saving, setSaving] = useState(false);
  /** A token regenerated here: shown this once (the server keeps only its hash). */
  const [freshToken, setFreshToken] = useState<string | null>(null);

  useEffect(() => {
    if (!open) return;
    setForm(editing ? formOf(editing) : emptyForm());
    setErrors({});
    setTab("general");
    setFreshToken(null);
  }, [open, editing?.id]);

  const set = <K extends keyof ConnectionForm>(key: K, value: ConnectionForm[K]) =>
    setForm((f) => ({ ...f, [key]: value }));
  const num = (key: keyof ConnectionForm) => (e: { target: { value: string } }) =>
    set(key, (e.target.value === "" ? 0 : Number(e.target.value)) as never);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (saving) return;
    const problem = nameError(form.name);
    if (problem) {
      setErrors({ name: problem });
      setTab("general");
      return;
    }
    setErrors({});
    setSaving(true);
    await formSubmitDelay();
    try {
      const body = requestBody(form);
      const saved = editing
        ? await api.put<Connection>(`/whatsapp/${editing.id}`, body, { quiet: true })
        : await api.post<Connection>("/whatsapp", body, { quiet: true });
      toast.success({ key: "connections.toasts.saved" });
      onSaved(saved, !editing);
      onOpenChange(false);
    } catch (error) {
      if (error instanceof ApiError && Object.keys(error.fields).length) {
        const fieldErrors = Object.fromEntries(
          Object.entries(error.fields).map(([field, messages]) => [field, messages[0] ?? ""]),
        );
        setErrors(fieldErrors);
        const first = Object.keys(fieldErrors).find((f) => TAB_OF[f]);
        if (first) setTab(TAB_OF[first]);
      } else if (error instanceof ApiError && error.code === "ERR_WAPP_GREETING_REQUIRED") {
        setTab("messages");
        setErrors({ greetingMessage: t("errors.ERR_WAPP_GREETING_REQUIRED") });
      }
      toast.error(error);
    } finally {
      setSaving(false);
    }
  };

  const regenerateToken = async () => {
    if (!editing) return;
    try {
      const saved = await api.post<Connection>(`/whatsapp/${editing.id}/token`, {}, {
        quiet: true,
      });
      setFreshToken(saved.token ?? null);
      onSaved({ ...saved, token: undefined }, false);
      toast.success({ key: "connections.toasts.tokenRegenerated" });
    } catch (error) {
      toast.error(error);
    }
  };

  const queueOptions = queues.map((q) => ({ id: q.id, label: q.name, color: q.color }));
  const variables = t("connections.form.variablesHint", {
    vars: "{{firstName}}, {{name}}, {{ms}}, {{protocol}}, {{date}}, {{hour}}",
  });

  const general = (
    <div className="form-grid">
      <Field
        label={t("connections.form.name")}
        name="name"
        value={form.name}
        onChange={(e) => set("name", e.target.value)}
        error={errors.name}
        autoFocus
        maxLength={60}
      />
      <SelectField
        label={t("connections.form.provider")}
        name="provider"
        value={form.provider}
        onValueChange={(v) => set("provider", v === "simulator" ? "simulator" : "beta")}
        options={PROVIDERS.map((p) => ({ value: p, label: t(`connections.providers.${p}`) }))}
      />
      <div className="span-2">
        <MultiSelect
          label={t("connections.form.queues")}
          options={queueOptions}
          value={form.queueIds}
          onChange={(ids) => set("queueIds", ids)}
          empty={t("connections.form.noQueues")}
          placeholder={t("connections.form.queuesPlaceholder")}
        />
      </div>
      {prompts
        ? (
          <div className="span-2">
            <SelectField
              label={t("connections.form.prompt")}
              name="promptId"
              value={form.promptId ? String(form.promptId) : "none"}
              onValueChange={(v) => set("promptId", v === "none" ? null : Number(v))}
              options={[
                { value: "none", label: t("connections.form.noPrompt") },
                ...prompts.map((p) => ({ value: String(p.id), label: p.name })),
              ]}
            />
          </div>
        )
        : null}
      {integrations
        ? (
          <div className="span-2">
            <SelectField
              label={t("connections.form.integration")}
              name="integrationId"
              value={form.integrationId ? String(form.integrationId) : "none"}
              onValueChange={(v) => set("integrationId", v === "none" ? null : Number(v))}
              options={[
                { value: "none", label: t("connections.form.noPrompt") },
                ...integrations.map((p) => ({ value: String(p.id), label: p.name })),
              ]}
            />
          </div>
        )
        : null}
      <div className="span-2">
        <SwitchField
          label={t("connections.form.isDefault")}
          name="isDefault"
          checked={form.isDefault}
          onCheckedChange={(v) => set("isDefault", v)}
          hint={t("connections.form.isDefaultHint")}
        />
      </div>
      {form.provider === "simulator"
        ? <p className="span-2 form-note">{t("connections.form.simulatorNote")}</p>
        : null}
    </div>
  );

  const messages = (
    <div>
      <TextArea
        label={t("connections.form.greetingMessage")}
        name="greetingMessage"
        value={form.greetingMessage}
        onChange={(e) => set("greetingMessage", e.target.value)}
        error={errors.greetingMessage}
        hint={variables}
      />
      <TextArea
        label={t("connections.form.complationMessage")}
        name="complationMessage"
        value={form.complationMessage}
        onChange={(e) => set("complationMessage", e.target.value)}
        error={errors.complationMessage}
      />
      <TextArea
        label={t("connections.form.outOfHoursMessage")}
        name="outOfHoursMessage"
        value={form.outOfHoursMessage}
        onChange={(e) => set("outOfHoursMessage", e.target.value)}
        error={errors.outOfHoursMessage}
      />
      <TextArea
        label={t("connections.form.ratingMessage")}
        name="ratingMessage"
        value={form.ratingMessage}
        onChange={(e) => set("ratingMessage", e.target.value)}
        error={errors.ratingMessage}
      />
    </div>
  );

  const automation = (
    <div className="form-grid">
      <div className="span-2 token-row">
        {
          /* The server generates the API token (issue 16); regenerating replaces it at once and
            shows the new one this once: afterwards only its hint (issue 35). */
        }
        <Field
          label={t("connections.form.token")}
          name="token"
          value={freshToken ?? editing?.tokenHint ?? ""}
          readOnly
          hint={freshToken
            ? t("connections.form.tokenOnce")
            : editing
            ? undefined
            : t("connections.form.tokenOnSave")}
          autoComplete="off"
          spellCheck={false}
        />
        {editing && (
          <IconButton
            label={t("connections.form.generateToken")}
            onClick={regenerateToken}
          >
            <RefreshCw size={18} aria-hidden="true" />
          </IconButton>
        )}
      </div>
      <Field
        label={t("connections.form.expiresTicket")}
        name="expiresTicket"
        type="number"
        min={0}
        value={String(form.expiresTicket)}
        onChange={num("expiresTicket")}
        error={errors.expiresTicket}
        hint={t("connections.form.minutesZeroOff")}
      />
      <Field
        label={t("connections.form.maxUseBotQueues")}
        name="maxUseBotQueues"
        type="number"
        min={0}
        value={String(form.maxUseBotQueues)}
        onChange={num("maxUseBotQueues")}
        error={errors.maxUseBotQueues}
      />
      <div className="span-2">
        <TextArea
          label={t("connections.form.expiresInactiveMessage")}
          name="expiresInactiveMessage"
          value={form.expiresInactiveMessage}
          onChange={(e) => set("expiresInactiveMessage", e.target.value)}
          error={errors.expiresInactiveMessage}
          rows={2}
        />
      </div>
      <Field
        label={t("connections.form.timeSendQueue")}
        name="timeSendQueue"
        type="number"
        min={0}
        value={String(form.timeSendQueue)}
        onChange={num("timeSendQueue")}
        error={errors.timeSendQueue}
        hint={t("connections.form.minutesZeroOff")}
      />
      <SelectField
        label={t("connections.form.sendIdQueue")}
        name="sendIdQueue"
        value={form.sendIdQueue ? String(form.sendIdQueue) : "none"}
        onValueChange={(v) => set("sendIdQueue", v === "none" ? 0 : Number(v))}
        options={[
          { value: "none", label: t("connections.form.noQueue") },
          ...queues.map((q) => ({ value: String(q.id), label: q.name })),
        ]}
      />
      <Field
        label={t("connections.form.timeUseBotQueues")}
        name="timeUseBotQueues"
        type="number"
        min={0}
        value={String(form.timeUseBotQueues)}
        onChange={num("timeUseBotQueues")}
        error={errors.timeUseBotQueues}
        hint={t("connections.form.minutesZeroOff")}
      />
    </div>
  );

  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      title={t(editing ? "connections.form.editTitle" : "connections.form.addTitle")}
      width={640}
      footer={
        <>
          <Button variant="ghost" onClick={() => onOpenChange(false)}>{t("common.cancel")}</Button>
          <Button
            variant="primary"
            type="submit"
            form="connection-form"
            loading={saving}
            data-testid="connection-save"
          >
            {t(editing ? "common.save" : "common.add")}
          </Button>
        </>
      }
    >
      <form
        id="connection-form"
        className="connection-form"
        onSubmit={submit}
        noValidate
        data-testid="connection-form"
      >
        <Tabs
          value={tab}
          onValueChange={setTab}
          label={t("connections.form.sections")}
          tabs={[
            { value: "general", label: t("connections.form.tabGeneral"), content: general },
            { value: "messages", label: t("connections.form.tabMessages"), content: messages },
            {
              value: "automation",
              label: t("connections.form.tabAutomation"),
              content: automation,
            },
          ]}
        />
      </form>
    </Modal>
  );
}
