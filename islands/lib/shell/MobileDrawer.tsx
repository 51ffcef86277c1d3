import type { ReactNode } from "react";
import * as Dialog from "radix-ui/dialog";
import { useTranslation } from "react-i18next";
import { PreferenceButtons } from "./TopBar.tsx";
import { icon } from "../ui/icon.tsx";

const X = icon("x");

/**
 * The side menu as a temporary overlay on narrow screens (seeds/000 section 9): radix Dialog for
 * the focus trap and Escape. Loaded when first opened (AppShell).
 */
export default function MobileDrawer(
  { onClose, children }: { onClose: () => void; children: ReactNode },
) {
  const { t } = useTranslation();
  return (
    <Dialog.Root open onOpenChange={(open) => !open && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className="drawer-sheet">
          <div className="brand">
            <span className="brand-mark" aria-hidden="true">B</span>
            <Dialog.Title className="brand-name">Balcão</Dialog.Title>
            <Dialog.Description className="visually-hidden">
              {t("shell.menu.label")}
            </Dialog.Description>
            <Dialog.Close className="icon-btn" aria-label={t("common.close")}>
              <X size={18} aria-hidden="true" />
            </Dialog.Close>
          </div>
          {children}
          <div className="drawer-prefs">
            <PreferenceButtons />
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
