import type { ImportRowError } from "@varia/contracts";
import type { RecordType } from "@varia/variance";
import { dayNumber } from "../db/binary-copy";
import { CsvRecord } from "./csv-records";
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
  /** Day numbers (NaN: not a plain date) by the date's digits as a number, YYYYMMDD. */
  private readonly days = new Map<number, number>();
  private readonly positions = new Map<string, number>();
  /** The invoice of the last line without LineNumber, and its count so far (not yet in `positions`). */
  private lastInvoice: string | undefined;
  private lastPosition = 0;
  /** The last line the fast path read. */
  private last: InvoiceLine | undefined;
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
    if (invoice !== this.lastInvoice) {
      if (this.lastInvoice !== undefined) this.positions.set(this.lastInvoice, this.lastPosition);
      this.lastInvoice = invoice;
      this.lastPosition = this.positions.get(invoice) ?? 0;
    }
    return ++this.lastPosition;
  };

  read(fields: readonly string[], line: number): ReadLine {
    return this.readFast(CsvRecord.of(fields), line) ?? this.readChecked(fields, line);
  }

  /** As `read`, of a record the scanner hands over (read before it moves on). */
  readRecord(record: CsvRecord, line: number): ReadLine {
    return this.readFast(record, line) ?? this.readChecked(record.fields(), line);
  }

  private field(fields: readonly string[], column: InvoiceColumn): string {
    return pick(fields, this.at[column]);
  }

  /** The day number of field `i` if it is a plain date (YYYY-MM-DD), else NaN. */
  private day(record: CsvRecord, i: number): number {
    if (i < 0 || i >= record.count) return Number.NaN;
    const text = record.text;
    const start = record.starts[i]!;
    if (
      record.ends[i]! - start !== 10 ||
      text.charCodeAt(start + 4) !== 45 ||
      text.charCodeAt(start + 7) !== 45
    )
      return Number.NaN;
    const key =
      digits(text, start, 4) * 10_000 + digits(text, start + 5, 2) * 100 + digits(text, start + 8, 2);
    if (Number.isNaN(key)) return plainDay(record.field(i));
    let day = this.days.get(key);
    if (day === undefined) {
      day = plainDay(record.field(i));
      this.days.set(key, day);
    }
    return day;
  }

  private readFast(record: CsvRecord, line: number): ReadLine | null {
    const at = this.at;
    const { text, starts, ends, count } = record;
    const invoiceDay = this.day(record, at.InvoiceDate);
    if (Number.isNaN(invoiceDay)) return null;
    // Consecutive lines often repeat an invoice, client or item: its text is then taken from the last.
    const last = this.last;
    const invoiceNumber = plainCode(record, at.InvoiceNumber, last?.invoiceNumber);
    const clientCode = plainCode(record, at.ClientCode, last?.clientCode);
    const itemCode = plainCode(record, at.ItemCode, last?.itemCode);
    if (invoiceNumber === undefined || clientCode === undefined || itemCode === undefined) return null;
    const clientName = plainText(record, at.ClientName, last?.clientName);
    const itemName = plainText(record, at.ItemName, last?.itemName);
    const salesperson = plainText(record, at.Salesperson, last?.salesperson);
    if (clientName === undefined || itemName === undefined || salesperson === undefined) return null;
    const stockType = exactStockType(record, at.StockType);
    if (!stockType) return null;
    let lineNumber = 0;
    let i = at.LineNumber;
    if (i >= 0 && i < count && starts[i]! < ends[i]!) {
      lineNumber = fixed(text, starts[i]!, ends[i]!, 0);
      if (!(lineNumber >= 1) || ends[i]! - starts[i]! > 9 || text.charCodeAt(starts[i]!) === 43) return null;
    }
    i = at.Quantity;
    const quantity = i >= 0 && i < count ? fixed(text, starts[i]!, ends[i]!, 4) : Number.NaN;
    if (Number.isNaN(quantity)) return null;
    i = at.UnitPrice;
    const unitPrice =
      i >= 0 && i < count && starts[i]! < ends[i]! ? fixed(text, starts[i]!, ends[i]!, 4) : null;
    if (Number.isNaN(unitPrice)) return null;
    i = at.Amount;
    let amountCents: number;
    if (i >= 0 && i < count && starts[i]! < ends[i]!) amountCents = fixed(text, starts[i]!, ends[i]!, 2);
    else if (unitPrice !== null) amountCents = productToCents(quantity, unitPrice);
    else return null;
    if (Number.isNaN(amountCents)) return null;
    i = at.Cost;
    const costCents = i >= 0 && i < count && starts[i]! < ends[i]! ? fixed(text, starts[i]!, ends[i]!, 2) : 0;
    if (Number.isNaN(costCents)) return null;
    let serviceFromDay: number | null = null;
    let serviceToDay: number | null = null;
    if (!isEmpty(record, at.ServiceFrom) || !isEmpty(record, at.ServiceTo)) {
      serviceFromDay = this.day(record, at.ServiceFrom);
      serviceToDay = this.day(record, at.ServiceTo);
      if (Number.isNaN(serviceFromDay) || Number.isNaN(serviceToDay) || serviceToDay < serviceFromDay)
        return null;
    }
    const recordType = isEmpty(record, at.RecordType) ? "Actual" : exactRecordType(record, at.RecordType);
    if (!recordType) return null;
    const category = isEmpty(record, at.Category) ? null : exactCategory(record, at.Category);
    if (category === undefined) return null;
    this.last = {
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
    };
    return { line: this.last };
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

  /** As `take`, of a record the scanner hands over (its fields are cut only for the header). */
  takeRecord(record: CsvRecord) {
    return this.take(this.reader ? noFields : record.fields());
  }

  /** At the end of the text: the error of a file without even a header. */
  end(): ImportRowError[] {
    return this.reader ? [] : [{ line: 1, column: "", message: "the file is empty" }];
  }
}

