import type { ImportRowError } from "@varia/contracts";
import type { RecordType } from "@varia/variance";
import { dayNumber } from "../db/binary-copy";
import { type InvoiceColumn, importLimits, invoiceColumns } from "./invoice-columns";
import { type InvoiceRow, mapHeader, type ParsedRow, validateRow } from "./parse-invoice-rows";

/** One checked invoice line in numbers: what binary COPY and the cube take. */
export interface InvoiceLine {
  line: number;
  invoiceNumber: string;
  lineNumber: number;
  /** Days since 2000-01-01. */
  invoiceDay: number;
  clientCode: string;
  clientName: string;
  itemCode: string;
  itemName: string;
  stockType: InvoiceRow["stockType"];
  /** Ten-thousandths. */
  quantity: number;
  unitPrice: number | null;
  amountCents: number;
  costCents: number;
  salesperson: string | null;
  serviceFromDay: number | null;
  serviceToDay: number | null;
  recordType: RecordType;
  category: InvoiceRow["category"];
  /** Ids given when the line is stored (0 until then; 0 also means no salesperson). */
  clientId: number;
  itemId: number;
  salespersonId: number;
}

export type ReadLine = { line: InvoiceLine; errors?: never } | { line?: never; errors: ImportRowError[] };

/**
 * Reads the records of one file. Each record is first read by a fast path that accepts only the
 * plain forms (no surrounding blanks, exact enumeration names, plain decimals of up to 15 digits,
 * dates YYYY-MM-DD); anything else goes to `validateRow`, which decides and words every error, so
 * both paths accept the same rows with the same values (a property test holds them together).
 */
export class InvoiceLineReader {
  private readonly at: Record<InvoiceColumn, number>;
  private readonly days = new Map<string, number>();
  private readonly positions = new Map<string, number>();
  readonly headerErrors: ImportRowError[];

  constructor(header: readonly string[]) {
    const mapped = mapHeader(header);
    this.headerErrors = mapped.errors;
    this.at = Object.fromEntries(invoiceColumns.map((c) => [c, -1])) as Record<InvoiceColumn, number>;
    // As before: when a column appears twice, the last one counts.
    header.forEach((field, i) => {
      const column = mapped.columns.get(field);
      if (column) this.at[column] = i;
    });
  }

  private positionInInvoice = (invoice: string) => {
    const next = (this.positions.get(invoice) ?? 0) + 1;
    this.positions.set(invoice, next);
    return next;
  };

  read(fields: readonly string[], line: number): ReadLine {
    return this.readFast(fields, line) ?? this.readChecked(fields, line);
  }

  private field(fields: readonly string[], column: InvoiceColumn): string {
    return pick(fields, this.at[column]);
  }

  private day(text: string): number {
    let day = this.days.get(text);
    if (day === undefined) {
      day = isPlainDate(text) ? dayNumber(text) : Number.NaN;
      this.days.set(text, day);
    }
    return day;
  }

