/**
 * The dashboard filter (seeds/000 sections 2, 5, 9): by date range (default: first day of the
 * current month to today) or by period (none, 3, 7, 15, 30, 60, 90 days). Choosing one kind
 * clears the other; with neither a period nor valid dates the page says 'Parametrize o filtro'.
 */
export const PERIODS = [3, 7, 15, 30, 60, 90] as const;

export type FilterType = "date" | "period";
export type Filter = { type: FilterType; dateFrom: string; dateTo: string; days: number | null };

const pad = (n: number) => String(n).padStart(2, "0");

/** A local calendar date as YYYY-MM-DD. */
export function localIso(d: Date): string {
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

export function defaultFilter(today: Date): Filter {
  const first = new Date(today.getFullYear(), today.getMonth(), 1);
  return { type: "date", dateFrom: localIso(first), dateTo: localIso(today), days: null };
}

/** Switching the filter type clears the other kind's values. */
export function switchType(filter: Filter, type: FilterType): Filter {
  if (type === filter.type) return filter;
  return { type, dateFrom: "", dateTo: "", days: null };
}

function validDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const d = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === value;
}

/** The GET /api/dashboard query for a filter, or null when it is not set ('Parametrize o filtro'). */
export function queryOf(filter: Filter): Record<string, string> | null {
  if (filter.type === "period") {
    return filter.days ? { days: String(filter.days) } : null;
  }
  if (!validDate(filter.dateFrom) || !validDate(filter.dateTo)) return null;
  return { date_from: filter.dateFrom, date_to: filter.dateTo };
}

/** Minutes as "1h 05min", "12min" or "40s"; 0 as "0min". */
export function formatMinutes(minutes: number): string {
  const seconds = Math.round(minutes * 60);
  if (seconds <= 0) return "0min";
  if (seconds < 60) return `${seconds}s`;
  const total = Math.round(seconds / 60);
  const h = Math.floor(total / 60);
  const m = total % 60;
  return h > 0 ? `${h}h ${pad(m)}min` : `${m}min`;
}

/** 0..3 filled stars for a rating average (1 unsatisfied .. 3 very satisfied; 0 none). */
export function starsOf(rating: number): number {
  return Math.max(0, Math.min(3, Math.round(rating)));
}
