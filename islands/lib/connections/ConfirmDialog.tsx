import type { ReactNode } from "react";
import * as AlertDialog from "radix-ui/alert-dialog";
import { useTranslation } from "react-i18next";

/**
 * A yes/no question before something that cannot be undone (deleting or disconnecting a
 * connection): radix AlertDialog, so focus starts on Cancel and Escape cancels.
 */
export function ConfirmDialog(
  { open, onOpenChange, title, children, confirmLabel, onConfirm, danger = true }: {
    open: boolean;
    onOpenChange: (open: boolean) => void;
    title: ReactNode;
    children: ReactNode;
    confirmLabel: string;
    onConfirm: () => void;
    danger?: boolean;
  },
) {
  const { t } = useTranslation();
  return (
    <AlertDialog.Root open={open} onOpenChange={onOpenChange}>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="dialog-overlay" />
        <AlertDialog.Content className="dialog-content confirm-dialog" data-testid="confirm-dialog">
          <div className="dialog-header">
            <AlertDialog.Title className="dialog-title">{title}</AlertDialog.Title>
          </div>
          <AlertDialog.Description className="dialog-description">
            {children}
          </AlertDialog.Description>
          <div className="dialog-footer">
            <AlertDialog.Cancel className="btn btn-ghost">{t("common.cancel")}</AlertDialog.Cancel>
            <AlertDialog.Action
              className={`btn ${danger ? "btn-danger" : "btn-primary"}`}
              onClick={onConfirm}
            >
              {confirmLabel}
            </AlertDialog.Action>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
