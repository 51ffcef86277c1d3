import { lazy, type ReactNode, Suspense, useEffect, useRef } from "react";
import { useSignals } from "@preact/signals-react/runtime";
import { toasts } from "../toast.ts";

const loadLayer = () => import("./ToastLayer.tsx");
const ToastLayer = lazy(loadLayer);

/**
 * The page and, from the first toast on, the toast layer (ToastLayer.tsx: radix Toast). Most
 * first paints show no toast, so its code is not part of the first load; it is fetched once the
 * page is idle, so that a toast shown just before a redirect still gets painted.
 */
export function Toaster({ children }: { children: ReactNode }) {
  useSignals();
  const shown = useRef(false);
  useEffect(() => {
    const timer = setTimeout(() => void loadLayer(), 500);
    return () => clearTimeout(timer);
  }, []);
  if (toasts.value.length > 0) shown.current = true;
  return (
    <>
      {children}
      {shown.current
        ? (
          <Suspense fallback={null}>
            <ToastLayer />
          </Suspense>
        )
        : null}
    </>
  );
}
