import { signal } from "@preact/signals-react";

/**
 * Toasts from anywhere (components, the api client, the socket): `toast.success("...")`,
 * `toast.error(error)`. Rendered by ui/Toaster.tsx with radix Toast, closing after 2000 ms
 * (seeds/000 section 9). An error is turned into text when shown, in the current language.
 */
export const TOAST_DURATION_MS = 2000;

export type ToastKind = "success" | "error" | "info" | "warning";

export type ToastItem = {
  id: number;
  kind: ToastKind;
  /** Text to show, already final. */
  text?: string;
  /** An i18n key (with options) to translate when shown. */
  key?: string;
  values?: Record<string, unknown>;
  /** An error to describe by the catalogue rule (see errors.ts). */
  error?: unknown;
  duration: number;
};

export const toasts = signal<ToastItem[]>([]);

let nextId = 1;

type Content = string | { key: string; values?: Record<string, unknown> };

function push(kind: ToastKind, content: Partial<ToastItem>, duration = TOAST_DURATION_MS) {
  const item: ToastItem = { id: nextId++, kind, duration, ...content };
  // A handful at most: a burst of failures should not bury the screen.
  toasts.value = [...toasts.value.slice(-3), item];
  return item.id;
}

function content(value: Content): Partial<ToastItem> {
  return typeof value === "string" ? { text: value } : { key: value.key, values: value.values };
}

let markLayerShown: () => void = () => {};
/** Resolves once the toast layer has been painted (ToastLayer.tsx calls layerShown). */
const layerShownOnce = new Promise<void>((resolve) => markLayerShown = resolve);
/** A toast layer that never arrives (its chunk failed) must not hold a redirect for ever. */
const LAYER_WAIT_MAX_MS = 5000;

/** Called by ToastLayer.tsx once mounted: the toasts are on screen from now on. */
export function layerShown() {
  markLayerShown();
}

/**
 * Runs `then` `ms` after the toasts are on screen: the layer's code loads with the first toast
 * (Toaster.tsx), and on a slow network or a busy machine that can take longer than the second a
 * guard waits before redirecting, so the message explaining the redirect would never show.
 * Returns a cancel function (for an effect's cleanup).
 */
export function afterToastShown(ms: number, then: () => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let cancelled = false;
  const waitMax = new Promise<void>((resolve) => setTimeout(resolve, LAYER_WAIT_MAX_MS));
  void Promise.race([layerShownOnce, waitMax]).then(() => {
    if (!cancelled) timer = setTimeout(then, ms);
  });
  return () => {
    cancelled = true;
    clearTimeout(timer);
  };
}

export const toast = {
  success: (value: Content, duration?: number) => push("success", content(value), duration),
  info: (value: Content, duration?: number) => push("info", content(value), duration),
  warning: (value: Content, duration?: number) => push("warning", content(value), duration),
  /** Shows an error by the catalogue rule: translated code, else its message, else a generic text. */
  error: (error: unknown, duration?: number) => push("error", { error }, duration),
  dismiss(id: number) {
    toasts.value = toasts.value.filter((t) => t.id !== id);
  },
};
