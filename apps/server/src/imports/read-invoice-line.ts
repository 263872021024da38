import { isAscii, isUtf8 } from "node:buffer";
import { type ImportRowError, recordTypes } from "@varia/contracts";
import { divideHalfEvenNumber, type RecordType } from "@varia/variance";
import { dayNumber } from "../db/binary-copy";
import { ByteRecord } from "./csv-bytes";
import { type InvoiceColumn, importLimits, invoiceColumns } from "./invoice-columns";
import { type InvoiceRow, importDates, mapHeader, type ParsedRow, validateRow } from "./parse-invoice-rows";

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
 * A line the fast path has checked: its numbers, and its texts as positions in `bytes` (an empty
 * range for an empty or missing field), so that codes can be looked up by their bytes. The reader
 * fills one such object per record; it is valid until the next.
 */
export class CheckedLine {
  bytes: Buffer = Buffer.alloc(0);
  invoiceStart = 0;
  invoiceEnd = 0;
  clientCodeStart = 0;
  clientCodeEnd = 0;
  clientNameStart = 0;
  clientNameEnd = 0;
  itemCodeStart = 0;
  itemCodeEnd = 0;
  itemNameStart = 0;
  itemNameEnd = 0;
  salespersonStart = 0;
  salespersonEnd = 0;
  /** 0 when the file gives none (the line's position within its invoice is then its number). */
  lineNumber = 0;
  invoiceDay = 0;
  quantity = 0;
  /** NaN when the file gives none. */
  unitPrice = Number.NaN;
  amountCents = 0;
  costCents = 0;
  serviceFromDay = Number.NaN;
  serviceToDay = Number.NaN;
  /** Its index in `recordTypes`. */
  recordType = 0;
  stockType: InvoiceRow["stockType"] = "Subscription";
  category: InvoiceRow["category"] = null;
  /** Ids given by the import (the file's own, then the organisation's). */
  clientId = 0;
  itemId = 0;
  salespersonId = 0;

  /** Takes a line the checked path read (its texts copied into bytes of their own). */
  setLine(line: InvoiceLine) {
    const texts = ByteRecord.of([
      line.invoiceNumber,
      line.clientCode,
      line.clientName,
      line.itemCode,
      line.itemName,
      line.salesperson ?? "",
    ]);
    const { starts, ends } = texts;
    this.bytes = texts.bytes;
    this.invoiceStart = starts[0]!;
    this.invoiceEnd = ends[0]!;
    this.clientCodeStart = starts[1]!;
    this.clientCodeEnd = ends[1]!;
    this.clientNameStart = starts[2]!;
    this.clientNameEnd = ends[2]!;
    this.itemCodeStart = starts[3]!;
    this.itemCodeEnd = ends[3]!;
    this.itemNameStart = starts[4]!;
    this.itemNameEnd = ends[4]!;
    this.salespersonStart = starts[5]!;
    this.salespersonEnd = ends[5]!;
    this.lineNumber = line.lineNumber;
    this.invoiceDay = line.invoiceDay;
    this.quantity = line.quantity;
    this.unitPrice = line.unitPrice ?? Number.NaN;
    this.amountCents = line.amountCents;
    this.costCents = line.costCents;
    this.serviceFromDay = line.serviceFromDay ?? Number.NaN;
    this.serviceToDay = line.serviceToDay ?? Number.NaN;
    this.recordType = recordTypes.indexOf(line.recordType);
    this.stockType = line.stockType;
    this.category = line.category;
  }

  text(start: number, end: number): string {
    return this.bytes.toString("utf8", start, end);
  }
}

/**
 * Reads the records of one file. Each record is first read by a fast path, on its bytes, that
 * accepts only the plain forms (no surrounding blanks, choices by their names in any case, plain
 * decimals of up to 15 digits, dates YYYY-MM-DD, records in well-formed UTF-8 without U+FFFD);
 * anything else goes to `validateRow`, which decides and words every error, so both paths accept
 * the same rows with the same values (a property test holds them together). `positionInInvoice`
 * gives a line without LineNumber its number: its position within its invoice so far.
 */
export class InvoiceLineReader {
  private readonly at: Record<InvoiceColumn, number>;
  /** Day numbers (NaN: not a date) by the date's digits as a number, YYYYMMDD. */
  private readonly days = new Map<number, number>();
  readonly headerErrors: ImportRowError[];
  /** How many fields the header has: a record with more has a bad cell. */
  private readonly headerLength: number;

