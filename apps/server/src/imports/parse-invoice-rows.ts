import { type ImportRowError, supportedMonths } from "@varia/contracts";
import { divideHalfEven } from "@varia/variance";
import { formatScaled, parseScaled } from "./decimal";
import { type InvoiceColumn, importLimits, invoiceColumns, requiredColumns } from "./invoice-columns";

/** One valid invoice line, ready to store. */
export interface InvoiceRow {
  line: number;
  invoiceDate: string;
  invoiceNumber: string;
  lineNumber: number;
  clientCode: string;
  clientName: string;
  itemCode: string;
  itemName: string;
  stockType: "Subscription" | "Product" | "Hourly";
  /** Exact decimal text with 4 places. */
  quantity: string;
  unitPrice: string | null;
  amountCents: bigint;
  costCents: bigint;
  salesperson: string | null;
  serviceFrom: string | null;
  serviceTo: string | null;
  recordType: "Actual" | "Budget" | "Forecast";
  category: "Recurring" | "Adhoc" | "Exclude" | null;
}

export type ParsedRow = { row: InvoiceRow; errors?: never } | { row?: never; errors: ImportRowError[] };

function choice<T extends string>(value: string, options: readonly T[]): T | undefined {
  return options.find((o) => o.toLowerCase() === value.toLowerCase());
}

/** The dates an import takes: those of the months the API speaks of (YYYY-MM-DD compares as text). */
export const importDates = {
  first: `${supportedMonths.first}-01`,
  last: `${supportedMonths.last}-31`,
} as const;

const outsideDates = (text: string) =>
  `'${text}' is not a date from ${importDates.first} to ${importDates.last}`;

function isDate(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const date = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(text);
}

/** The header's columns mapped to ours (case-insensitive), or the errors of a bad header. */
export function mapHeader(fields: readonly string[]): {
  columns: Map<string, InvoiceColumn>;
  errors: ImportRowError[];
} {
  const columns = new Map<string, InvoiceColumn>();
  const errors: ImportRowError[] = [];
  for (const field of fields) {
    const known = choice(field.replace(/^\uFEFF/, "").trim(), invoiceColumns);
    if (known) columns.set(field, known);
  }
  const present = new Set(columns.values());
  for (const required of requiredColumns) {
    if (!present.has(required))
      errors.push({ line: 1, column: required, message: "required column is missing" });
  }
  if (!present.has("Amount") && !present.has("UnitPrice")) {
    errors.push({ line: 1, column: "Amount", message: "either Amount or UnitPrice is required" });
  }
  return { columns, errors };
}

const maxScaled = 10n ** 15n;

/** The message of a cell with bytes that are not UTF-8 (docs/import.md, "File format"). */
export const notUtf8 = "is not UTF-8 text: save the file as CSV UTF-8";

/**
 * Checks one record; `positionInInvoice` gives the default LineNumber. `shape` is how many fields
 * the record and the header have: a field beyond the header's columns is a bad cell (its value
 * would be dropped), a record with fewer fields leaves the columns it lacks empty.
 */
