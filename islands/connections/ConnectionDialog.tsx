import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { api } from "../lib/api.ts";
import { FormDialog } from "../lib/list/FormDialog.tsx";
import { FormTabs } from "../lib/list/FormTabs.tsx";
import { type RecordDialogProps, useRecordForm } from "../lib/list/record_form.ts";
import { toast } from "../lib/toast.ts";
import { IconButton } from "../lib/ui/Button.tsx";
import { Field } from "../lib/ui/Field.tsx";
import { SelectField } from "../lib/ui/Select.tsx";
import { TextAreaField } from "../lib/ui/TextArea.tsx";
import { VariableList } from "../lib/ui/VariableList.tsx";
import { MultiSelect, SwitchField } from "./FormControls.tsx";
import { CloudFields } from "./CloudFields.tsx";
import { capabilitiesOf, DEFAULT_CHANNEL, isChannelKind } from "../../contract/channels.ts";
import {
  type Connection,
  connectionRules,
  emptyForm,
  formOf,
  PROVIDERS,
  type QueueItem,
  requestBody,
} from "./model.ts";
import { icon } from "../lib/ui/icon.tsx";
import { CLOUD_FIELDS } from "../../contract/connection.ts";

const RefreshCw = icon("refresh-cw");

export type PromptItem = { id: number; name: string };

type NumberKey = "expiresTicket" | "maxUseBotQueues" | "timeSendQueue" | "timeUseBotQueues";
type TextKey = "greetingMessage" | "complationMessage" | "outOfHoursMessage" | "ratingMessage";

/** The fields of each tab: a refused save shows the tab of the first field in error. */
const GENERAL = [
  "name",
  "provider",
  "isDefault",
  "queueIds",
  "promptId",
  "integrationId",
  ...CLOUD_FIELDS,
];
const MESSAGES = ["greetingMessage", "complationMessage", "outOfHoursMessage", "ratingMessage"];
const AUTOMATION = [
  "expiresTicket",
  "expiresInactiveMessage",
  "timeSendQueue",
  "sendIdQueue",
  "timeUseBotQueues",
  "maxUseBotQueues",
];

/**
 * Add/edit a connection (seeds/000 sections 2, 3, 5 and 9): name (2 to 50), provider (real
 * WhatsApp by default, or the simulator), default flag, queues, prompt (when the prompts area
 * exists), the automatic messages and the timers. Server refusals (ERR_WAPP_GREETING_REQUIRED,
 * ERR_NO_OTHER_WHATSAPP, ERR_PLAN_LIMIT...) are shown as translated toasts; the greeting's also
 * under its field, on its tab.
 */
