import Papa from "papaparse";
import type { invoiceColumns } from "../../imports/invoice-columns";
import { ImportCsvWriter } from "../import-csv";

/** The three tables of a QuickBooks export (Fivetran's shapes), as CSV text. */
export interface QuickBooksExport {
  invoices: string;
  invoiceLines: string;
  items: string;
}

export interface SkippedLine {
  /** The line of invoice_line_data.csv (the header is line 1). */
  line: number;
  reason: string;
}

export interface ConvertedExport {
  /** Varia's import CSV (docs/import.md). */
  csv: string;
  lineCount: number;
  skipped: SkippedLine[];
}

type Row = Record<string, string>;

function table(text: string): Row[] {
  const parsed = Papa.parse<Row>(text, { header: true, skipEmptyLines: "greedy" });
  return parsed.data;
}

const deleted = (row: Row) => (row._fivetran_deleted ?? "").toLowerCase() === "true";

/** QuickBooks item types to Varia's stock type and category (docs/methodology.md, "Categories and MRR"). */
export function classifyItem(item: Row): {
  stockType: "Subscription" | "Product" | "Hourly";
  category: "Recurring" | "Adhoc";
} {
  const type = (item.type ?? "").toLowerCase();
  if (type === "inventory" || type === "noninventory") return { stockType: "Product", category: "Adhoc" };
  const name = `${item.name ?? ""} ${item.description ?? ""}`.toLowerCase();
  if (/\b(hour|hours|hourly)\b/.test(name)) return { stockType: "Hourly", category: "Recurring" };
  // One-off services (onboarding, set-up, installation) are billed once, not every month.
  if (/\b(onboarding|setup|set-up|installation|implementation)\b/.test(name)) {
    return { stockType: "Subscription", category: "Adhoc" };
  }
  return { stockType: "Subscription", category: "Recurring" };
}

/**
 * Maps a QuickBooks export to Varia's invoice lines: SalesItemLineDetail lines only (sub-totals,
 * discounts and description lines carry no service), items of type Inventory as Product/Adhoc,
 * subscription services as Recurring. Lines that cannot be placed (no invoice, an unknown item)
 * are skipped and reported with their line and reason, never guessed.
 */
export function convertQuickBooks(input: QuickBooksExport): ConvertedExport {
  const invoices = new Map(
    table(input.invoices)
      .filter((r) => !deleted(r))
      .map((r) => [r.id ?? "", r]),
  );
  const items = new Map(
    table(input.items)
      .filter((r) => !deleted(r))
      .map((r) => [r.id ?? "", r]),
  );
  const out = new ImportCsvWriter();
  const lines = table(input.invoiceLines);
  lines.forEach((row, i) => {
    const line = i + 2;
    if (deleted(row) || row.detail_type !== "SalesItemLineDetail") return;
    const invoice = invoices.get(row.invoice_id ?? "");
    if (!invoice) {
      out.skip(line, `invoice ${row.invoice_id || "(none)"} is not in the invoice list`);
      return;
    }
    const item = items.get(row.sales_item_item_id ?? "");
    if (!item) {
      out.skip(line, `item ${row.sales_item_item_id || "(none)"} is not in the item list`);
      return;
    }
    const { stockType, category } = classifyItem(item);
    const quantity = row.sales_item_quantity || "1";
    const cost = item.purchase_cost ? (Number(item.purchase_cost) * Number(quantity)).toFixed(2) : "";
    const values: Record<(typeof invoiceColumns)[number], string> = {
      InvoiceDate: invoice.transaction_date ?? "",
      InvoiceNumber: invoice.doc_number || `QB-${invoice.id}`,
      LineNumber: String(Number(row.index ?? i) + 1),
      ClientCode: `QB-${invoice.customer_id}`,
      ClientName: "",
      ItemCode: item.stock_keeping_unit || `QB-ITEM-${item.id}`,
      ItemName: item.name ?? "",
      StockType: stockType,
      Quantity: quantity,
      UnitPrice: row.sales_item_unit_price ?? "",
      Amount: row.amount ?? "",
      Cost: cost,
      Salesperson: invoice.custom_sales_rep ?? "",
      ServiceFrom: "",
      ServiceTo: "",
      RecordType: "Actual",
      Category: category,
    };
    // Numbers as they are (a credit's minus is not a formula), text formula-safe.
    out.add(values);
  });
  return out.result();
}