  constructor(
    private readonly header: readonly string[],
    private readonly positionInInvoice: (invoiceNumber: string) => number = positionsByMap(),
  ) {
    this.headerLength = header.length;
    const mapped = mapHeader(header);
    this.headerErrors = mapped.errors;
    this.at = Object.fromEntries(invoiceColumns.map((c) => [c, -1])) as Record<InvoiceColumn, number>;
    // As before: when a column appears twice, the last one counts.
    header.forEach((field, i) => {
      const column = mapped.columns.get(field);
      if (column) this.at[column] = i;
    });
  }

  /** The column of field `i`: ours when the header names one there, else the header's text. */
  columnAt(i: number): string {
    return invoiceColumns.find((c) => this.at[c] === i) ?? this.header[i]?.trim() ?? "";
  }

  /** One record's fields read as an import reads them, whichever path takes them. */
  read(fields: readonly string[], line: number): ReadLine {
    const checked = new CheckedLine();
    if (!this.readFast(ByteRecord.of(fields), checked)) return this.readChecked(fields, line);
    const invoiceNumber = checked.text(checked.invoiceStart, checked.invoiceEnd);
    const salesperson = checked.text(checked.salespersonStart, checked.salespersonEnd);
    const nullable = (n: number) => (Number.isNaN(n) ? null : n);
    return {
      line: {
        line,
        invoiceNumber,
        lineNumber: checked.lineNumber || this.positionInInvoice(invoiceNumber),
        invoiceDay: checked.invoiceDay,
        clientCode: checked.text(checked.clientCodeStart, checked.clientCodeEnd),
        clientName: checked.text(checked.clientNameStart, checked.clientNameEnd),
        itemCode: checked.text(checked.itemCodeStart, checked.itemCodeEnd),
        itemName: checked.text(checked.itemNameStart, checked.itemNameEnd),
        stockType: checked.stockType,
        quantity: checked.quantity,
        unitPrice: nullable(checked.unitPrice),
        amountCents: checked.amountCents,
        costCents: checked.costCents,
        salesperson: salesperson || null,
        serviceFromDay: nullable(checked.serviceFromDay),
        serviceToDay: nullable(checked.serviceToDay),
        recordType: recordTypes[checked.recordType]!,
        category: checked.category,
        clientId: 0,
        itemId: 0,
        salespersonId: 0,
      },
    };
  }

  /** The day number of field `i` if it is a plain date (YYYY-MM-DD), else NaN. */
  private day(record: ByteRecord, i: number): number {
    if (i < 0 || i >= record.count) return Number.NaN;
    const bytes = record.bytes;
    const start = record.starts[i]!;
    if (record.ends[i]! - start !== 10 || bytes[start + 4] !== 45 || bytes[start + 7] !== 45)
      return Number.NaN;
    const key =
      digits(bytes, start, 4) * 10_000 + digits(bytes, start + 5, 2) * 100 + digits(bytes, start + 8, 2);
    if (Number.isNaN(key)) return Number.NaN;
    let day = this.days.get(key);
    if (day === undefined) {
      day = plainDay(record.field(i));
      this.days.set(key, day);
    }
    return day;
  }

