import { periodCreate, periodFormat, periodFromKey } from "@varia/period";
import type { ReactNode } from "react";
import type { Format } from "../format/format";
import { cellValue } from "./columns";
import type { ColumnKind, GridColumn } from "./grid-types";

/** What a column shows of a row outside AG Grid (a first page, a phone's blocks): its render, else its text. */
export function cellShown<Row>(column: GridColumn<Row>, row: Row, format: Format): ReactNode {
  return column.render ? column.render(row) : cellText(column.kind, cellValue(column, row), format);
}

/** A value as a cell shows it. */
export function cellText(kind: ColumnKind, value: unknown, format: Format): string {
  if (value === null || value === undefined || value === "") return "";
  switch (kind) {
    case "money":
      return typeof value === "number" ? format.money(value, { decimals: 2 }) : String(value);
    case "percent":
      return typeof value === "number" ? format.percent(value) : String(value);
    case "count":
      return typeof value === "number" ? format.count(value) : String(value);
    case "number":
      return typeof value === "number"
        ? value.toLocaleString(format.locale, { maximumFractionDigits: 4 })
        : String(value);
    case "date": {
      const match = typeof value === "string" ? /^(\d{4})-(\d{2})-(\d{2})/.exec(value) : null;
      return match
        ? periodFormat(periodCreate(Number(match[1]), Number(match[2]), Number(match[3])))
        : String(value);
    }
    case "month":
      return typeof value === "string" && /^\d{4}-\d{2}$/.test(value)
        ? periodFormat(periodFromKey(value))
        : String(value);
    case "text":
      return String(value);
  }
}

/** A value as a CSV file holds it: money in major units with 2 decimals, ratios as they are. */
export function csvValue(kind: ColumnKind, value: unknown): string | number {
  if (value === null || value === undefined) return "";
  if (kind === "money" && typeof value === "number") return (value / 100).toFixed(2);
  // A percent as the screen writes it (the server's report CSV writes it so too).
  if (kind === "percent" && typeof value === "number") return (value * 100).toFixed(2);
  if (typeof value === "number") return value;
  return String(value);
}
