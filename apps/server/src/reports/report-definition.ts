import type {
  ReportCell,
  ReportColumn,
  ReportID,
  ReportRetention,
  ReportRow,
  ReportSegment,
} from "@varia/contracts";
import type { Cube, MonthIndex, VarianceFilter, VarianceQuery } from "@varia/variance";

/** What a report is computed from: the organisation's cube and the resolved filter values. */
export interface ReportInput {
  cube: Cube;
  /** The two-period query (from = dateFrom, to = dateTo) with the filters of docs/api.md ("Filter parameters"). */
  query: VarianceQuery;
  /** The same filters without the periods. */
  filter: VarianceFilter;
  segment: ReportSegment;
  /** What the cohort report follows. */
  retention: ReportRetention;
}

/** A report's rows in its own order, with totals by field and notes (e.g. the forecast's back-test). */
export interface ReportOutput {
  rows: ReportRow[];
  /** The columns of this run, when the filters add some (e.g. showAdhoc); default the report's. */
  columns?: ReportColumn[];
  totals?: Record<string, ReportCell>;
  notes?: string[];
  /** Headline numbers of the run by name (the forecast's fit and back-test), for screens to show. */
  figures?: Record<string, ReportCell>;
}

/**
 * One report type: its columns and how its rows come from @varia/variance. Every number is the
 * engine's, converted to major units, so a report agrees with the dashboards to the cent.
 */
export interface ReportDefinition {
  id: ReportID;
  /** Whether the report looks at one period (dateTo) rather than two. */
  singlePeriod?: boolean;
  columns: ReportColumn[];
  run(input: ReportInput): ReportOutput;
}

export type { MonthIndex };
