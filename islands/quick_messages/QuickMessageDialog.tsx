import type { TFunction } from "i18next";
import { useTranslation } from "react-i18next";
import { FormDialog } from "../lib/list/FormDialog.tsx";
import { type RecordDialogProps, useRecordForm } from "../lib/list/record_form.ts";
import type { QuickMessageView } from "../../contract/quick_message_types.ts";
import { AttachmentField } from "../lib/ui/AttachmentField.tsx";
import { Field } from "../lib/ui/Field.tsx";
import { TextAreaField } from "../lib/ui/TextArea.tsx";
import { VariableList } from "../lib/ui/VariableList.tsx";
import { LIMITS } from "../../contract/validation.ts";
import { SelectField } from "../lib/ui/Select.tsx";
import { isAdmin, useUser } from "../lib/session.ts";
import { useLookup } from "../lib/use_lookup.ts";

/** The queue select's value for "no queue" (a select's item cannot have an empty value). */
const NO_QUEUE = "none";

/** seeds/001 section 2: spaces in an attachment's name become underscores. */
export function shownName(name: string): string {
  return name.replace(/\s+/g, "_");
}

/** seeds/001 section 5: the shortcode is required ('Obrigatório'). */
function shortcodeProblem({ shortcode }: { shortcode: string }): Record<string, string> {
  const v = shortcode.trim();
  if (!v) return { shortcode: "quickMessages.required" };
  if (v.length > LIMITS.shortcode.max) return { shortcode: "people.validation.tooLong" };
  return {};
}

/**
 * Who will be offered the answer after "/" (the server's rule, quick_messages/service.ts canSee):
 * a queue's answer its attendants; without a queue, 'Global' everyone, else only its author.
 * Said in the dialog so an admin's answer saved without 'Global' is not silently private
 * (issue 50 item 10); admins see every answer, which the texts say.
 */
function audience(
  t: TFunction,
  geral: boolean,
  queue: string | null,
): string {
  if (queue !== null) return t("quickMessages.audienceQueue", { queue });
  return t(geral ? "quickMessages.audienceGlobal" : "quickMessages.audiencePrivate");
}

/**
 * Add or edit a quick answer (seeds/001 sections 2 'Quick messages', 5): shortcode required
 * ('Obrigatório'), the message, for the whole company (`geral`) or personal, and an attachment
 * uploaded after the answer is saved (POST /quick-messages/:id/media-upload); removing it is a
 * DELETE of the same path. The server checks the file's type and size.
 */
export function QuickMessageDialog(dialog: RecordDialogProps<QuickMessageView>) {
  const { t } = useTranslation();
  const user = useUser();
  // Issue 28: admins choose any queue of the company, attendants one of theirs.
  const admin = isAdmin(user);
  const companyQueues = useLookup<{ id: number; name: string }>(
    admin && dialog.open ? "/queue" : null,
    "queues",
  );
  const queues = admin ? companyQueues.items : user.queues;
  const form = useRecordForm(dialog, {
    path: "/quick-messages",
    empty: { shortcode: "", message: "", geral: false, queueId: NO_QUEUE },
    values: (q) => ({ queueId: q.queueId === null ? NO_QUEUE : String(q.queueId) }),
    validate: shortcodeProblem,
    body: ({ shortcode, message, geral, queueId }) => ({
      shortcode: shortcode.trim(),
      message,
      geral,
      queueId: queueId === NO_QUEUE ? null : Number(queueId),
    }),
    file: {
      stored: (q) => (q.isMedia ? q.mediaName ?? "" : null),
      fields: { typeArch: "quickMessage" },
      rename: shownName,
    },
    successKey: "quickMessages.saved",
    admin: true,
  });
  const attached = form.attachment.name ?? "";
  const queueName = queues.find((q) => String(q.id) === form.values.queueId)?.name;
  return (
    <FormDialog form={form} width={520} texts="quickMessages" id="quick-message">
      <Field label={t("quickMessages.shortcode")} {...form.field("shortcode")} autoFocus />
      <TextAreaField label={t("quickMessages.message")} rows={5} {...form.field("message")} />
      <VariableList />
      <label className="qm-switch">
        <input
          type="checkbox"
          role="switch"
          {...form.checkbox("geral")}
          data-testid="quick-message-geral"
        />
        <span>{t("quickMessages.geral")}</span>
      </label>
      <SelectField
        label={t("quickMessages.queue")}
        {...form.select("queueId")}
        options={[
          { value: NO_QUEUE, label: t("quickMessages.noQueue") },
          ...queues.map((q) => ({ value: String(q.id), label: q.name })),
        ]}
      />
      <p className="field-hint">{t("quickMessages.queueHint")}</p>
      <p className="qm-audience" aria-live="polite" data-testid="quick-message-audience">
        {audience(t, form.values.geral, form.values.queueId === NO_QUEUE ? null : queueName ?? "")}
      </p>
      <AttachmentField
        attachment={form.attachment}
        pickLabel={t("quickMessages.attach")}
        removeLabel={t("quickMessages.removeFile", { name: attached })}
        testId="quick-message"
      />
    </FormDialog>
  );
}
