import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { QueueRef } from "../../contract/types.ts";
import { FormDialog } from "../lib/list/FormDialog.tsx";
import { useFormSubmit } from "../lib/list/form_submit.ts";
import { SelectField } from "../lib/ui/Select.tsx";

const NONE = "none";

/**
 * Which queue a new chat goes to, for a user with several queues (seeds/000 section 5 'New
 * ticket': a queue is needed unless the user is admin, 'Selecione uma fila').
 */
export function QueuePickDialog(
  { open, onOpenChange, queues, optional, onPick }: {
    open: boolean;
    onOpenChange: (open: boolean) => void;
    queues: QueueRef[];
    /** Admins may open a chat without a queue. */
    optional: boolean;
    onPick: (queueId: number | null) => void;
  },
) {
  const { t } = useTranslation();
  const [value, setValue] = useState<string>(NONE);
  const form = useFormSubmit({
    validate: (): Record<string, string> =>
      value === NONE && !optional ? { queueId: "contacts.pickQueueRequired" } : {},
    send: () => Promise.resolve(value === NONE ? null : Number(value)),
    onDone: onPick,
    instant: true,
  });
  return (
    <FormDialog
      form={form}
      open={open}
      onOpenChange={onOpenChange}
      width={420}
      title={t("contacts.openChat")}
      id="queue-pick"
      formClassName=""
      submitLabel={t("contacts.openChat")}
    >
      <SelectField
        label={t("contacts.queue")}
        value={value}
        onValueChange={(v) => {
          setValue(v);
          form.clearError("queueId");
        }}
        error={form.errors.queueId}
        options={[
          { value: NONE, label: t("contacts.noQueue") },
          ...queues.map((q) => ({ value: String(q.id), label: q.name })),
        ]}
      />
    </FormDialog>
  );
}
