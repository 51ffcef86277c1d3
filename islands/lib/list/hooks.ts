import { type RefObject, useEffect, useRef, useState, useSyncExternalStore } from "react";
import { api, type Query } from "../api.ts";
import { useResourceEvents, useRoomSync } from "../socket.ts";
import type { ResourceChannelOf } from "../../../contract/events.ts";
import {
  type Identified,
  ListController,
  type ListOptions,
  type ListState,
} from "./list_controller.ts";

/** seeds/000 section 9: lists load the next page within 100 px of the bottom. */
export const SCROLL_THRESHOLD_PX = 100;

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

export type ResourceListOptions<T> = {
  /** The list route, e.g. "/users" (GET with pageNumber and searchParam). */
  path: string;
  /** The answer's key holding the records, e.g. "users" in `{ users, count, hasMore }`. */
  records: string;
  /**
   * The live channel: `company-<id>-<channel>` (seeds/002 section 7), e.g. "user"; one whose
   * records are T's (contract/events.ts ResourceRecords).
   */
  channel?: ResourceChannelOf<T>;
  /** Extra filters sent with every page; a change reads page 1 again. */
  params?: Query;
} & Pick<ListOptions<T>, "sort" | "accepts" | "minChars">;

export type ResourceList<T> = ListState<T> & {
  type: (text: string) => void;
  reload: () => void;
  loadMore: () => void;
  upsert: (record: T) => void;
  remove: (id: number) => void;
  /** Give it to the scrolling element (ResourceList does). */
  scrollRef: RefObject<HTMLDivElement | null>;
};

/**
 * A paged, searchable, live list of a resource: the whole behaviour of a list page but its
 * columns and dialogs (islands/README.md 'How to build a list page').
 *
 *   const list = useResourceList<Tag>({ path: "/tags", records: "tags", channel: "tag" });
 *   <ListSearch list={list} ... /> <ResourceTable list={list} ...>rows</ResourceTable>
 */
export function useResourceList<T extends Identified>(
  options: ResourceListOptions<T>,
): ResourceList<T> {
  const paramsKey = JSON.stringify(options.params ?? {});
  const listOptions: ListOptions<T> = {
    sort: options.sort,
    accepts: options.accepts,
    minChars: options.minChars,
    fetch: async (query) => {
      markRead();
      const answer = await api.get<Record<string, unknown>>(options.path, {
        query: { ...options.params, ...query },
      });
      return {
        records: (answer[options.records] as T[] | undefined) ?? [],
        hasMore: answer.hasMore === true,
      };
    },
  };
  const [controller] = useState(() => new ListController<T>(listOptions));
  controller.options = listOptions;
  const state = useSyncExternalStore(
    controller.subscribe,
    controller.getState,
    controller.getState,
  );
  const scrollRef = useRef<HTMLDivElement>(null);

  // Events sent while the socket was down never arrive: after a reconnect, read page 1 again.
  const markRead = useRoomSync([], () => void controller.refresh());
  useEffect(() => {
    void controller.reload();
  }, [paramsKey]);
  useEffect(() => () => controller.dispose(), []);
  useResourceEvents<T>(options.channel ?? null, (event) => controller.apply(event));
  const loadMore = () => void controller.loadMore();
  useInfiniteScroll(scrollRef, state.hasMore && !state.loading, loadMore, state.items.length);

  return {
    ...state,
    type: (text) => controller.type(text),
    reload: () => void controller.reload(),
    loadMore,
    upsert: (record) => controller.upsert(record),
    remove: (id) => controller.remove(id),
    scrollRef,
  };
}

/**
 * Runs `handler` on a window event. Header buttons (AppShell actions) live outside the list's
 * tree: they dispatch `new Event("<page>:add")` and the list opens its dialog.
 */
export function useWindowEvent(name: string, handler: () => void) {
  const ref = useRef(handler);
  ref.current = handler;
  useEffect(() => {
    const listener = () => ref.current();
    addEventListener(name, listener);
    return () => removeEventListener(name, listener);
  }, [name]);
}

/**
 * Which record a list page's dialogs are open for: `editing` is `{ id: null }` to add, `{ id }`
 * to edit, null when closed; `deleting` the record waiting for the delete confirmation.
 */
export function useRecordDialogs<T>() {
  const [editing, setEditing] = useState<{ id: number | null } | null>(null);
  const [deleting, setDeleting] = useState<T | null>(null);
  return {
    editing,
    add: () => setEditing({ id: null }),
    edit: (id: number) => setEditing({ id }),
    closeEdit: () => setEditing(null),
    deleting,
    askDelete: (record: T) => setDeleting(record),
    closeDelete: () => setDeleting(null),
  };
}
