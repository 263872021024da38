import type { ReactNode } from "react";

/**
 * What a screen hands the grid door: columns in the product's own terms and either the rows
 * (small tables) or a server source (large tables, paged, sorted and filtered by the server). No
 * screen imports ag-grid-*.
 */

/** How a column's values are written: money in cents (2 decimals), ratios, counts, dates, text. */
export type ColumnKind = "text" | "money" | "percent" | "count" | "number" | "date" | "month";

export interface GridColumn<Row> {
  /** The row's field; also what the server sorts by. */
  field: string;
  header: string;
  kind: ColumnKind;
  /** The value when it is not the field itself (a nested part). */
  value?: (row: Row) => unknown;
  /** A cell of its own (a link, a badge); the CSV keeps the plain value. */
  render?: (row: Row) => ReactNode;
  /** Sortable by the server (default true). */
  sortable?: boolean;
  width?: number;
  minWidth?: number;
  flex?: number;
  pinned?: boolean;
}

export interface ServerQuery {
  startRow: number;
  rowLimit: number;
  sortBy?: string;
  sortDir?: "asc" | "desc";
}

export interface ServerPage<Row> {
  rows: Row[];
  rowCount: number;
}

/** One page of a server-side table; the screen binds its own filters (search, status) into it. */
export type ServerSource<Row> = (query: ServerQuery) => Promise<ServerPage<Row>>;

export interface DataGridProps<Row> {
  columns: GridColumn<Row>[];
  /** The accessible name of the grid. */
  label: string;
  /** Client-side rows: sorted in the browser. */
  rows?: Row[];
  /**
   * A server source: paged with `pageSize` rows a page, sorted on the server. A new source (its
   * filters changed) starts again from the first page.
   */
  source?: ServerSource<Row>;
  pageSize?: number;
  /**
   * The source's first page (unsorted), when the screen already has it: shown at once as a plain
   * table until AG Grid, loaded when the page is idle, has drawn it (Grid.tsx).
   */
  firstPage?: ServerPage<Row>;
  /** Height in px; default: enough for a page. */
  height?: number;
  /** The number of rows the server has for the current filters, once known. */
  onRowCount?: (count: number) => void;
  /** AG Grid has drawn its first rows (the door's own use: its first page's table then goes). */
  onFirstDrawn?: () => void;
  /** The source failed. */
  onError?: (error: unknown) => void;
  getRowId?: (row: Row) => string;
  /** Shown when there are no rows. */
  emptyText?: string;
  /**
   * On a phone (under 640 px wide) the rows are a list of blocks, each titled by the first column
   * and naming the others (StackedRows.tsx), instead of a table wider than the screen, with Sort by
   * over the sortable columns: `rows` all at once, sorted in the browser; a `source` a page at a
   * time, sorted on the server, with Previous and Next and the `totals` in a last block.
   */
  stackOnPhone?: boolean;
  /**
   * A totals row pinned under the rows, in bold, on every page and whatever the sort (a report's
   * totals); its cells are written as the columns' are. AG Grid's only: a first page's plain table
   * has none.
   */
  totals?: Row;
}
