import { csvText } from "../imports/csv-cell";
import { type InvoiceColumn, invoiceColumns } from "../imports/invoice-columns";
import type { ReadOptions } from "./connector";
import type { ConvertedExport, SkippedLine } from "./quickbooks/convert-quickbooks";

/** One invoice line of the import file (docs/import.md, "Columns"); a missing column is empty. */
export type ImportLine = Partial<Record<InvoiceColumn, string>>;

const plainNumber = /^-?\d+(\.\d+)?$/;
const numberColumns: ReadonlySet<InvoiceColumn> = new Set([
  "LineNumber",
  "Quantity",
  "UnitPrice",
  "Amount",
  "Cost",
]);

/**
 * Rounds a provider's number to `places` decimals (the import file's limit for the column:
 * docs/import.md) and writes it without an exponent.
 */
export function numberText(value: number, places: number): string {
  const text = String(value);
  if (plainNumber.test(text) && (text.split(".")[1]?.length ?? 0) <= places) return text;
  return value
    .toFixed(places)
    .replace(/(\.\d*?)0+$/, "$1")
    .replace(/\.$/, "");
}

/** An amount given in cents, as the import file writes it (two decimals). */
export function centsText(cents: number): string {
  const sign = cents < 0 ? "-" : "";
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, "0")}`;
}

/**
 * Collects a connector's lines as Varia's import CSV: text through `csvText` (formula-safe, quoted),
 * numbers the connector formatted itself as they are (a leading minus is a credit, not a formula).
 */
export class ImportCsvWriter {
  private readonly rows: string[] = [invoiceColumns.join(",")];
  private readonly skipped: SkippedLine[] = [];

  constructor(private readonly options: ReadOptions = {}) {}

  add(given: ImportLine): void {
    // A known item keeps the category the organisation gave it.
    const line =
      given.ItemCode && this.options.knownItemCodes?.has(given.ItemCode) ? { ...given, Category: "" } : given;
    this.rows.push(
      invoiceColumns
        .map((column) => {
          const value = line[column] ?? "";
          return numberColumns.has(column) && plainNumber.test(value) ? value : csvText(value);
        })
        .join(","),
    );
  }

  skip(line: number, reason: string): void {
    this.skipped.push({ line, reason });
  }

  result(): ConvertedExport {
    return { csv: `${this.rows.join("\n")}\n`, lineCount: this.rows.length - 1, skipped: this.skipped };
  }
}
