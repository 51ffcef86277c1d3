import {
  cloneElement,
  type ComponentType,
  isValidElement,
  type KeyboardEvent,
  lazy,
  type ReactElement,
  type ReactNode,
  Suspense,
  useState,
} from "react";

/**
 * Menus, popovers and drawers are closed on first paint, and their library (radix + floating-ui,
 * about a fifth of a page's JavaScript) is not needed until someone opens one. `useDeferred`
 * keeps that code in a chunk of its own: until first use the trigger is the plain element with
 * `aria-haspopup`; a click, Enter, Space or ArrowDown loads the module and opens the overlay.
 * The module is loaded once per page; later overlays render it at once.
 */
export function deferredModule<M>(load: () => Promise<M>) {
  let loaded: M | null = null;
  let pending: Promise<M> | null = null;
  return {
    get current(): M | null {
      return loaded;
    },
    load(): Promise<M> {
      pending ??= load().then((m) => (loaded = m));
      return pending;
    },
  };
}

export type DeferredModule<M> = ReturnType<typeof deferredModule<M>>;

export function useDeferred<M>(module: DeferredModule<M>) {
  const [mod, setMod] = useState<M | null>(module.current);
  const [open, setOpen] = useState(false);
  const use = () => {
    void module.load().then((m) => {
      setMod(() => m);
      setOpen(true);
    });
  };
  return { mod, open, setOpen, use };
}

/** The trigger before the overlay's code is loaded: same element, opening it on first use. */
export function DeferredTrigger(
  { trigger, popup, onUse }: { trigger: ReactNode; popup: "menu" | "dialog"; onUse: () => void },
) {
  if (!isValidElement(trigger)) return <>{trigger}</>;
  const element = trigger as ReactElement<Record<string, unknown>>;
  return cloneElement(element, {
    "aria-haspopup": popup,
    "aria-expanded": false,
    onClick: onUse,
    onKeyDown: (event: KeyboardEvent) => {
      if (event.key === "ArrowDown") {
        event.preventDefault();
        onUse();
      }
    },
  });
}

/**
 * The one way to load a part of a page on demand (a dialog, a drawer, a tab, a pane): its code is
 * a chunk of its own, fetched the first time the part renders; `fallback` shows meanwhile.
 *   const TicketView = lazyPart(() => import("./TicketView.tsx").then((m) => m.TicketView));
 *   {uuid ? <TicketView uuid={uuid} /> : null}
 */
export function lazyPart<P extends object>(
  load: () => Promise<ComponentType<P>>,
  fallback: ReactNode = null,
) {
  const Lazy = lazy(() => load().then((component) => ({ default: component })));
  function LazyPart(props: P) {
    return (
      <Suspense fallback={fallback}>
        <Lazy {...props} />
      </Suspense>
    );
  }
  /** Fetches the code ahead of the first render (the module loader keeps it). */
  LazyPart.preload = () => void load();
  return LazyPart;
}

/**
 * A dialog whose code loads the first time it opens, and which is mounted only while open (so
 * each opening starts from a fresh form):
 *   const UserDialog = whenOpen(() => import("./users/UserDialog.tsx").then((m) => m.UserDialog));
 *   <UserDialog open={editing !== null} ... />
 */
export function whenOpen<P extends { open: boolean }>(load: () => Promise<ComponentType<P>>) {
  const Part = lazyPart(load);
  return function WhenOpen(props: P) {
    return props.open ? <Part {...props} /> : null;
  };
}