  /**
   * Reads a record of plain forms into `out` (its line number 0 when the file gives none); false
   * when some field is not plain, and only `validateRow` may judge the record.
   */
  readFast(record: ByteRecord, out: CheckedLine): boolean {
    const at = this.at;
    const { bytes, starts, ends, count } = record;
    // More fields than the header, a NUL, bytes that are not UTF-8 or U+FFFD anywhere: validateRow
    // words the bad cell.
    if (count > this.headerLength || (count > 0 && !plainBytes(bytes, starts[0]!, ends[count - 1]!)))
      return false;
    const invoiceDay = this.day(record, at.InvoiceDate);
    if (Number.isNaN(invoiceDay)) return false;
    let i = at.InvoiceNumber;
    if (!plainCode(record, i)) return false;
    out.invoiceStart = starts[i]!;
    out.invoiceEnd = ends[i]!;
    i = at.ClientCode;
    if (!plainCode(record, i)) return false;
    out.clientCodeStart = starts[i]!;
    out.clientCodeEnd = ends[i]!;
    i = at.ItemCode;
    if (!plainCode(record, i)) return false;
    out.itemCodeStart = starts[i]!;
    out.itemCodeEnd = ends[i]!;
    i = at.ClientName;
    if (!plainText(record, i)) return false;
    out.clientNameStart = record.start(i);
    out.clientNameEnd = record.end(i);
    i = at.ItemName;
    if (!plainText(record, i)) return false;
    out.itemNameStart = record.start(i);
    out.itemNameEnd = record.end(i);
    i = at.Salesperson;
    if (!plainText(record, i)) return false;
    out.salespersonStart = record.start(i);
    out.salespersonEnd = record.end(i);
    const stockType = exactStockType(record, at.StockType);
    if (!stockType) return false;
    let lineNumber = 0;
    i = at.LineNumber;
    if (i >= 0 && i < count && starts[i]! < ends[i]!) {
      lineNumber = fixed(bytes, starts[i]!, ends[i]!, 0);
      if (!(lineNumber >= 1) || ends[i]! - starts[i]! > 9 || bytes[starts[i]!] === 43) return false;
    }
    i = at.Quantity;
    const quantity = i >= 0 && i < count ? fixed(bytes, starts[i]!, ends[i]!, 4) : Number.NaN;
    if (Number.isNaN(quantity)) return false;
    i = at.UnitPrice;
    const unitPrice =
      i >= 0 && i < count && starts[i]! < ends[i]! ? fixed(bytes, starts[i]!, ends[i]!, 4) : null;
    if (Number.isNaN(unitPrice)) return false;
    i = at.Amount;
    let amountCents: number;
    if (i >= 0 && i < count && starts[i]! < ends[i]!) amountCents = fixed(bytes, starts[i]!, ends[i]!, 2);
    else if (unitPrice !== null) amountCents = productToCents(quantity, unitPrice);
    else return false;
    if (Number.isNaN(amountCents)) return false;
    i = at.Cost;
    const costCents =
      i >= 0 && i < count && starts[i]! < ends[i]! ? fixed(bytes, starts[i]!, ends[i]!, 2) : 0;
    if (Number.isNaN(costCents)) return false;
    let serviceFromDay = Number.NaN;
    let serviceToDay = Number.NaN;
    if (!isEmpty(record, at.ServiceFrom) || !isEmpty(record, at.ServiceTo)) {
      serviceFromDay = this.day(record, at.ServiceFrom);
      serviceToDay = this.day(record, at.ServiceTo);
      if (Number.isNaN(serviceFromDay) || Number.isNaN(serviceToDay) || serviceToDay < serviceFromDay)
        return false;
    }
    const recordType = isEmpty(record, at.RecordType) ? 0 : exactRecordType(record, at.RecordType);
    if (recordType < 0) return false;
    const category = isEmpty(record, at.Category) ? null : exactCategory(record, at.Category);
    if (category === undefined) return false;
    out.bytes = bytes;
    out.lineNumber = lineNumber;
    out.invoiceDay = invoiceDay;
    out.quantity = quantity;
    out.unitPrice = unitPrice ?? Number.NaN;
    out.amountCents = amountCents;
    out.costCents = costCents;
    out.serviceFromDay = serviceFromDay;
    out.serviceToDay = serviceToDay;
    out.recordType = recordType;
    out.stockType = stockType;
    out.category = category;
    return true;
  }

  /** The record as `validateRow` reads it (the checked path alone, values as text). */
  readRow(fields: readonly string[], line: number): ParsedRow {
    const raw: Partial<Record<InvoiceColumn, string>> = {};
    for (const column of invoiceColumns)
      if (this.at[column] >= 0) raw[column] = pick(fields, this.at[column]);
    return validateRow(raw, line, this.positionInInvoice, {
      fields: fields.length,
      header: this.headerLength,
    });
  }

  /** The record through `validateRow`, in numbers. */
  readChecked(fields: readonly string[], line: number): ReadLine {
    const checked = this.readRow(fields, line);
    if (checked.errors) return { errors: checked.errors };
    return { line: invoiceLineOf(checked.row) };
  }
}

/** Positions within invoices kept in a map: what a reader counts with when nobody else does. */
function positionsByMap() {
  const positions = new Map<string, number>();
  return (invoice: string) => {
    const next = (positions.get(invoice) ?? 0) + 1;
    positions.set(invoice, next);
    return next;
  };
}

