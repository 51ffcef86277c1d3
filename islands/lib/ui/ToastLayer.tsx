import * as Toast from "radix-ui/toast";
import { useTranslation } from "react-i18next";
import { useSignals } from "@preact/signals-react/runtime";
import { errorText } from "../errors.ts";
import { useEffect, useRef } from "react";
import { layerShown, toast, TOAST_DURATION_MS, type ToastItem, toasts } from "../toast.ts";
import { icon } from "./icon.tsx";

const CircleAlert = icon("circle-alert");
const CircleCheck = icon("circle-check");
const Info = icon("info");
const TriangleAlert = icon("triangle-alert");
const X = icon("x");

const ICONS = {
  success: CircleCheck,
  error: CircleAlert,
  info: Info,
  warning: TriangleAlert,
};

function ToastText({ item }: { item: ToastItem }) {
  const { t } = useTranslation();
  if (item.kind === "error" && item.error !== undefined) return <>{errorText(item.error, t)}</>;
  if (item.key) return <>{t(item.key, item.values ?? {})}</>;
  return <>{item.text}</>;
}

/**
 * radix Toast provider + the current toasts (see toast.ts). Loaded with the first toast
 * (Toaster.tsx), so a page that shows none never downloads it.
 */
export default function ToastLayer() {
  useSignals();
  const { t } = useTranslation();
  useEffect(layerShown, []);
  const viewport = useRef<HTMLOListElement>(null);
  // The room the toasts take (0 when none): on a phone an open dialog moves below it rather than
  // under it (base.css, issue 50 item 16: a toast at the top hid the dialog's close button).
  useEffect(() => {
    const list = viewport.current;
    if (!list) return;
    const root = document.documentElement.style;
    const observer = new ResizeObserver(() => {
      const height = list.getBoundingClientRect().height;
      root.setProperty("--toast-room", `${height > 0 ? Math.ceil(height) + 8 : 0}px`);
    });
    observer.observe(list);
    return () => {
      observer.disconnect();
      root.removeProperty("--toast-room");
    };
  }, []);
  return (
    <Toast.Provider duration={TOAST_DURATION_MS} label={t("common.notifications")}>
      {toasts.value.map((item) => {
        const Icon = ICONS[item.kind];
        return (
          <Toast.Root
            key={item.id}
            className="toast"
            data-kind={item.kind}
            duration={item.duration}
            type={item.kind === "error" ? "foreground" : "background"}
            onOpenChange={(open) => {
              if (!open) setTimeout(() => toast.dismiss(item.id), 150);
            }}
          >
            <Icon size={18} aria-hidden="true" />
            <Toast.Description className="toast-text">
              <ToastText item={item} />
            </Toast.Description>
            <Toast.Close
              className="icon-btn"
              style={{ width: 24, height: 24 }}
              aria-label={t("common.close")}
            >
              <X size={14} aria-hidden="true" />
            </Toast.Close>
          </Toast.Root>
        );
      })}
      <Toast.Viewport ref={viewport} className="toast-viewport" />
    </Toast.Provider>
  );
}
