import type { ReportCell, ReportColumn, ReportRow } from "@varia/contracts";
import { csvText } from "../imports/csv-cell";

/**
 * A cell as CSV (docs/import.md, "Exports"): money with two decimals; a percent as the screens write
 * it, in percent with two decimals under its "%" header (a fraction such as 0.0769 read as "Change %"
 * would say 0.08%); a number column with `decimals` with that many (the quick ratio's 1.60); other
 * numbers as they are; text neutralised (csvText).
 */
export function csvCell(column: ReportColumn, value: ReportCell | undefined): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "number") {
    if (column.kind === "money") return value.toFixed(2);
    if (column.kind === "percent") return (value * 100).toFixed(2);
    if (column.decimals !== undefined) return value.toFixed(column.decimals);
    return String(value);
  }
  return csvText(value);
}

const chunkRows = 500;

/**
 * A column's CSV header: a percent column's says "%" (NRR becomes "NRR %"), since its cells are in
 * percent and a program reading 102.50 under a bare "NRR" cannot tell a percent from a ratio.
 */
export function csvHeader(column: ReportColumn): string {
  const header =
    column.kind === "percent" && !column.header.endsWith("%") ? `${column.header} %` : column.header;
  return csvText(header);
}

/** The report as CSV lines, a header then the rows, yielded in chunks so a large report streams. */
export async function* reportCsv(columns: ReportColumn[], rows: ReportRow[]): AsyncGenerator<string> {
  yield `${columns.map(csvHeader).join(",")}\r\n`;
  for (let start = 0; start < rows.length; start += chunkRows) {
    let chunk = "";
    for (const row of rows.slice(start, start + chunkRows)) {
      chunk += `${columns.map((c) => csvCell(c, row[c.field])).join(",")}\r\n`;
    }
    yield chunk;
  }
}
