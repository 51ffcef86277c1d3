/**
 * The values of a page's filter bar (/reports, /audit) and how they become a query: one string
 * per filter, `ALL` for a select left on "all" (radix forbids an empty value), "" for an unset
 * date. Pure, so the islands tests read it without a browser.
 */
export const ALL = "all";

export type FilterValues = Record<string, string>;

const pad = (n: number) => String(n).padStart(2, "0");

/** A local calendar date as YYYY-MM-DD (the value of an <input type="date">). */
export function localDay(d: Date): string {
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** The first day of the month to today, local dates. */
export function monthToDate(now: Date): { from: string; to: string } {
  return { from: localDay(new Date(now.getFullYear(), now.getMonth(), 1)), to: localDay(now) };
}

/** The chosen filters among `keys`, in that order: a filter left on ALL is not sent. */
export function chosenParams<F extends FilterValues>(
  filters: F,
  keys: readonly (keyof F & string)[],
): Record<string, string> {
  const params: Record<string, string> = {};
  for (const key of keys) {
    if (filters[key] !== ALL) params[key] = filters[key];
  }
  return params;
}

/**
 * A period of local dates as instants: `from` the first day's start, `to` the start of the day
 * after the last one (a route that reads [from, to) keeps the whole last day); an unset date is
 * not sent.
 */
export function periodInstants(fromDay: string, toDay: string): { from?: string; to?: string } {
  const period: { from?: string; to?: string } = {};
  if (fromDay) period.from = new Date(`${fromDay}T00:00:00`).toISOString();
  if (toDay) {
    const end = new Date(`${toDay}T00:00:00`);
    end.setDate(end.getDate() + 1);
    period.to = end.toISOString();
  }
  return period;
}
