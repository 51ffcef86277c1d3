import type { ReactNode } from "react";
import * as Dialog from "radix-ui/dialog";
import { useTranslation } from "react-i18next";
import { icon } from "./icon.tsx";

const X = icon("x");

export type ModalProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  description?: ReactNode;
  /** Buttons at the bottom (e.g. Cancel / Save). */
  footer?: ReactNode;
  children?: ReactNode;
  /** Width in px (default 520). */
  width?: number;
};

/**
 * A dialog (radix Dialog: focus trap, Escape, aria) with the app's look:
 *   <Modal open={open} onOpenChange={setOpen} title={t("x.title")} footer={...}>fields</Modal>
 * Put a <form> inside the body and give the footer's submit button `form="<id>"`.
 */
export function Modal(
  { open, onOpenChange, title, description, footer, children, width }: ModalProps,
) {
  const { t } = useTranslation();
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content
          className="dialog-content"
          style={width ? { width: `min(${width}px, calc(100vw - 32px))` } : undefined}
        >
          <div className="dialog-header">
            <Dialog.Title className="dialog-title">{title}</Dialog.Title>
            <Dialog.Close className="icon-btn" aria-label={t("common.close")}>
              <X size={18} aria-hidden="true" />
            </Dialog.Close>
          </div>
          {description
            ? <Dialog.Description className="dialog-description">{description}</Dialog.Description>
            : <Dialog.Description className="visually-hidden">{title}</Dialog.Description>}
          <div className="dialog-body">{children}</div>
          {footer ? <div className="dialog-footer">{footer}</div> : null}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
