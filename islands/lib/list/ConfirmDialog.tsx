import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "../ui/Button.tsx";
import { Modal } from "../ui/Modal.tsx";

/** A yes/no confirmation (deletes): the confirm button is red and carries `confirmLabel`. */
export function ConfirmDialog(
  { open, onOpenChange, title, children, confirmLabel, onConfirm, busy }: {
    open: boolean;
    onOpenChange: (open: boolean) => void;
    title: string;
    children?: ReactNode;
    confirmLabel?: string;
    onConfirm: () => void;
    busy?: boolean;
  },
) {
  const { t } = useTranslation();
  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      title={title}
      width={440}
      footer={
        <>
          <Button variant="ghost" onClick={() => onOpenChange(false)}>{t("common.cancel")}</Button>
          <Button variant="danger" onClick={onConfirm} loading={busy} data-testid="confirm-button">
            {confirmLabel ?? t("common.delete")}
          </Button>
        </>
      }
    >
      {children}
    </Modal>
  );
}
