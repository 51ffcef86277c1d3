import { type ReactNode, useEffect, useRef } from "react";
import { useSignals } from "@preact/signals-react/runtime";
import { toasts } from "../toast.ts";
import { lazyPart } from "./deferred.tsx";

const ToastLayer = lazyPart(() => import("./ToastLayer.tsx").then((m) => m.default));

/**
 * The page and, from the first toast on, the toast layer (ToastLayer.tsx: radix Toast). Most
 * first paints show no toast, so its code is not part of the first load; it is fetched once the
 * page is idle, so that a toast shown just before a redirect still gets painted.
 */
export function Toaster({ children }: { children: ReactNode }) {
  useSignals();
  const shown = useRef(false);
  useEffect(() => {
    const timer = setTimeout(ToastLayer.preload, 500);
    return () => clearTimeout(timer);
  }, []);
  if (toasts.value.length > 0) shown.current = true;
  return (
    <>
      {children}
      {shown.current ? <ToastLayer /> : null}
    </>
  );
}
