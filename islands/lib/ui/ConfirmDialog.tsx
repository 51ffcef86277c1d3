import { type ReactNode, useState } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "./Button.tsx";
import { Modal } from "./Modal.tsx";

/**
 * Asks before a destructive action (seeds/001 section 2: 'Deseja realmente excluir este/esse
 * registro?'). `onConfirm` may be async: the button waits, and the dialog closes when it resolves
 * (a rejection keeps it open; the api client has already shown the error).
 *
 *   <ConfirmDialog open={!!target} onOpenChange={...} title={t("queues.deleteTitle", {...})}
 *     message={t("common.confirmDelete")} onConfirm={() => api.delete(`/queue/${id}`)} />
 */
export function ConfirmDialog(
  { open, onOpenChange, title, message, confirmLabel, onConfirm, danger = true }: {
    open: boolean;
    onOpenChange: (open: boolean) => void;
    title: ReactNode;
    message: ReactNode;
    confirmLabel?: string;
    onConfirm: () => unknown | Promise<unknown>;
    danger?: boolean;
  },
) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const confirm = async () => {
    setBusy(true);
    try {
      await onConfirm();
      onOpenChange(false);
    } catch {
      // Shown by whoever failed (the api client's toast); the user may retry or cancel.
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      open={open}
      onOpenChange={(next) => !busy && onOpenChange(next)}
      title={title}
      width={440}
      footer={
        <>
          <Button variant="ghost" onClick={() => onOpenChange(false)} disabled={busy}>
            {t("common.cancel")}
          </Button>
          <Button
            variant={danger ? "danger" : "primary"}
            loading={busy}
            onClick={confirm}
            data-testid="confirm-action"
            autoFocus
          >
            {confirmLabel ?? t("common.confirm")}
          </Button>
        </>
      }
    >
      <p className="confirm-message">{message}</p>
    </Modal>
  );
}
