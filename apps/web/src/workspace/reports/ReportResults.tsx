import {
  type ReportColumn,
  type ReportResult,
  type ReportRow,
  reportExport,
  reportRun,
} from "@varia/contracts";
import { periodFormat, periodFromKey } from "@varia/period";
import { useEffect, useMemo, useRef, useState } from "react";
import { api } from "../../api";
import { Badge } from "../../ui/Badge";
import { useFormat } from "../../ui/format";
import { cellText } from "../../ui/grid/cell-text";
import {
  countColumn,
  DataGrid,
  type GridColumn,
  moneyColumn,
  monthColumn,
  numberColumn,
  percentColumn,
  textColumn,
} from "../../ui/grid/Grid";
import { saveBytes } from "../../ui/save-file";
import { useAlert } from "../workspace-actors";
import type { ReportValues } from "./report-values";
import { reportBody } from "./report-values";

export const reportPageSize = 50;

const toCents = (value: unknown) => (typeof value === "number" ? Math.round(value * 100) : null);

/** A report's column in the grid: money in major units shown as the organisation's currency. */
function gridColumn(column: ReportColumn, integers: boolean): GridColumn<ReportRow> {
  switch (column.kind) {
    case "money":
      return moneyColumn<ReportRow>(column.field, column.header, {
        width: 115,
        value: (r) => toCents(r[column.field]),
      });
    case "percent":
      return percentColumn<ReportRow>(column.field, column.header, {
        width: 130,
        ...(column.shade === "retention"
          ? { width: 105, render: (r: ReportRow) => <RetentionCell value={r[column.field] ?? null} /> }
          : {}),
      });
    case "number":
      if (column.decimals !== undefined) {
        const decimals = column.decimals;
        return numberColumn<ReportRow>(column.field, column.header, {
          width: 95,
          render: (r) => <FixedNumber value={r[column.field] ?? null} decimals={decimals} />,
        });
      }
      return integers
        ? countColumn<ReportRow>(column.field, column.header, { width: 95 })
        : numberColumn<ReportRow>(column.field, column.header, { width: 95 });
    case "month":
      return monthColumn<ReportRow>(column.field, column.header, { width: 130 });
    case "text":
      return column.field === "status"
        ? textColumn<ReportRow>(column.field, column.header, {
            width: 120,
            flex: 0,
            render: (r) => (r[column.field] ? <Badge variant={String(r[column.field])} /> : null),
          })
        : codeFields.has(column.field)
          ? textColumn<ReportRow>(column.field, column.header, { width: 95, flex: 0, minWidth: 90 })
          : textColumn<ReportRow>(column.field, column.header, { minWidth: 130 });
  }
}

/**
 * Codes are short: a narrow column of their own, so names take the room and money fits beside. The
 * widths are those of the values (a header longer than its column wraps), so that a report of ten
 * columns, Price changes, fits a laptop's screen without scrolling sideways; a name or code cut off
 * names itself when pointed at.
 */
const codeFields = new Set(["clientCode", "itemCode"]);

/**
 * The totals of a run as a row under its columns (docs/behaviour.md, "Reports"): each column's
 * total where it has one, 'Total' in the first column when that one has none.
 */
export function totalsRow(result: Pick<ReportResult, "columns" | "totals">): ReportRow | undefined {
  const totalled = result.columns.filter(
    (c) => result.totals[c.field] !== undefined && result.totals[c.field] !== null,
  );
  if (!totalled.length) return undefined;
  const row: ReportRow = {};
  for (const [index, column] of result.columns.entries())
    row[column.field] = result.totals[column.field] ?? (index === 0 ? "Total" : null);
  return row;
}

/**
 * What a run was computed for, as the screens write it: 'Margin, Sep 2026 to Oct 2026' ('Revenue,
 * Oct 2026' for a report of one month), so the rows say what they are even once the form above is
 * changed and not yet run again.
 */
export function ranFor(result: Pick<ReportResult, "dataType" | "dateFrom" | "dateTo">): string {
  const month = (key: string) => periodFormat(periodFromKey(key));
  const months = [result.dateFrom, result.dateTo].filter((m): m is string => m !== null).map(month);
  return [result.dataType, months.join(" to ")].filter(Boolean).join(", ");
}

/** A number written with exactly `decimals` decimals (the quick ratio's 1.60), in the organisation's locale. */
function FixedNumber({ value, decimals }: { value: ReportRow[string]; decimals: number }) {
  const format = useFormat();
  if (typeof value !== "number") return null;
  return (
    <>
      {value.toLocaleString(format.locale, {
        minimumFractionDigits: decimals,
        maximumFractionDigits: decimals,
      })}
    </>
  );
}

/** The bands a share kept is tinted by: all of it or more, most of it, a fair part, less. */
export function retentionBand(value: number): "full" | "most" | "part" | "low" {
  return value >= 1 ? "full" : value >= 0.9 ? "most" : value >= 0.75 ? "part" : "low";
}

/** A share kept of a start, tinted by its band; the number is always written, the tint only adds to it. */
function RetentionCell({ value }: { value: ReportRow[string] }) {
  const format = useFormat();
  if (typeof value !== "number") return null;
  return (
    <span className={`retention retention--${retentionBand(value)}`}>
      {cellText("percent", value, format)}
    </span>
  );
}