export function ConnectionDialog(
  { queues, prompts, integrations = null, ...dialog }: RecordDialogProps<Connection> & {
    queues: QueueItem[];
    /** null: the prompts area does not exist here, the field is hidden. */
    prompts: PromptItem[] | null;
    /** null: the plan has no integrations, the field is hidden. */
    integrations?: PromptItem[] | null;
  },
) {
  const { t } = useTranslation();
  /**
   * A credentials channel just added: the dialog stays open on the saved connection, which shows
   * the webhook URL to paste into Meta (it exists only once saved).
   */
  const stayOpen = useRef(false);
  const form = useRecordForm({
    ...dialog,
    onOpenChange: (open) => {
      if (!open && stayOpen.current) stayOpen.current = false;
      else dialog.onOpenChange(open);
    },
    onSaved: (saved) => {
      if (form.isNew && saved.capabilities.credentials) {
        stayOpen.current = true;
        // The form goes on as the saved record's (the first connection became the default);
        // secrets are not shown again: blank from now on means 'keep the stored one'.
        const stored = formOf(saved);
        for (const key of Object.keys(stored) as (keyof typeof stored)[]) {
          form.set(key, stored[key]);
        }
      }
      dialog.onSaved?.(saved);
    },
  }, {
    path: "/whatsapp",
    empty: emptyForm(),
    values: formOf,
    rules: (values, record) => connectionRules(values, record === null),
    body: (values) => requestBody(values),
    codeFields: { ERR_WAPP_GREETING_REQUIRED: "greetingMessage" },
    successKey: "connections.toasts.saved",
  });
  const values = form.values;
  const set = form.set;
  const editing = form.record;
  /** A token regenerated here: shown this once (the server keeps only its hash, issue 35). */
  const [freshToken, setFreshToken] = useState<string | null>(null);
  useEffect(() => setFreshToken(null), [dialog.open, dialog.id]);

  const regenerateToken = async () => {
    if (!editing) return;
    try {
      const saved = await api.post<Connection>(`/whatsapp/${editing.id}/token`, {}, {
        quiet: true,
      });
      setFreshToken(saved.token ?? null);
      dialog.onSaved?.({ ...saved, token: undefined });
      toast.success({ key: "connections.toasts.tokenRegenerated" });
    } catch (error) {
      toast.error(error);
    }
  };

  const label = (key: string) => t(`connections.form.${key}`);
  const minutes = (key: NumberKey, hint = true) => (
    <Field
      label={label(key)}
      name={key}
      type="number"
      min={0}
      value={String(values[key])}
      onChange={(e) => set(key, e.target.value === "" ? 0 : Number(e.target.value))}
      error={form.errors[key]}
      hint={hint ? label("minutesZeroOff") : undefined}
    />
  );
  const message = (key: TextKey) => <TextAreaField label={label(key)} {...form.field(key)} />;
  const pick = (key: "promptId" | "integrationId", items: PromptItem[] | null) =>
    items
      ? (
        <div className="span-2">
          <SelectField
            label={label(key === "promptId" ? "prompt" : "integration")}
            name={key}
            value={values[key] ? String(values[key]) : "none"}
            onValueChange={(v) => set(key, v === "none" ? null : Number(v))}
            options={[
              { value: "none", label: label("noPrompt") },
              ...items.map((p) => ({ value: String(p.id), label: p.name })),
            ]}
          />
        </div>
      )
      : null;

  const general = (
    <div className="form-grid">
      <Field label={label("name")} {...form.field("name")} autoFocus maxLength={60} />
      <SelectField
        label={label("provider")}
        name="provider"
        value={values.provider}
        onValueChange={(v) => set("provider", isChannelKind(v) ? v : DEFAULT_CHANNEL)}
        // A saved connection's credentials live with its channel: it cannot move to or from one.
        disabled={editing !== null && capabilitiesOf(editing.provider).credentials}
        options={PROVIDERS.filter((p) =>
          editing === null || !capabilitiesOf(p).credentials ||
          capabilitiesOf(editing.provider).credentials
        ).map((p) => ({ value: p, label: t(`connections.providers.${p}`) }))}
      />
      {capabilitiesOf(values.provider).credentials
        ? <CloudFields field={form.field} saved={editing} />
        : null}
      <div className="span-2">
        <MultiSelect
          label={label("queues")}
          options={queues.map((q) => ({ id: q.id, label: q.name, color: q.color }))}
          value={values.queueIds}
          onChange={(ids) => set("queueIds", ids)}
          empty={label("noQueues")}
          placeholder={label("queuesPlaceholder")}
        />
      </div>
      {pick("promptId", prompts)}
      {pick("integrationId", integrations)}
      <div className="span-2">
        <SwitchField
          label={label("isDefault")}
          name="isDefault"
          checked={values.isDefault}
          onCheckedChange={(v) => set("isDefault", v)}
          hint={label("isDefaultHint")}
        />
      </div>
      {capabilitiesOf(values.provider).simulated
        ? <p className="span-2 form-note">{label("simulatorNote")}</p>
        : null}
    </div>
  );

  const messages = (
    <div>
      {message("greetingMessage")}
      {message("complationMessage")}
      {message("outOfHoursMessage")}
      {message("ratingMessage")}
      <VariableList />
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
          label={label("token")}
          name="token"
          value={freshToken ?? editing?.tokenHint ?? ""}
          readOnly
          hint={freshToken ? label("tokenOnce") : editing ? undefined : label("tokenOnSave")}
          autoComplete="off"
          spellCheck={false}
        />
        {editing && (
          <IconButton label={label("generateToken")} onClick={regenerateToken}>
            <RefreshCw size={18} aria-hidden="true" />
          </IconButton>
        )}
      </div>
      {minutes("expiresTicket")}
      {minutes("maxUseBotQueues", false)}
      <div className="span-2">
        <TextAreaField
          label={label("expiresInactiveMessage")}
          rows={2}
          {...form.field("expiresInactiveMessage")}
        />
      </div>
      {minutes("timeSendQueue")}
      <SelectField
        label={label("sendIdQueue")}
        name="sendIdQueue"
        value={values.sendIdQueue ? String(values.sendIdQueue) : "none"}
        onValueChange={(v) => set("sendIdQueue", v === "none" ? 0 : Number(v))}
        options={[
          { value: "none", label: label("noQueue") },
          ...queues.map((q) => ({ value: String(q.id), label: q.name })),
        ]}
      />
      {minutes("timeUseBotQueues")}
    </div>
  );

  return (
    <FormDialog
      form={form}
      texts="connections.form"
      width={640}
      id="connection"
      formClassName="connection-form"
      formTestId="connection-form"
      submitTestId="connection-save"
    >
      <FormTabs
        errors={form.errors}
        label={label("sections")}
        tabs={[
          { value: "general", label: label("tabGeneral"), content: general, fields: GENERAL },
          { value: "messages", label: label("tabMessages"), content: messages, fields: MESSAGES },
          {
            value: "automation",
            label: label("tabAutomation"),
            content: automation,
            fields: AUTOMATION,
          },
        ]}
      />
    </FormDialog>
  );
}
