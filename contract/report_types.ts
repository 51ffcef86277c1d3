/**
 * The reports' answers (issue 27), shared by server/reports/ and islands/reports/. Every figure is
 * counted from the tickets' timeline (db migration 0400): durations in seconds, medians and p90 over
 * the events of the period (null: none), ratings on the 1-3 scale of seeds/000.
 */
export type Ratings = { 1: number; 2: number; 3: number };

export type ReportFigures = {
  /** Attendants: tickets they took; queues: tickets that entered them; else tickets created. */
  opened: number;
  resolved: number;
  reopened: number;
  transfers: number;
  slaBreaches: number;
  waitingMedianSeconds: number | null;
  waitingP90Seconds: number | null;
  firstResponseMedianSeconds: number | null;
  firstResponseP90Seconds: number | null;
  resolutionMedianSeconds: number | null;
  resolutionP90Seconds: number | null;
  messagesIn: number;
  messagesOut: number;
  ratings: Ratings;
};

export type AttendantReportRow = { userId: number; name: string } & ReportFigures;
export type QueueReportRow = { queueId: number | null; name: string } & ReportFigures;
export type TagReportRow = { tagId: number; name: string } & ReportFigures;
export type DayReportRow = { day: string } & ReportFigures;

export type ReportTable = "attendants" | "queues" | "tags" | "days";
export const REPORT_TABLES: readonly ReportTable[] = ["attendants", "queues", "tags", "days"];

export type ReportRows = {
  attendants: AttendantReportRow;
  queues: QueueReportRow;
  tags: TagReportRow;
  days: DayReportRow;
};

export type ReportAnswer<T extends ReportTable> = {
  range: { from: string; to: string; timeZone: string };
  rows: ReportRows[T][];
};

/** Tickets created per weekday (0 Sunday .. 6 Saturday) and local hour (0..23). */
export type HeatmapAnswer = {
  range: { from: string; to: string; timeZone: string };
  cells: number[][];
};

/** The summary of the period (the same figures over everything the filters keep). */
export type SummaryAnswer = {
  range: { from: string; to: string; timeZone: string };
  totals: ReportFigures;
};

/** The longest period a report covers (issue 27: up to 12 months). */
export const REPORT_MAX_DAYS = 366;

/**
 * A duration as a person reads it (issue 50 item 6): "45 s", "4 min", "1 h 05 min"; "—" for
 * none. The page's figures and the exported files write durations this way, never in seconds.
 */
export function durationText(seconds: number | null): string {
  if (seconds === null) return "—";
  if (seconds < 60) return `${Math.round(seconds)} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  return `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, "0")} min`;
}

/** The columns of every exported table after its key column(s), in order. */
export const FIGURE_COLUMNS = [
  "opened",
  "resolved",
  "reopened",
  "transfers",
  "slaBreaches",
  "waitingMedianSeconds",
  "waitingP90Seconds",
  "firstResponseMedianSeconds",
  "firstResponseP90Seconds",
  "resolutionMedianSeconds",
  "resolutionP90Seconds",
  "messagesIn",
  "messagesOut",
  "ratings1",
  "ratings2",
  "ratings3",
] as const;

/** The figures that are durations in seconds (exported as durationText). */
export const DURATION_COLUMNS: ReadonlySet<string> = new Set(
  FIGURE_COLUMNS.filter((column) => column.endsWith("Seconds")),
);