  private readFast(fields: readonly string[], line: number): ReadLine | null {
    const at = this.at;
    const invoiceDay = this.day(pick(fields, at.InvoiceDate));
    const invoiceNumber = pick(fields, at.InvoiceNumber);
    const clientCode = pick(fields, at.ClientCode);
    const itemCode = pick(fields, at.ItemCode);
    if (
      Number.isNaN(invoiceDay) ||
      !isPlainCode(invoiceNumber) ||
      !isPlainCode(clientCode) ||
      !isPlainCode(itemCode)
    )
      return null;
    const clientName = pick(fields, at.ClientName);
    const itemName = pick(fields, at.ItemName);
    const salesperson = pick(fields, at.Salesperson);
    if (!isPlainText(clientName) || !isPlainText(itemName) || !isPlainText(salesperson)) return null;
    const stockType = exactStockType(pick(fields, at.StockType));
    if (!stockType) return null;
    const lineText = pick(fields, at.LineNumber);
    let lineNumber = 0;
    if (lineText) {
      lineNumber = fixed(lineText, 0);
      if (!(lineNumber >= 1) || lineText.length > 9 || lineText.charCodeAt(0) === 43) return null;
    }
    const quantity = fixed(pick(fields, at.Quantity), 4);
    if (Number.isNaN(quantity)) return null;
    const unitPriceText = pick(fields, at.UnitPrice);
    const unitPrice = unitPriceText ? fixed(unitPriceText, 4) : null;
    if (Number.isNaN(unitPrice)) return null;
    const amountText = pick(fields, at.Amount);
    let amountCents: number;
    if (amountText) amountCents = fixed(amountText, 2);
    else if (unitPrice !== null) amountCents = productToCents(quantity, unitPrice);
    else return null;
    if (Number.isNaN(amountCents)) return null;
    const costText = pick(fields, at.Cost);
    const costCents = costText ? fixed(costText, 2) : 0;
    if (Number.isNaN(costCents)) return null;
    const fromText = pick(fields, at.ServiceFrom);
    const toText = pick(fields, at.ServiceTo);
    let serviceFromDay: number | null = null;
    let serviceToDay: number | null = null;
    if (fromText || toText) {
      serviceFromDay = this.day(fromText);
      serviceToDay = this.day(toText);
      if (Number.isNaN(serviceFromDay) || Number.isNaN(serviceToDay) || serviceToDay < serviceFromDay)
        return null;
    }
    const recordTypeText = pick(fields, at.RecordType);
    const recordType: RecordType | undefined = recordTypeText ? exactRecordType(recordTypeText) : "Actual";
    if (!recordType) return null;
    const categoryText = pick(fields, at.Category);
    const category = categoryText ? exactCategory(categoryText) : null;
    if (category === undefined) return null;
    return {
      line: {
        line,
        invoiceNumber,
        lineNumber: lineNumber || this.positionInInvoice(invoiceNumber),
        invoiceDay,
        clientCode,
        clientName,
        itemCode,
        itemName,
        stockType,
        quantity,
        unitPrice,
        amountCents,
        costCents,
        salesperson: salesperson || null,
        serviceFromDay,
        serviceToDay,
        recordType,
        category,
        clientId: 0,
        itemId: 0,
        salespersonId: 0,
      },
    };
  }

  /** The record as `validateRow` reads it (the checked path alone, values as text). */
  readRow(fields: readonly string[], line: number): ParsedRow {
    const raw: Partial<Record<InvoiceColumn, string>> = {};
    for (const column of invoiceColumns) if (this.at[column] >= 0) raw[column] = this.field(fields, column);
    return validateRow(raw, line, this.positionInInvoice);
  }

  private readChecked(fields: readonly string[], line: number): ReadLine {
    const checked = this.readRow(fields, line);
    if (checked.errors) return { errors: checked.errors };
    return { line: invoiceLineOf(checked.row) };
  }
}

/**
 * The records of an invoice file in order: the header first (line 1), then one line each, up to
 * the row limit. A bad header or too many rows end the file. Imports and `parseInvoiceRows` share it.
 */
export class InvoiceRecords {
  private reader: InvoiceLineReader | undefined;
  private line = 0;
  private ended = false;

  /** A data record's reader and line; the errors that end the file; null for the header and after the end. */
  take(
    fields: readonly string[],
  ): { reader: InvoiceLineReader; line: number } | { errors: ImportRowError[] } | null {
    if (this.ended) return null;
    this.line++;
    if (!this.reader) {
      this.reader = new InvoiceLineReader(fields);
      if (!this.reader.headerErrors.length) return null;
      this.ended = true;
      return { errors: this.reader.headerErrors };
    }
    if (this.line - 1 > importLimits.maxRows) {
      this.ended = true;
      return {
        errors: [
          { line: this.line, column: "", message: `a file holds at most ${importLimits.maxRows} rows` },
        ],
      };
    }
    return { reader: this.reader, line: this.line };
  }

  /** At the end of the text: the error of a file without even a header. */
  end(): ImportRowError[] {
    return this.reader ? [] : [{ line: 1, column: "", message: "the file is empty" }];
  }
}

