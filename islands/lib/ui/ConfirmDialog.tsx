import { type ReactNode, useState } from "react";
import * as AlertDialog from "radix-ui/alert-dialog";
import { useTranslation } from "react-i18next";
import { Button } from "./Button.tsx";

/**
 * A confirmation (radix AlertDialog: focus on Cancel, Escape cancels):
 *   <ConfirmDialog open={open} onOpenChange={setOpen} title={t("x.deleteTitle")}
 *     description={t("x.deleteText")} danger onConfirm={() => api.delete(`/x/${id}`)} />
 * While `onConfirm`'s promise runs the button shows it; the dialog closes when it resolves and
 * stays open when it rejects (the api client already showed the error).
 */
export function ConfirmDialog(
  { open, onOpenChange, title, description, confirmLabel, danger, onConfirm }: {
    open: boolean;
    onOpenChange: (open: boolean) => void;
    title: ReactNode;
    description?: ReactNode;
    confirmLabel?: string;
    danger?: boolean;
    onConfirm: () => unknown | Promise<unknown>;
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
      // stays open: the error was shown where it happened
    } finally {
      setBusy(false);
    }
  };
  return (
    <AlertDialog.Root open={open} onOpenChange={onOpenChange}>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="dialog-overlay" />
        <AlertDialog.Content
          className="dialog-content"
          style={{ width: "min(440px, calc(100vw - 32px))" }}
        >
          <div className="dialog-header">
            <AlertDialog.Title className="dialog-title">{title}</AlertDialog.Title>
          </div>
          {description
            ? (
              <AlertDialog.Description className="dialog-description">
                {description}
              </AlertDialog.Description>
            )
            : <AlertDialog.Description className="visually-hidden">{title}
            </AlertDialog.Description>}
          <div className="dialog-footer">
            <AlertDialog.Cancel asChild>
              <Button variant="ghost">{t("common.cancel")}</Button>
            </AlertDialog.Cancel>
            <Button
              variant={danger ? "danger" : "primary"}
              loading={busy}
              onClick={confirm}
              data-testid="confirm-button"
            >
              {confirmLabel ?? t("common.confirm")}
            </Button>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