const noFields: readonly string[] = [];

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

function isEmpty(record: CsvRecord, i: number): boolean {
  return i < 0 || i >= record.count || record.starts[i] === record.ends[i];
}

/** The value of `count` decimal digits at `start`; NaN if one is not a digit. */
function digits(text: string, start: number, count: number): number {
  let value = 0;
  for (let i = start; i < start + count; i++) {
    const c = text.charCodeAt(i);
    if (c < 48 || c > 57) return Number.NaN;
    value = value * 10 + (c - 48);
  }
  return value;
}

function plainDay(text: string): number {
  return isPlainDate(text) ? dayNumber(text) : Number.NaN;
}

function isPlainDate(text: string): boolean {
  if (text.length !== 10 || text.charCodeAt(4) !== 45 || text.charCodeAt(7) !== 45) return false;
  const date = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(text);
}

/**
 * Field `i` if it is printable ASCII at both ends (so trimming would not change it), within the
 * code length; `previous` itself when the field is the same text.
 */
function plainCode(record: CsvRecord, i: number, previous: string | undefined): string | undefined {
  if (i < 0 || i >= record.count) return undefined;
  const start = record.starts[i]!;
  const end = record.ends[i]!;
  if (previous !== undefined && isText(record.text, start, end, previous)) return previous;
  if (end === start || end - start > importLimits.maxCodeLength || !plainEnds(record.text, start, end))
    return undefined;
  return record.text.slice(start, end);
}

/**
 * Field `i` if it is empty, or within the field length and printable ASCII at both ends;
 * `previous` itself when the field is the same text.
 */
function plainText(record: CsvRecord, i: number, previous: string | null | undefined): string | undefined {
  if (i < 0 || i >= record.count) return "";
  const start = record.starts[i]!;
  const end = record.ends[i]!;
  if (end === start) return "";
  if (previous && isText(record.text, start, end, previous)) return previous;
  if (end - start > importLimits.maxFieldLength || !plainEnds(record.text, start, end)) return undefined;
  return record.text.slice(start, end);
}

/** Whether `text` from `start` to `end` is `word`. */
function isText(text: string, start: number, end: number, word: string): boolean {
  return end - start === word.length && text.startsWith(word, start);
}

function plainEnds(text: string, start: number, end: number): boolean {
  const first = text.charCodeAt(start);
  const last = text.charCodeAt(end - 1);
  return first > 32 && first < 127 && last > 32 && last < 127;
}

/** Whether field `i` is exactly `word`. */
function fieldIs(record: CsvRecord, i: number, word: string): boolean {
  return isText(record.text, record.starts[i]!, record.ends[i]!, word);
}

/**
 * The plain decimal from `start` to `end` of `text` (optional sign, digits, optionally a point
 * and 1 to `places` digits) scaled by 10^places; NaN for any other form or from 10^15 up, which
 * `validateRow` then judges.
 */
function fixed(text: string, start: number, end: number, places: number): number {
  let i = start;
  let negative = false;
  let c = text.charCodeAt(start);
  if (start < end && (c === 45 || c === 43)) {
    negative = c === 45;
    i++;
  }
  let value = 0;
  let whole = 0;
  for (; i < end; i++) {
    c = text.charCodeAt(i);
    if (c < 48 || c > 57) break;
    value = value * 10 + (c - 48);
    whole++;
  }
  if (whole === 0) return Number.NaN;
  let decimals = 0;
  if (i < end) {
    if (c !== 46) return Number.NaN;
    for (i++; i < end; i++) {
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

function exactStockType(record: CsvRecord, i: number): InvoiceRow["stockType"] | undefined {
  if (i < 0 || i >= record.count) return undefined;
  if (fieldIs(record, i, "Subscription")) return "Subscription";
  if (fieldIs(record, i, "Product")) return "Product";
  if (fieldIs(record, i, "Hourly")) return "Hourly";
  return undefined;
}

/** Record type of a field that is there and not empty. */
function exactRecordType(record: CsvRecord, i: number): RecordType | undefined {
  if (fieldIs(record, i, "Actual")) return "Actual";
  if (fieldIs(record, i, "Budget")) return "Budget";
  if (fieldIs(record, i, "Forecast")) return "Forecast";
  return undefined;
}

/** Category of a field that is there and not empty. */
function exactCategory(record: CsvRecord, i: number): InvoiceRow["category"] | undefined {
  if (fieldIs(record, i, "Recurring")) return "Recurring";
  if (fieldIs(record, i, "Adhoc")) return "Adhoc";
  if (fieldIs(record, i, "Exclude")) return "Exclude";
  return undefined;
}