/** The numbers of a row checked by `validateRow` (its values are within the import limits). */
export function invoiceLineOf(row: InvoiceRow): InvoiceLine {
  return {
    line: row.line,
    invoiceNumber: row.invoiceNumber,
    lineNumber: row.lineNumber,
    invoiceDay: dayNumber(row.invoiceDate),
    clientCode: row.clientCode,
    clientName: row.clientName,
    itemCode: row.itemCode,
    itemName: row.itemName,
    stockType: row.stockType,
    quantity: Number(row.quantity.replace(".", "")),
    unitPrice: row.unitPrice === null ? null : Number(row.unitPrice.replace(".", "")),
    amountCents: Number(row.amountCents),
    costCents: Number(row.costCents),
    salesperson: row.salesperson,
    serviceFromDay: row.serviceFrom === null ? null : dayNumber(row.serviceFrom),
    serviceToDay: row.serviceTo === null ? null : dayNumber(row.serviceTo),
    recordType: row.recordType,
    category: row.category,
    clientId: 0,
    itemId: 0,
    salespersonId: 0,
  };
}

function pick(fields: readonly string[], index: number): string {
  return index < 0 ? "" : (fields[index] ?? "");
}

function isPlainDate(text: string): boolean {
  if (text.length !== 10 || text.charCodeAt(4) !== 45 || text.charCodeAt(7) !== 45) return false;
  const date = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(text);
}

/** Printable ASCII at both ends (so trimming would not change it), within the code length. */
function isPlainCode(text: string): boolean {
  return text.length > 0 && text.length <= importLimits.maxCodeLength && plainEnds(text);
}

function isPlainText(text: string): boolean {
  return text.length === 0 || (text.length <= importLimits.maxFieldLength && plainEnds(text));
}

function plainEnds(text: string): boolean {
  const first = text.charCodeAt(0);
  const last = text.charCodeAt(text.length - 1);
  return first > 32 && first < 127 && last > 32 && last < 127;
}

/**
 * A plain decimal (optional sign, digits, optionally a point and 1 to `places` digits) scaled by
 * 10^places; NaN for any other form or from 10^15 up, which `validateRow` then judges.
 */
function fixed(text: string, places: number): number {
  const length = text.length;
  let i = 0;
  let negative = false;
  let c = text.charCodeAt(0);
  if (c === 45 || c === 43) {
    negative = c === 45;
    i = 1;
  }
  let value = 0;
  let digits = 0;
  for (; i < length; i++) {
    c = text.charCodeAt(i);
    if (c < 48 || c > 57) break;
    value = value * 10 + (c - 48);
    digits++;
  }
  if (digits === 0) return Number.NaN;
  let decimals = 0;
  if (i < length) {
    if (c !== 46) return Number.NaN;
    for (i++; i < length; i++) {
      c = text.charCodeAt(i);
      if (c < 48 || c > 57) return Number.NaN;
      value = value * 10 + (c - 48);
      decimals++;
    }
    if (decimals === 0 || decimals > places) return Number.NaN;
  }
  for (let d = decimals; d < places; d++) value *= 10;
  // Below 10^15 the value is exact (under 2^53); above it, validateRow words the error.
  if (value >= 1e15) return Number.NaN;
  return negative ? 0 - value : value;
}

/** Quantity x UnitPrice (both in ten-thousandths) in cents, half to even; NaN beyond exact range. */
function productToCents(quantity: number, unitPrice: number): number {
  const product = quantity * unitPrice;
  if (!Number.isSafeInteger(product)) return Number.NaN;
  const rest = product % 1_000_000;
  let cents = (product - rest) / 1_000_000;
  const twice = Math.abs(rest) * 2;
  if (twice > 1_000_000 || (twice === 1_000_000 && cents % 2 !== 0)) cents += product < 0 ? -1 : 1;
  return cents === 0 ? 0 : cents;
}

function exactStockType(text: string): InvoiceRow["stockType"] | undefined {
  return text === "Subscription" || text === "Product" || text === "Hourly" ? text : undefined;
}

function exactRecordType(text: string): RecordType | undefined {
  return text === "Actual" || text === "Budget" || text === "Forecast" ? text : undefined;
}

function exactCategory(text: string): InvoiceRow["category"] | undefined {
  return text === "Recurring" || text === "Adhoc" || text === "Exclude" ? text : undefined;
}