/**
 * The records of an invoice file in order: the header first (line 1), then one line each, up to
 * the row limit. A bad header or too many rows end the file. Imports and `parseInvoiceRows` share it.
 */
export class InvoiceRecords {
  private reader: InvoiceLineReader | undefined;
  /** The last record's line: its row as a spreadsheet numbers them, blank records counted. */
  private line = 0;
  /** Records taken after the header, for the row limit. */
  private rows = 0;
  private ended = false;

  /** `positionInInvoice`: see `InvoiceLineReader`. */
  constructor(private readonly positionInInvoice?: (invoiceNumber: string) => number) {}

  /**
   * A data record's reader and line; the errors that end the file; null for the header and after
   * the end. `scanned`: what the scanner says of the record (`ByteRecord`): the field whose quote
   * is never closed, and how many blank records it skipped before it, which count as lines.
   */
  take(
    fields: readonly string[],
    scanned: { unclosed: number; blankBefore: number } = { unclosed: -1, blankBefore: 0 },
  ): { reader: InvoiceLineReader; line: number } | { errors: ImportRowError[] } | null {
    if (this.ended) return null;
    this.line += 1 + scanned.blankBefore;
    const { unclosed } = scanned;
    if (unclosed >= 0) {
      // The rest of the file is in one cell: what its other cells lack says nothing of the file.
      this.ended = true;
      const column = this.reader?.columnAt(unclosed) || `field ${unclosed + 1}`;
      return { errors: [{ line: this.line, column, message: unclosedQuote }] };
    }
    if (!this.reader) {
      this.reader = new InvoiceLineReader(fields, this.positionInInvoice);
      if (!this.reader.headerErrors.length) return null;
      this.ended = true;
      return { errors: this.reader.headerErrors };
    }
    if (++this.rows > importLimits.maxRows) {
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
  takeRecord(record: ByteRecord) {
    return this.take(this.reader ? noFields : record.fields(), record);
  }

  /** At the end of the text: the error of a file without even a header. */
  end(): ImportRowError[] {
    return this.reader ? [] : [{ line: 1, column: "", message: "the file is empty" }];
  }
}

const noFields: readonly string[] = [];

/** The message of a cell whose opening quote is never closed (docs/import.md, "File format"). */
export const unclosedQuote =
  "opens a quote that is never closed, so the rest of the file was read into this cell";

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

function isEmpty(record: ByteRecord, i: number): boolean {
  return i < 0 || i >= record.count || record.starts[i] === record.ends[i];
}

/** The value of `count` decimal digits at `start`; NaN if one is not a digit. */
function digits(bytes: Uint8Array, start: number, count: number): number {
  let value = 0;
  for (let i = start; i < start + count; i++) {
    const c = bytes[i]!;
    if (c < 48 || c > 57) return Number.NaN;
    value = value * 10 + (c - 48);
  }
  return value;
}

function plainDay(text: string): number {
  return isPlainDate(text) ? dayNumber(text) : Number.NaN;
}

/** U+FFFD, the replacement character, in UTF-8. */
const replacement = Buffer.from("\uFFFD", "utf8");

/**
 * Whether the bytes from `start` to `end` (the whole of a record's fields) hold no NUL and are
 * well-formed UTF-8 without U+FFFD: what decoding them would not turn into a bad cell.
 */
function plainBytes(bytes: Buffer, start: number, end: number): boolean {
  if (end <= start) return true;
  const span = bytes.subarray(start, end);
  if (span.indexOf(0) !== -1) return false;
  return isAscii(span) || (isUtf8(span) && span.indexOf(replacement) === -1);
}

function isPlainDate(text: string): boolean {
  if (text.length !== 10 || text.charCodeAt(4) !== 45 || text.charCodeAt(7) !== 45) return false;
  if (text < importDates.first || text > importDates.last) return false;
  const date = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(text);
}

/**
 * Whether field `i` is a plain code: there, within the code length, not blank at either end (so
 * trimming would not change it). Its record is well-formed UTF-8 (`plainBytes`), so that equal
 * bytes are equal text and the other way round, which lets the import look codes up by their bytes.
 */
function plainCode(record: ByteRecord, i: number): boolean {
  if (i < 0 || i >= record.count) return false;
  const start = record.starts[i]!;
  const end = record.ends[i]!;
  if (end === start || end - start > importLimits.maxCodeLength) return false;
  return plainEnds(record.bytes, start, end);
}

/**
 * Whether field `i` is missing, empty, or within the field length (its length in bytes is at least
 * its length in characters) and not blank at either end.
 */
function plainText(record: ByteRecord, i: number): boolean {
  if (i < 0 || i >= record.count) return true;
  const start = record.starts[i]!;
  const end = record.ends[i]!;
  if (end === start) return true;
  return end - start <= importLimits.maxFieldLength && plainEnds(record.bytes, start, end);
}

/**
 * Whether trimming would leave the text from `start` to `end` as it is, and no control character
 * of ASCII is at either end.
 */
function plainEnds(bytes: Buffer, start: number, end: number): boolean {
  const first = bytes[start]!;
  const last = bytes[end - 1]!;
  if (first > 32 && first < 127 && last > 32 && last < 127) return true;
  return plainEnd(bytes, start, end, true) && plainEnd(bytes, start, end, false);
}

/**
 * The first (or last) character of the text is printable ASCII, or a character beyond ASCII that
 * is not a space of Unicode (what `trim` would take: what `\s` matches).
 */
function plainEnd(bytes: Buffer, start: number, end: number, first: boolean): boolean {
  const byte = bytes[first ? start : end - 1]!;
  if (byte < 128) return byte > 32 && byte < 127;
  if (first) return !/^\s/.test(bytes.toString("utf8", start, Math.min(end, start + 4)));
  // Back to the first byte of the last character (continuation bytes are 10xxxxxx).
  let from = end - 1;
  while (from > start && end - from < 4 && (bytes[from]! & 0xc0) === 0x80) from--;
  return !/\s$/.test(bytes.toString("utf8", from, end));
}

/**
 * Whether field `i` is `word` (ASCII letters) in any case of its letters, as `validateRow` compares
 * choices (a character beyond ASCII whose lower case is a letter of ASCII is left to it).
 */
function fieldIs(record: ByteRecord, i: number, word: string): boolean {
  const start = record.starts[i]!;
  if (record.ends[i]! - start !== word.length) return false;
  const bytes = record.bytes;
  for (let k = 0; k < word.length; k++)
    if ((bytes[start + k]! | 0x20) !== (word.charCodeAt(k) | 0x20)) return false;
  return true;
}

/**
 * The plain decimal from `start` to `end` of `bytes` (optional sign, digits, optionally a point
 * and 1 to `places` digits) scaled by 10^places; NaN for any other form or from 10^15 up, which
 * `validateRow` then judges.
 */
function fixed(bytes: Uint8Array, start: number, end: number, places: number): number {
  let i = start;
  let negative = false;
  let c = bytes[start]!;
  if (start < end && (c === 45 || c === 43)) {
    negative = c === 45;
    i++;
  }
  let value = 0;
  let whole = 0;
  for (; i < end; i++) {
    c = bytes[i]!;
    if (c < 48 || c > 57) break;
    value = value * 10 + (c - 48);
    whole++;
  }
  if (whole === 0) return Number.NaN;
  let decimals = 0;
  if (i < end) {
    if (c !== 46) return Number.NaN;
    for (i++; i < end; i++) {
      c = bytes[i]!;
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
  return divideHalfEvenNumber(product, 1_000_000);
}

function exactStockType(record: ByteRecord, i: number): InvoiceRow["stockType"] | undefined {
  if (i < 0 || i >= record.count) return undefined;
  if (fieldIs(record, i, "Subscription")) return "Subscription";
  if (fieldIs(record, i, "Product")) return "Product";
  if (fieldIs(record, i, "Hourly")) return "Hourly";
  return undefined;
}

/** The index in `recordTypes` of a field that is there and not empty; -1 if it names none exactly. */
function exactRecordType(record: ByteRecord, i: number): number {
  for (let k = 0; k < recordTypes.length; k++) if (fieldIs(record, i, recordTypes[k]!)) return k;
  return -1;
}

/** Category of a field that is there and not empty. */
function exactCategory(record: ByteRecord, i: number): InvoiceRow["category"] | undefined {
  if (fieldIs(record, i, "Recurring")) return "Recurring";
  if (fieldIs(record, i, "Adhoc")) return "Adhoc";
  if (fieldIs(record, i, "Exclude")) return "Exclude";
  return undefined;
}
