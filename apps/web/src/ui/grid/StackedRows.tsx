import { useEffect, useMemo, useRef, useState } from "react";
import { CompactSelect } from "../CompactSelect";
import { useFormat } from "../format";
import { cellShown, cellText } from "./cell-text";
import { cellValue } from "./columns";
import type { ColumnKind, GridColumn, ServerPage, ServerSource } from "./grid-types";

/** An order of the blocks: a column and its direction. */
interface StackedSort {
  field: string;
  dir: "asc" | "desc";
}

/** How an order is said for a column of a kind: the first of the two is the one a click on its header gives. */
function directions(kind: ColumnKind): { dir: "asc" | "desc"; words: string }[] {
  switch (kind) {
    case "money":
    case "percent":
    case "count":
    case "number":
      return [
        { dir: "desc", words: "largest first" },
        { dir: "asc", words: "smallest first" },
      ];
    case "date":
    case "month":
      return [
        { dir: "desc", words: "newest first" },
        { dir: "asc", words: "oldest first" },
      ];
    case "text":
      return [
        { dir: "asc", words: "A to Z" },
        { dir: "desc", words: "Z to A" },
      ];
  }
}

/** Two values of a column, compared as the grid sorts them; an empty one goes last. */
function compareValues(a: unknown, b: unknown): number {
  const empty = (v: unknown) => v === null || v === undefined || v === "";
  if (empty(a) || empty(b)) return empty(a) ? (empty(b) ? 0 : 1) : -1;
  if (typeof a === "number" && typeof b === "number") return a - b;
  return String(a).localeCompare(String(b), undefined, { numeric: true, sensitivity: "base" });
}

/**
 * A table's rows on a phone (the grid door's `stackOnPhone`): a list with one block a row, titled by
 * its first column, the other columns named beside their values, so that every column is in view
 * without scrolling sideways (apps/web/README.md, "Narrow screens"). An empty value is left out
 * rather than named with nothing after it.
 *
 * Sort by orders the blocks by any column the grid sorts by, as a header's click does on a wider
 * screen: `rows` in the browser; a server `source` on the server, a page of `pageSize` blocks at a
 * time with Previous and Next, its totals (`totals`) in a block of their own after the page.
 * (docs/behaviour.md, "Tables on a laptop and a phone")
 */
export function StackedRows<Row>({
  columns,
  rows,
  source,
  pageSize = 25,
  totals,
  getRowId,
  emptyText,
  onRowCount,
  onError,
}: {
  columns: GridColumn<Row>[];
  rows?: Row[];
  source?: ServerSource<Row>;
  pageSize?: number;
  totals?: Row;
  getRowId?: (row: Row) => string;
  emptyText?: string;
  onRowCount?: (count: number) => void;
  onError?: (error: unknown) => void;
}) {
  const format = useFormat();
  const [sort, setSort] = useState<StackedSort | null>(null);
  const [pageIndex, setPageIndex] = useState(0);
  const [served, setServed] = useState<ServerPage<Row> | null>(null);
  const listeners = useRef({ onRowCount, onError });
  listeners.current = { onRowCount, onError };

  // A new source (new filters) starts again from the first page, as a new order does.
  // (A function in state: kept and set through functions, or React would call it.)
  const [pageSource, setPageSource] = useState(() => source);
  if (pageSource !== source) {
    setPageSource(() => source);
    setPageIndex(0);
  }
  useEffect(() => {
    if (!source) return;
    let current = true;
    source({
      startRow: pageIndex * pageSize,
      rowLimit: pageSize,
      ...(sort ? { sortBy: sort.field, sortDir: sort.dir } : {}),
    }).then(
      (page) => {
        if (!current) return;
        setServed(page);
        listeners.current.onRowCount?.(page.rowCount);
      },
      (error) => {
        if (current) listeners.current.onError?.(error);
      },
    );
    return () => {
      current = false;
    };
  }, [source, sort, pageIndex, pageSize]);

  const shown = useMemo(() => {
    if (source) return served?.rows ?? [];
    if (!sort || !rows) return rows ?? [];
    const column = columns.find((c) => c.field === sort.field);
    if (!column) return rows;
    const sign = sort.dir === "asc" ? 1 : -1;
    return [...rows].sort((a, b) => sign * compareValues(cellValue(column, a), cellValue(column, b)));
  }, [source, served, rows, sort, columns]);

  const [title, ...rest] = columns;
  if (!title) return null;
  const loading = source !== undefined && served === null;
  const rowCount = source ? (served?.rowCount ?? 0) : shown.length;
  const pages = Math.max(1, Math.ceil(rowCount / pageSize));
  const sortable = columns.filter((c) => c.sortable !== false);
  const block = (row: Row, key: string | number, className = "") => (
    <li key={key} className={`stacked-rows__row ${className}`}>
      <div className="stacked-rows__title">{cellShown(title, row, format)}</div>
      <dl className="stacked-rows__fields">
        {rest.map((column) =>
          cellText(column.kind, cellValue(column, row), format) === "" ? null : (
            <div key={column.field} className="stacked-rows__field">
              <dt>{column.header}</dt>
              <dd>{cellShown(column, row, format)}</dd>
            </div>
          ),
        )}
      </dl>
    </li>
  );
  return (
    // The door's group around it carries the table's name.
    <div className="stacked-rows__frame" aria-busy={loading}>
      {sortable.length > 0 && rowCount > 1 && (
        <div className="stacked-rows__sort">
          {/* Seen beside the select; the select's own label says it to assistive technology. */}
          <span aria-hidden="true">Sort by</span>
          <CompactSelect
            label="Sort by"
            value={sort ? `${sort.field}:${sort.dir}` : ""}
            onChange={(value) => {
              const [field, dir] = value.split(":");
              setSort(field && (dir === "asc" || dir === "desc") ? { field, dir } : null);
              setPageIndex(0);
            }}
            options={[
              { value: "", label: "As listed" },
              ...sortable.flatMap((c) =>
                directions(c.kind).map(({ dir, words }) => ({
                  value: `${c.field}:${dir}`,
                  label: `${c.header}, ${words}`,
                })),
              ),
            ]}
          />
        </div>
      )}
      {!loading && shown.length === 0 ? (
        <p className="stacked-rows__empty">{emptyText ?? "No information available to show."}</p>
      ) : (
        <ul className="stacked-rows">
          {shown.map((row, index) => block(row, getRowId ? getRowId(row) : index))}
          {totals && shown.length > 0 && block(totals, "totals", "stacked-rows__row--total")}
        </ul>
      )}
      {source && pages > 1 && (
        <nav className="stacked-rows__pager" aria-label="Pages">
          <button
            type="button"
            className="button button--secondary button--small"
            disabled={pageIndex === 0}
            onClick={() => setPageIndex((p) => p - 1)}
          >
            Previous
          </button>
          <span aria-live="polite">
            Page {format.count(pageIndex + 1)} of {format.count(pages)}
          </span>
          <button
            type="button"
            className="button button--secondary button--small"
            disabled={pageIndex >= pages - 1}
            onClick={() => setPageIndex((p) => p + 1)}
          >
            Next
          </button>
        </nav>
      )}
    </div>
  );
}