const types = {
  csv: "text/csv;charset=utf-8",
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
};

/**
 * A report's run: its rows in AG Grid (paged and sorted on the server by Report/Run), its totals and
 * notes, and Download as CSV or XLSX (Report/ExportReport: every row, in the grid's order).
 */
export function ReportResults({ reportID, values }: { reportID: string; values: ReportValues }) {
  const format = useFormat();
  const alert = useAlert();
  const [first, setFirst] = useState<ReportResult | "failed" | null>(null);
  const [downloading, setDownloading] = useState<"csv" | "xlsx" | null>(null);
  const sort = useRef<{ sortField?: string; sortDirection?: "asc" | "desc" }>({});
  const body = useMemo(() => reportBody(reportID, values), [reportID, values]);
  useEffect(() => {
    let live = true;
    setFirst(null);
    api
      .call(reportRun, { body: { ...body, startRow: 0, rowLimit: reportPageSize } })
      .then((r) => live && setFirst(r))
      .catch(() => live && setFirst("failed"));
    return () => {
      live = false;
    };
  }, [body]);
  const columns = useMemo(() => {
    if (!first || first === "failed") return [];
    return first.columns.map((c) =>
      gridColumn(
        c,
        first.rows.every((r) => r[c.field] === null || Number.isInteger(r[c.field])),
      ),
    );
  }, [first]);
  const source = useMemo(() => {
    if (!first || first === "failed") return undefined;
    let kept: ReportResult | null = first;
    return async (page: {
      startRow: number;
      rowLimit: number;
      sortBy?: string;
      sortDir?: "asc" | "desc";
    }) => {
      sort.current = page.sortBy ? { sortField: page.sortBy, sortDirection: page.sortDir ?? "asc" } : {};
      if (kept && page.startRow === 0 && !page.sortBy) {
        const answer = kept;
        kept = null;
        return { rows: answer.rows, rowCount: answer.rowCount };
      }
      const r = await api.call(reportRun, {
        body: { ...body, ...sort.current, startRow: page.startRow, rowLimit: page.rowLimit },
      });
      return { rows: r.rows, rowCount: r.rowCount };
    };
  }, [first, body]);

  const download = async (kind: "csv" | "xlsx") => {
    setDownloading(kind);
    try {
      const file = await api.download(reportExport, { body: { ...body, ...sort.current, format: kind } });
      saveBytes(file.fileName ?? `${reportID}.${kind}`, file.body, types[kind]);
    } catch {
      alert("The report could not be downloaded.", "Please try again.");
    } finally {
      setDownloading(null);
    }
  };

  // One status line for screen readers, kept while the report runs and after, so that the change
  // from running to its count of rows is read out; the focus stays on Run (docs/behaviour.md,
  // "Keyboard").
  const said =
    first === null
      ? "Running the report"
      : first === "failed"
        ? ""
        : `${format.count(first.rowCount)} ${first.rowCount === 1 ? "row" : "rows"}`;
  const status = (
    <p className="visually-hidden" role="status">
      {said}
    </p>
  );
  if (first === null)
    return (
      <>
        {status}
        <div className="spinner spinner--dark" aria-hidden="true" />
      </>
    );
  if (first === "failed")
    return (
      <>
        {status}
        <p className="card__status card__status--error" role="alert">
          The report could not be run. Please try again.
        </p>
      </>
    );
  return (
    <>
      {status}
      <section className="card report-results" aria-labelledby="report-results-heading">
        <div className="activity__summary">
          <div className="report-results__what">
            <h2 id="report-results-heading" className="card__heading">
              {format.count(first.rowCount)} {first.rowCount === 1 ? "row" : "rows"}
            </h2>
            <p className="report-results__ran">{ranFor(first)}</p>
          </div>
          <div className="page__actions">
            <button
              type="button"
              className="button button--secondary button--small"
              onClick={() => download("csv")}
              disabled={downloading !== null}
            >
              {downloading === "csv" ? "Downloading…" : "Download CSV"}
            </button>
            <button
              type="button"
              className="button button--secondary button--small"
              onClick={() => download("xlsx")}
              disabled={downloading !== null}
            >
              {downloading === "xlsx" ? "Downloading…" : "Download XLSX"}
            </button>
          </div>
        </div>
        {first.rowCount === 0 ? (
          <div className="report-results__empty" role="status">
            <p>No information available to show.</p>
            <p>No rows match these months and filters: change them and run the report again.</p>
          </div>
        ) : (
          <DataGrid<ReportRow>
            label={`${first.name} rows`}
            columns={columns}
            source={source}
            pageSize={reportPageSize}
            height={Math.min(720, 160 + Math.min(first.rowCount, reportPageSize) * 40)}
            totals={totalsRow(first)}
          />
        )}
        {first.notes.length ? (
          <ul className="report-results__notes">
            {first.notes.map((n) => (
              <li key={n}>{n}</li>
            ))}
          </ul>
        ) : null}
      </section>
    </>
  );
}