export function validateRow(
  raw: Partial<Record<InvoiceColumn, string>>,
  line: number,
  positionInInvoice: (invoiceNumber: string) => number,
  shape?: { fields: number; header: number },
): ParsedRow {
  const errors: ImportRowError[] = [];
  const fail = (column: InvoiceColumn, message: string) => {
    errors.push({ line, column, message });
    return undefined;
  };
  const text = (column: InvoiceColumn, required: boolean, max: number = importLimits.maxFieldLength) => {
    const value = (raw[column] ?? "").trim();
    if (!value) return required ? fail(column, "is required") : "";
    if (value.length > max) return fail(column, `is longer than ${max} characters`);
    // The database stores no NUL in text.
    if (value.includes("\u0000")) return fail(column, "holds the NUL character");
    // Bytes that are not UTF-8 were read as U+FFFD: importing them would store the name garbled.
    if (value.includes("\uFFFD")) return fail(column, notUtf8);
    return value;
  };
  const date = (column: InvoiceColumn, value: string | undefined) => {
    if (!value) return;
    if (!isDate(value)) fail(column, `'${value}' is not a date (YYYY-MM-DD)`);
    else if (value < importDates.first || value > importDates.last) fail(column, outsideDates(value));
  };

  const invoiceDate = text("InvoiceDate", true);
  date("InvoiceDate", invoiceDate);
  const invoiceNumber = text("InvoiceNumber", true, importLimits.maxCodeLength);
  const lineText = text("LineNumber", false);
  let lineNumber = 0;
  if (lineText) {
    if (!/^\d{1,9}$/.test(lineText) || Number(lineText) < 1)
      fail("LineNumber", `'${lineText}' is not a whole number of 1 or more`);
    else lineNumber = Number(lineText);
  }
  const clientCode = text("ClientCode", true, importLimits.maxCodeLength);
  const clientName = text("ClientName", false);
  const itemCode = text("ItemCode", true, importLimits.maxCodeLength);
  const itemName = text("ItemName", false);
  const stockTypeText = text("StockType", true);
  const stockType = stockTypeText
    ? choice(stockTypeText, ["Subscription", "Product", "Hourly"] as const)
    : undefined;
  if (stockTypeText && !stockType)
    fail("StockType", `'${stockTypeText}' is not Subscription, Product or Hourly`);

  const quantityText = text("Quantity", true);
  const quantity = quantityText ? parseScaled(quantityText, 4) : undefined;
  if (quantityText && quantity === undefined)
    fail("Quantity", `'${quantityText}' is not a number with at most 4 decimals`);
  const unitPriceText = text("UnitPrice", false);
  const unitPrice = unitPriceText ? parseScaled(unitPriceText, 4) : undefined;
  if (unitPriceText && unitPrice === undefined)
    fail("UnitPrice", `'${unitPriceText}' is not a number with at most 4 decimals`);
  const amountText = text("Amount", false);
  let amountCents: bigint | undefined;
  if (amountText) {
    amountCents = parseScaled(amountText, 2);
    if (amountCents === undefined) fail("Amount", `'${amountText}' is not an amount with at most 2 decimals`);
  } else if (unitPrice !== undefined && quantity !== undefined) {
    // Quantity x UnitPrice, both scaled by 10^4, to cents rounding half to even.
    amountCents = divideHalfEven(quantity * unitPrice, 1_000_000n);
  } else if (!unitPriceText) {
    fail("Amount", "is required when UnitPrice is empty");
  }
  const costText = text("Cost", false);
  const costCents = costText ? parseScaled(costText, 2) : 0n;
  if (costText && costCents === undefined)
    fail("Cost", `'${costText}' is not an amount with at most 2 decimals`);
  // Every number stays below 10^15 of its smallest unit, so sums stay exact in the engine.
  const beyond = (value: bigint | undefined) =>
    value !== undefined && (value >= maxScaled || value <= -maxScaled);
  if (beyond(quantity)) fail("Quantity", `'${quantityText}' is beyond ±${importLimits.maxQuantity}`);
  if (beyond(unitPrice)) fail("UnitPrice", `'${unitPriceText}' is beyond ±${importLimits.maxQuantity}`);
  if (beyond(amountCents))
    fail(
      "Amount",
      `${amountText ? `'${amountText}'` : "Quantity x UnitPrice"} is beyond ±${importLimits.maxAmount}`,
    );
  if (beyond(costCents)) fail("Cost", `'${costText}' is beyond ±${importLimits.maxAmount}`);
  const salesperson = text("Salesperson", false);

  const serviceFrom = text("ServiceFrom", false);
  const serviceTo = text("ServiceTo", false);
  date("ServiceFrom", serviceFrom);
  date("ServiceTo", serviceTo);
  if (Boolean(serviceFrom) !== Boolean(serviceTo)) {
    fail(serviceFrom ? "ServiceTo" : "ServiceFrom", "ServiceFrom and ServiceTo go together");
  } else if (serviceFrom && serviceTo && serviceTo < serviceFrom) {
    fail("ServiceTo", "is before ServiceFrom");
  }
  const recordTypeText = text("RecordType", false);
  const recordType = recordTypeText
    ? choice(recordTypeText, ["Actual", "Budget", "Forecast"] as const)
    : "Actual";
  if (!recordType) fail("RecordType", `'${recordTypeText}' is not Actual, Budget or Forecast`);
  const categoryText = text("Category", false);
  const category = categoryText ? choice(categoryText, ["Recurring", "Adhoc", "Exclude"] as const) : null;
  if (categoryText && !category) fail("Category", `'${categoryText}' is not Recurring, Adhoc or Exclude`);
  if (shape && shape.fields > shape.header)
    errors.push({
      line,
      column: `field ${shape.header + 1}`,
      message:
        `is beyond the header's ${shape.header} columns` +
        (shape.fields > shape.header + 1 ? ` (the row has ${shape.fields} fields)` : ""),
    });

  if (errors.length) return { errors };
  return {
    row: {
      line,
      invoiceDate: invoiceDate!,
      invoiceNumber: invoiceNumber!,
      lineNumber: lineNumber || positionInInvoice(invoiceNumber!),
      clientCode: clientCode!,
      clientName: clientName ?? "",
      itemCode: itemCode!,
      itemName: itemName ?? "",
      stockType: stockType!,
      quantity: formatScaled(quantity!, 4),
      unitPrice: unitPrice === undefined ? null : formatScaled(unitPrice, 4),
      amountCents: amountCents!,
      costCents: costCents!,
      salesperson: salesperson || null,
      serviceFrom: serviceFrom || null,
      serviceTo: serviceTo || null,
      recordType: recordType!,
      category: category ?? null,
    },
  };
}
