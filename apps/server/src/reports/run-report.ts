import {
  type ReportCell,
  type ReportID,
  type ReportResult,
  type ReportRow,
  reportCatalogue,
  reportName,
} from "@varia/contracts";
import type { Analysis } from "../analytics/cube-cache";
import { AppError } from "../errors";
import { reportRegistry } from "./report-registry";
import { type ReportFilterValues, resolveReportInput, yearMonthOf } from "./resolve-report-input";

export interface ReportRequest extends ReportFilterValues {
  reportID: ReportID;
  sortField?: string | null | undefined;
  sortDirection?: "asc" | "desc" | null | undefined;
}

/**
 * Text as a reader orders it: letters regardless of case and accents ('acme' before 'Beta', 'Ébène'
 * among the Es), the numbers inside codes by their value (C9 before C10); code point order breaks ties.
 */
const textOrder = new Intl.Collator("en", { sensitivity: "base", numeric: true });

/** Numbers by value, text by `textOrder`; empty cells last in either direction. */
function compareCells(a: ReportCell, b: ReportCell): number {
  if (typeof a === "number" && typeof b === "number") return a - b;
  const x = String(a);
  const y = String(b);
  return textOrder.compare(x, y) || (x < y ? -1 : x > y ? 1 : 0);
}

function sortRows(rows: ReportRow[], field: string, direction: "asc" | "desc"): ReportRow[] {
  const sign = direction === "desc" ? -1 : 1;
  return rows
    .map((row, index) => ({ row, index }))
    .sort((a, b) => {
      const x = a.row[field] ?? null;
      const y = b.row[field] ?? null;
      if (x === null || y === null) return x === y ? a.index - b.index : x === null ? 1 : -1;
      return sign * compareCells(x, y) || a.index - b.index;
    })
    .map((r) => r.row);
}

/**
 * Runs a report on the organisation's analysis (its cube, less what the active exclusion lists leave
 * out): every row, sorted as asked (else in the report's own order). A sort field that is not one of
 * the report's columns is a bad request naming sortField.
 */
export function runReport(
  analysis: Analysis,
  request: ReportRequest,
  now: Date,
): Omit<ReportResult, "startRow"> {
  const definition = reportRegistry[request.reportID];
  const entry = reportCatalogue.find((r) => r.reportID === request.reportID)!;
  const input = resolveReportInput(analysis, request, now);
  const output = definition.run(input);
  const columns = output.columns ?? definition.columns;
  if (request.sortField && !columns.some((c) => c.field === request.sortField)) {
    const fields = columns.map((c) => c.field).join(", ");
    throw new AppError("BadRequest", "Invalid body: sortField", [
      { field: "sortField", message: `not a column of ${request.reportID}; one of ${fields}` },
    ]);
  }
  const rows = request.sortField
    ? sortRows(output.rows, request.sortField, request.sortDirection ?? "asc")
    : output.rows;
  return {
    reportID: entry.reportID,
    reportType: entry.reportType,
    name: reportName(entry, request.dataType),
    dataType: request.dataType,
    dateFrom: definition.singlePeriod ? null : yearMonthOf(input.query.from),
    dateTo: yearMonthOf(input.query.to),
    columns,
    rows,
    rowCount: rows.length,
    totals: output.totals ?? {},
    notes: output.notes ?? [],
    ...(output.figures ? { figures: output.figures } : {}),
  };
}
