import type { GridColumn } from "./grid-types";

/**
 * Column helpers: each says what kind of value a column holds, and the grid writes it the same way
 * everywhere (money in the organisation's currency with 2 decimals, percentages with 2, dates as
 * '1st Jan 2024'), in cells and in CSV files alike.
 */
type Options<Row> = Partial<Omit<GridColumn<Row>, "field" | "header" | "kind">>;

export function textColumn<Row>(field: string, header: string, options: Options<Row> = {}): GridColumn<Row> {
  return { field, header, kind: "text", flex: 1, minWidth: 140, ...options };
}

/** Money in cents. */
export function moneyColumn<Row>(field: string, header: string, options: Options<Row> = {}): GridColumn<Row> {
  return { field, header, kind: "money", width: 140, ...options };
}

/** A ratio (0.25 is 25.00%). */
export function percentColumn<Row>(
  field: string,
  header: string,
  options: Options<Row> = {},
): GridColumn<Row> {
  return { field, header, kind: "percent", width: 110, ...options };
}

export function countColumn<Row>(field: string, header: string, options: Options<Row> = {}): GridColumn<Row> {
  return { field, header, kind: "count", width: 110, ...options };
}

/** A number with decimals (a quantity), up to 4 of them. */
export function numberColumn<Row>(
  field: string,
  header: string,
  options: Options<Row> = {},
): GridColumn<Row> {
  return { field, header, kind: "number", width: 120, ...options };
}

/** A date 'YYYY-MM-DD', written '1st Jan 2024'. */
export function dateColumn<Row>(field: string, header: string, options: Options<Row> = {}): GridColumn<Row> {
  return { field, header, kind: "date", width: 130, ...options };
}

/** A month 'YYYY-MM', written 'Jan 2024'. */
export function monthColumn<Row>(field: string, header: string, options: Options<Row> = {}): GridColumn<Row> {
  return { field, header, kind: "month", width: 110, ...options };
}

/** The value of a column in a row. */
export function cellValue<Row>(column: GridColumn<Row>, row: Row): unknown {
  return column.value ? column.value(row) : (row as Record<string, unknown>)[column.field];
}
