import { type RefObject, useEffect, useState } from "react";

/** seeds/000 section 9: contact and user searches wait 500 ms and need 3 or more characters. */
export const SEARCH_DEBOUNCE_MS = 500;
export const SEARCH_MIN_CHARS = 3;
/** seeds/000 section 9: lists load the next page within 100 px of the bottom. */
export const SCROLL_THRESHOLD_PX = 100;

/**
 * The search term to send: the typed text once it has rested 500 ms, or "" while it is shorter
 * than 3 characters (a short term lists everything rather than matching almost everything).
 */
export function useSearchTerm(typed: string): string {
  const [term, setTerm] = useState("");
  useEffect(() => {
    const trimmed = typed.trim();
    const next = trimmed.length >= SEARCH_MIN_CHARS ? trimmed : "";
    const timer = setTimeout(() => setTerm(next), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [typed]);
  return term;
}

/** Is the element scrolled to within SCROLL_THRESHOLD_PX of its bottom? */
export function nearBottom(el: HTMLElement): boolean {
  return el.scrollHeight - el.scrollTop - el.clientHeight < SCROLL_THRESHOLD_PX;
}

/**
 * Calls `loadMore` when the scroll container comes within 100 px of its bottom, and also right
 * after a page arrives when the list does not yet fill the container (no scrollbar to scroll).
 */
export function useInfiniteScroll(
  ref: RefObject<HTMLElement | null>,
  enabled: boolean,
  loadMore: () => void,
  itemCount: number,
) {
  useEffect(() => {
    const el = ref.current;
    if (!el || !enabled) return;
    const check = () => {
      if (nearBottom(el)) loadMore();
    };
    check();
    el.addEventListener("scroll", check, { passive: true });
    return () => el.removeEventListener("scroll", check);
  }, [ref, enabled, loadMore, itemCount]);
}
