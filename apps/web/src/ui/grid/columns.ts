import type { GridColumn } from "./grid-types";

/**
 * Column helpers: each says what kind of value a column holds, and the grid writes it the same way
 * everywhere (money in the organisation's currency with 2 decimals, percentages with 2, dates as
 * '1st Jan 2024'), in cells and in CSV files alike.
 */

/** What a column may set beyond its field, header and kind. */
export type GridColumnOptions<Row> = Partial<Omit<GridColumn<Row>, "field" | "header" | "kind">>;

export function textColumn<Row>(
  field: string,
  header: string,
  options: GridColumnOptions<Row> = {},
): GridColumn<Row> {
  return { field, header, kind: "text", flex: 1, minWidth: 140, ...options };
}

/** Money in cents. */
export function moneyColumn<Row>(
  field: string,
  header: string,
  options: GridColumnOptions<Row> = {},
): GridColumn<Row> {
  return { field, header, kind: "money", width: 140, ...options };
}

/** A ratio (0.25 is 25.00%). */
export function percentColumn<Row>(
  field: string,
  header: string,
  options: GridColumnOptions<Row> = {},
): GridColumn<Row> {
  return { field, header, kind: "percent", width: 110, ...options };
}

export function countColumn<Row>(
  field: string,
  header: string,
  options: GridColumnOptions<Row> = {},
): GridColumn<Row> {
  return { field, header, kind: "count", width: 110, ...options };
}

/** A number with decimals (a quantity), up to 4 of them. */
export function numberColumn<Row>(
  field: string,
  header: string,
  options: GridColumnOptions<Row> = {},
): GridColumn<Row> {
  return { field, header, kind: "number", width: 120, ...options };
}

/** A date 'YYYY-MM-DD', written '1st Jan 2024'. */
export function dateColumn<Row>(
  field: string,
  header: string,
  options: GridColumnOptions<Row> = {},
): GridColumn<Row> {
  return { field, header, kind: "date", width: 130, ...options };
}

/** A month 'YYYY-MM', written 'Jan 2024'. */
export function monthColumn<Row>(
  field: string,
  header: string,
  options: GridColumnOptions<Row> = {},
): GridColumn<Row> {
  return { field, header, kind: "month", width: 110, ...options };
}

/** The value of a column in a row. */
export function cellValue<Row>(column: GridColumn<Row>, row: Row): unknown {
  return column.value ? column.value(row) : (row as Record<string, unknown>)[column.field];
}

/** AG Grid's width for a column with neither `width` nor `flex`. */
const defaultWidth = 200;

/**
 * The columns' widths in px as AG Grid sizes them in a box `available` px wide: a column without
 * flex keeps its `width` (never below its `minWidth`); flex columns share what is left by their
 * flex, none below its `minWidth` (the table then scrolls sideways, as AG Grid's does).
 */
export function columnWidths<Row>(columns: GridColumn<Row>[], available: number): number[] {
  const fixedWidth = (c: GridColumn<Row>) => Math.max(c.width ?? defaultWidth, c.minWidth ?? 0);
  const fixed = columns.reduce((sum, c) => sum + (c.flex ? 0 : fixedWidth(c)), 0);
  const flexible = columns.filter((c) => c.flex);
  let left = Math.max(0, available - fixed);
  let share = flexible.reduce((sum, c) => sum + (c.flex ?? 0), 0);
  // A flex column whose share is below its minimum takes the minimum, and the rest share again.
  const widths = new Map<GridColumn<Row>, number>();
  for (let changed = true; changed; ) {
    changed = false;
    for (const c of flexible) {
      if (widths.has(c)) continue;
      const min = c.minWidth ?? 0;
      if ((left * (c.flex ?? 0)) / share < min) {
        widths.set(c, min);
        left = Math.max(0, left - min);
        share -= c.flex ?? 0;
        changed = true;
      }
    }
  }
  return columns.map((c) =>
    c.flex ? (widths.get(c) ?? Math.floor((left * c.flex) / share)) : fixedWidth(c),
  );
}
