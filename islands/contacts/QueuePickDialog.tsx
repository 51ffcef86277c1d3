import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import type { QueueRef } from "../../contract/types.ts";
import { Button } from "../lib/ui/Button.tsx";
import { Modal } from "../lib/ui/Modal.tsx";
import { Select } from "../lib/ui/Select.tsx";

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
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (open) {
      setValue(NONE);
      setError(null);
    }
  }, [open]);
  const confirm = () => {
    if (value === NONE && !optional) {
      setError(t("contacts.pickQueueRequired"));
      return;
    }
    onPick(value === NONE ? null : Number(value));
  };
  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      width={420}
      title={t("contacts.openChat")}
      footer={
        <>
          <Button variant="ghost" onClick={() => onOpenChange(false)}>{t("common.cancel")}</Button>
          <Button variant="primary" onClick={confirm}>{t("contacts.openChat")}</Button>
        </>
      }
    >
      <div className="field">
        <label>{t("contacts.queue")}</label>
        <Select
          label={t("contacts.queue")}
          value={value}
          onValueChange={setValue}
          options={[
            { value: NONE, label: t("contacts.noQueue") },
            ...queues.map((q) => ({ value: String(q.id), label: q.name })),
          ]}
        />
        {error ? <span className="field-error">{error}</span> : null}
      </div>
    </Modal>
  );
}
