import { useEffect, useState } from "react";
import { api, type Query } from "./api.ts";
import { listOf } from "./shell/live.ts";
import { SEARCH_DEBOUNCE_MS, SEARCH_MIN_CHARS } from "./list/list_controller.ts";

/**
 * A small list read once (queues, tags, users, connections, quick answers). Quiet: a list that
 * cannot load (a plan without the feature) leaves the choice empty rather than alarming the user.
 */
export function useLookup<T>(
  path: string | null,
  key: string,
  query?: Query,
): { items: T[]; ready: boolean } {
  const [state, setState] = useState<{ items: T[]; ready: boolean }>({ items: [], ready: false });
  const queryKey = JSON.stringify(query ?? {});
  useEffect(() => {
    if (!path) {
      setState({ items: [], ready: true });
      return;
    }
    let live = true;
    api.get<unknown>(path, { query: JSON.parse(queryKey), quiet: true })
      .then((answer) => live && setState({ items: listOf<T>(answer, key), ready: true }))
      .catch(() => live && setState({ items: [], ready: true }));
    return () => {
      live = false;
    };
  }, [path, key, queryKey]);
  return state;
}

/**
 * A search as one types (contacts in the new-ticket dialog, users in the transfer dialog):
 * seeds/000 sections 5 and 9, it waits 500 ms and starts at 3 characters.
 */
export function useSearch<T>(path: string, key: string, text: string): {
  items: T[];
  loading: boolean;
  active: boolean;
} {
  const [items, setItems] = useState<T[]>([]);
  const [loading, setLoading] = useState(false);
  const term = text.trim();
  const active = term.length >= SEARCH_MIN_CHARS;
  useEffect(() => {
    if (!active) {
      setItems([]);
      setLoading(false);
      return;
    }
    setLoading(true);
    const controller = new AbortController();
    const timer = setTimeout(() => {
      api.get<unknown>(path, {
        query: { searchParam: term },
        quiet: true,
        signal: controller.signal,
      })
        .then((answer) => {
          setItems(listOf<T>(answer, key));
          setLoading(false);
        })
        .catch((error) => {
          if (error instanceof DOMException && error.name === "AbortError") return;
          setItems([]);
          setLoading(false);
        });
    }, SEARCH_DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [path, key, term, active]);
  return { items, loading, active };
}
