import type { ReportCell, ReportColumn, ReportRow } from "@varia/contracts";
import { csvText } from "../imports/csv-cell";

/** A cell as CSV: money with two decimals, other numbers as they are, text neutralised (csvText). */
export function csvCell(column: ReportColumn, value: ReportCell | undefined): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "number") return column.kind === "money" ? value.toFixed(2) : String(value);
  return csvText(value);
}

const chunkRows = 500;

/** The report as CSV lines, a header then the rows, yielded in chunks so a large report streams. */
export async function* reportCsv(columns: ReportColumn[], rows: ReportRow[]): AsyncGenerator<string> {
  yield `${columns.map((c) => csvText(c.header)).join(",")}\r\n`;
  for (let start = 0; start < rows.length; start += chunkRows) {
    let chunk = "";
    for (const row of rows.slice(start, start + chunkRows)) {
      chunk += `${columns.map((c) => csvCell(c, row[c.field])).join(",")}\r\n`;
    }
    yield chunk;
  }
}
