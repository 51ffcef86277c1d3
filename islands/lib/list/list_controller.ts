import type { ResourceEvent } from "../../../contract/events.ts";

/**
 * The state of a paged, searchable, live list, without React (so a test drives it with a fake
 * fetch and a fake clock). `useResourceList` wraps it for pages.
 *
 * - `type(text)`: the search waits SEARCH_DEBOUNCE_MS after the last keystroke (seeds/000 and
 *   seeds/001 section 9: 500 ms); a term shorter than `minChars` lists everything;
 * - `reload()` reads page 1; `loadMore()` the next page while `hasMore`;
 * - an answer to a read that a newer read replaced is dropped (a slow page 1 for "ana" never
 *   overwrites the list for "anab"), except under `refresh()`: page 1 read again for the same
 *   search (the socket's rooms were confirmed, or it came back) lets the read it overtakes show
 *   its answer first, unless the newer one answered already (issue 49: the list appears a round
 *   trip sooner on a slow phone, and the newer read corrects it);
 * - pages and live events are merged by id: a record is never listed twice;
 * - `apply(event)`: live `create` / `update` / `delete` / `reload` (seeds/001 section 4).
 */
export const SEARCH_DEBOUNCE_MS = 500;
export const SEARCH_MIN_CHARS = 3;

export type Identified = { id: number };

export type ListPage<T> = { records: T[]; hasMore: boolean };

export type ListQuery = { pageNumber: number; searchParam?: string };

/** A resource channel's event (contract/events.ts). */
export type ListEvent<T> = ResourceEvent<T>;

export type ListState<T> = {
  items: T[];
  typed: string;
  term: string;
  loading: boolean;
  hasMore: boolean;
  pageNumber: number;
};

export type Timers = {
  set: (fn: () => void, ms: number) => unknown;
  clear: (handle: unknown) => void;
};

export type ListOptions<T> = {
  fetch: (query: ListQuery) => Promise<ListPage<T>>;
  /** Where a live-created record goes; without it, at the end. */
  sort?: (a: T, b: T) => number;
  /**
   * Whether a live-created record belongs in the list under the current search term. Default:
   * only when no term narrows the list (the server decides what a term matches).
   */
  accepts?: (record: T, term: string) => boolean;
  minChars?: number;
  debounceMs?: number;
  timers?: Timers;
};

const realTimers: Timers = {
  set: (fn, ms) => setTimeout(fn, ms),
  clear: (handle) => clearTimeout(handle as number),
};

export class ListController<T extends Identified> {
  #state: ListState<T> = {
    items: [],
    typed: "",
    term: "",
    loading: false,
    hasMore: false,
    pageNumber: 0,
  };
  #listeners = new Set<() => void>();
  #seq = 0;
  /** The page-1 read in flight and its term, the read refresh() lets answer, the last shown. */
  #firstPage: { seq: number; term: string } | null = null;
  #showable = 0;
  #shown = 0;
  #timer: unknown = null;
  #options: ListOptions<T>;

  constructor(options: ListOptions<T>) {
    this.#options = options;
  }

  /** Later renders may pass a new fetch (new filters): the next read uses it. */
  set options(options: ListOptions<T>) {
    this.#options = options;
  }

  get state(): ListState<T> {
    return this.#state;
  }

  subscribe = (listener: () => void): () => void => {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  };

  getState = (): ListState<T> => this.#state;

  #set(patch: Partial<ListState<T>>) {
    this.#state = { ...this.#state, ...patch };
    for (const listener of this.#listeners) listener();
  }

  #timers(): Timers {
    return this.#options.timers ?? realTimers;
  }

  /** The search box changed: the read waits until typing rests. */
  type(typed: string) {
    this.#set({ typed });
    const timers = this.#timers();
    if (this.#timer !== null) timers.clear(this.#timer);
    this.#timer = timers.set(() => {
      this.#timer = null;
      const trimmed = typed.trim();
      const term = trimmed.length >= (this.#options.minChars ?? SEARCH_MIN_CHARS) ? trimmed : "";
      if (term === this.#state.term) return;
      this.#set({ term });
      void this.reload();
    }, this.#options.debounceMs ?? SEARCH_DEBOUNCE_MS);
  }

  reload(): Promise<void> {
    return this.#read(1);
  }

  /** Reads page 1 again for the same search; the page-1 read in flight may still show first. */
  refresh(): Promise<void> {
    const inFlight = this.#firstPage;
    if (inFlight && inFlight.seq === this.#seq && inFlight.term === this.#state.term) {
      this.#showable = inFlight.seq;
    }
    return this.#read(1);
  }

  loadMore(): Promise<void> {
    if (this.#state.loading || !this.#state.hasMore) return Promise.resolve();
    return this.#read(this.#state.pageNumber + 1);
  }

  async #read(pageNumber: number) {
    const mine = ++this.#seq;
    this.#set({ loading: true });
    const term = this.#state.term;
    this.#firstPage = pageNumber === 1 ? { seq: mine, term } : null;
    try {
      const page = await this.#options.fetch({
        pageNumber,
        ...(term ? { searchParam: term } : {}),
      });
      const latest = mine === this.#seq;
      if (!latest && mine !== this.#showable) return;
      if (mine < this.#shown) return;
      this.#shown = mine;
      const items = pageNumber === 1
        ? dedupe(page.records)
        : merge(this.#state.items, page.records);
      this.#set({ items, hasMore: page.hasMore, pageNumber, loading: !latest });
    } catch {
      // The api client already told the user; the list keeps what it had.
      if (mine === this.#seq) this.#set({ loading: false });
    }
  }

  /** A record saved here or heard live: replaced where listed, else added if it belongs. */
  upsert(record: T) {
    const items = this.#state.items;
    if (items.some((r) => r.id === record.id)) {
      this.#set({ items: items.map((r) => (r.id === record.id ? { ...r, ...record } : r)) });
      return;
    }
    const term = this.#state.term;
    const accepts = this.#options.accepts ?? ((_: T, t: string) => t === "");
    if (!accepts(record, term)) return;
    const next = [...items, record];
    if (this.#options.sort) next.sort(this.#options.sort);
    this.#set({ items: next });
  }

  remove(id: number) {
    if (!this.#state.items.some((r) => r.id === id)) return;
    this.#set({ items: this.#state.items.filter((r) => r.id !== id) });
  }

  apply(event: ListEvent<T>) {
    if (event.action === "reload") void this.reload();
    else if (event.action === "delete") this.remove(event.id);
    else this.upsert(event.record);
  }

  dispose() {
    if (this.#timer !== null) this.#timers().clear(this.#timer);
    this.#timer = null;
    this.#seq++;
  }
}

/** The usual list order: by name, case and accents aside, then by id. */
export function byName<T extends Identified & { name: string }>(a: T, b: T): number {
  return a.name.localeCompare(b.name, undefined, { sensitivity: "base" }) || a.id - b.id;
}

function dedupe<T extends Identified>(records: T[]): T[] {
  const seen = new Set<number>();
  return records.filter((r) => !seen.has(r.id) && seen.add(r.id));
}

/** Page n+1 after page n: a record that moved up meanwhile (live create) is not listed twice. */
function merge<T extends Identified>(items: T[], records: T[]): T[] {
  const known = new Set(items.map((r) => r.id));
  return [...items, ...dedupe(records).filter((r) => !known.has(r.id))];
}
