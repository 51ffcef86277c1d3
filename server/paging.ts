/**
 * The one shape of a paged list answer (seeds/000 section 7, seeds/001 section 7): the records
 * under the resource's own key, the total count and whether another page follows. Every list
 * route answers through `pageAnswer`, so `hasMore` means the same thing everywhere.
 */
export const PAGE_SIZE = 20;

export type PageWindow = { limit: number; offset: number; pageNumber: number };

/** The rows a 1-based page number covers. */
export function pageWindow(pageNumber: number, size = PAGE_SIZE): PageWindow {
  return { limit: size, offset: (pageNumber - 1) * size, pageNumber };
}

export type PageAnswer<K extends string, T> = { [key in K]: T[] } & {
  count: number;
  hasMore: boolean;
};

/** `{ <key>: records, count, hasMore }` for the page `window` read. */
export function pageAnswer<K extends string, T>(
  key: K,
  records: T[],
  count: number,
  window: PageWindow,
): PageAnswer<K, T> {
  return {
    [key]: records,
    count,
    hasMore: count > window.offset + records.length,
  } as PageAnswer<K, T>;
}

/** A `LIKE ... ESCAPE '\'` pattern matching `text` anywhere (its % _ \ taken literally). */
export function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
