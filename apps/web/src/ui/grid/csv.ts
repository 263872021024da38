import { csvByteOrderMark } from "@varia/contracts";
import type { Format } from "../format/format";
import { csvValue } from "./cell-text";
import { cellValue } from "./columns";
import type { GridColumn, ServerSource } from "./grid-types";

/** The largest page a table call answers (the contracts' rowLimit). */
const exportPage = 1000;

/**
 * A cell as CSV: quoted when it holds a separator, a quote or a line break; text that a
 * spreadsheet would read as a formula (= + - @, tab, carriage return) gets a leading apostrophe.
 * Numbers are written as they are, negative ones included.
 */
export function csvCell(value: string | number): string {
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : "";
  let text = value;
  if (/^[=+\-@\t\r]/.test(text) && !/^-?\d+(\.\d+)?$/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The CSV text of rows under the columns' headers. */
export function csvOf<Row>(columns: GridColumn<Row>[], rows: Row[]): string {
  const lines = [columns.map((c) => csvCell(c.header)).join(",")];
  for (const row of rows) {
    lines.push(columns.map((c) => csvCell(csvValue(c.kind, cellValue(c, row)))).join(","));
  }
  return `${lines.join("\r\n")}\r\n`;
}

/** Every row of a server source, in its order, a page of 1000 at a time. */
export async function allRows<Row>(
  source: ServerSource<Row>,
  sort: { sortBy?: string; sortDir?: "asc" | "desc" } = {},
  onProgress?: (read: number, total: number) => void,
): Promise<Row[]> {
  const rows: Row[] = [];
  for (let startRow = 0; ; startRow += exportPage) {
    const page = await source({ startRow, rowLimit: exportPage, ...sort });
    rows.push(...page.rows);
    onProgress?.(rows.length, page.rowCount);
    if (page.rows.length < exportPage || rows.length >= page.rowCount) return rows;
  }
}

/** Saves text as a file through the browser. */
export function saveFile(fileName: string, text: string, type = "text/csv;charset=utf-8") {
  const url = URL.createObjectURL(new Blob([csvByteOrderMark, text], { type }));
  const link = document.createElement("a");
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/**
 * CSV export of a grid: the rows given, or every row the server source has for its filters (not
 * only the pages on screen), with the columns' headers; money in major units with 2 decimals.
 */
export async function exportCsv<Row>(options: {
  columns: GridColumn<Row>[];
  rows?: Row[];
  source?: ServerSource<Row>;
  sort?: { sortBy?: string; sortDir?: "asc" | "desc" };
  fileName: string;
  format?: Format;
  /** Rows read so far of how many, as the pages of a server source arrive. */
  onProgress?: (read: number, total: number) => void;
}) {
  const rows =
    options.rows ?? (options.source ? await allRows(options.source, options.sort, options.onProgress) : []);
  saveFile(
    options.fileName.endsWith(".csv") ? options.fileName : `${options.fileName}.csv`,
    csvOf(options.columns, rows),
  );
  return rows.length;
}
