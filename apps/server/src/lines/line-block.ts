import { recordTypes } from "@varia/contracts";
import type { RecordType } from "@varia/variance";

/**
 * Invoice lines are stored in blocks: a few tens of thousands of an organisation's lines in one
 * value, column by column, in the order of the file they came from (`mergeBlocks` reads them in
 * key order). Loading a million lines is then
 * a COPY of a few dozen values instead of a million rows each with an index entry (DESIGN 6 keys
 * are checked in memory by the import), and reading them back is as cheap.
 *
 * The format (little-endian): "VLB1", the line count, then each column of `numberColumns` after the
 * invoice numbers. A numeric column is all null, one constant, or an array of int8, int16, int32 or
 * float64 (null as NaN), whichever is the narrowest that holds it exactly. Arrays start at multiples
 * of 8 bytes from the block's start, so a decoded block is a set of views on its bytes.
 */

/** One stored invoice line: what the raw export, the line table, backups and the cube read. */
export interface StoredLine {
  invoiceNumber: string;
  lineNumber: number;
  /** Days since 2000-01-01. */
  invoiceDay: number;
  clientId: number;
  itemId: number;
  /** 0 when the line has no salesperson. */
  salespersonId: number;
  /** Ten-thousandths. */
  quantity: number;
  /** Ten-thousandths; null when the file gave none. */
  unitPrice: number | null;
  amountCents: number;
  costCents: number;
  serviceFromDay: number | null;
  serviceToDay: number | null;
  recordType: RecordType;
}

/** The numeric columns of a block, in their stored order. */
export const numberColumns = [
  "lineNumber",
  "invoiceDay",
  "clientId",
  "itemId",
  "salespersonId",
  "quantity",
  "unitPrice",
  "amountCents",
  "costCents",
  "serviceFromDay",
  "serviceToDay",
  "recordType",
] as const;
type NumberColumn = (typeof numberColumns)[number];

/** A decoded block: its lines as columns (null numbers are NaN). */
export interface LineBlock {
  /** The bytes the block was decoded from (a copy when they were misaligned). */
  readonly bytes: Uint8Array;
  readonly count: number;
  readonly invoiceNumbers: readonly string[];
  /** The invoice numbers in UTF-8, line k's from `invoiceOffsets[k]` to `invoiceOffsets[k + 1]`. */
  readonly invoiceText: Uint8Array;
  readonly invoiceOffsets: Uint32Array;
  readonly columns: Readonly<Record<NumberColumn, ArrayLike<number>>>;
}

const magic = 0x31424c56; // "VLB1"
enum Kind {
  Null = 0,
  Constant = 1,
  Int8 = 2,
  Int16 = 3,
  Int32 = 4,
  Float64 = 5,
}

/**
 * A line as a block holds it: numbers only (NaN for null), its record type as its index in
 * `recordTypes`; the invoice number comes beside it.
 */
export type BlockRow = Record<NumberColumn, number>;

/** Collects lines and encodes them as one block. */
export class LineBlockBuilder {
  private size = 0;
  /** The invoice numbers in UTF-8, one after the other; line k's ends at `textEnds[k]`. */
  private text: Buffer;
  private textLength = 0;
  private textEnds: Uint32Array;
  private values: Record<NumberColumn, Float64Array>;

  constructor(capacity = 1024) {
    this.values = allocate(capacity);
    this.textEnds = new Uint32Array(capacity);
    this.text = Buffer.allocUnsafe(capacity * 16);
  }

  get count() {
    return this.size;
  }

  add(line: StoredLine) {
    const at = this.next();
    this.setInvoiceNumber(at, line.invoiceNumber);
    this.setNumbers(at, {
      ...line,
      unitPrice: line.unitPrice ?? Number.NaN,
      serviceFromDay: line.serviceFromDay ?? Number.NaN,
      serviceToDay: line.serviceToDay ?? Number.NaN,
      recordType: recordTypes.indexOf(line.recordType),
    });
  }

  /** Adds a line whose invoice number is `bytes[start, end)` (UTF-8), as an import reads it. */
  addRow(row: BlockRow, bytes: Uint8Array, start: number, end: number) {
    const at = this.next();
    this.copyInvoiceNumber(at, bytes, start, end);
    this.setNumbers(at, row);
  }

  private setNumbers(at: number, row: BlockRow) {
    const v = this.values;
    v.lineNumber[at] = row.lineNumber;
    v.invoiceDay[at] = row.invoiceDay;
    v.clientId[at] = row.clientId;
    v.itemId[at] = row.itemId;
    v.salespersonId[at] = row.salespersonId;
    v.quantity[at] = row.quantity;
    v.unitPrice[at] = row.unitPrice;
    v.amountCents[at] = row.amountCents;
    v.costCents[at] = row.costCents;
    v.serviceFromDay[at] = row.serviceFromDay;
    v.serviceToDay[at] = row.serviceToDay;
    v.recordType[at] = row.recordType;
  }

  /** Copies line `row` of a decoded block (a block being rewritten without some of its lines). */
  addFrom(block: LineBlock, row: number) {
    const at = this.next();
    const { invoiceText, invoiceOffsets } = block;
    this.copyInvoiceNumber(at, invoiceText, invoiceOffsets[row]!, invoiceOffsets[row + 1]!);
    for (const column of numberColumns) this.values[column][at] = block.columns[column][row]!;
  }

  /** The index of the next line, with room for it. */
  private next(): number {
    const at = this.size++;
    if (at >= this.textEnds.length) {
      const size = this.textEnds.length * 2;
      this.values = grow(this.values, size);
      const ends = new Uint32Array(size);
      ends.set(this.textEnds);
      this.textEnds = ends;
    }
    return at;
  }

  private copyInvoiceNumber(at: number, bytes: Uint8Array, start: number, end: number) {
    this.reserveText(end - start);
    // Byte by byte: invoice numbers are short, and a view per line to copy from costs more.
    const text = this.text;
    let to = this.textLength;
    for (let i = start; i < end; i++) text[to++] = bytes[i]!;
    this.textLength = to;
    this.textEnds[at] = to;
  }

  private setInvoiceNumber(at: number, invoiceNumber: string) {
    this.reserveText(invoiceNumber.length * 3);
    this.textLength += this.text.write(invoiceNumber, this.textLength, "utf8");
    this.textEnds[at] = this.textLength;
  }

  private reserveText(bytes: number) {
    if (this.textLength + bytes <= this.text.length) return;
    const text = Buffer.allocUnsafe(Math.max(this.text.length * 2, this.textLength + bytes));
    this.text.copy(text, 0, 0, this.textLength);
    this.text = text;
  }

  /** The latest invoice day of the Actual lines added, or null. */
  lastActualDay(): number | null {
    let last = Number.NEGATIVE_INFINITY;
    const { recordType, invoiceDay } = this.values;
    for (let i = 0; i < this.size; i++)
      if (recordType[i] === 0 && invoiceDay[i]! > last) last = invoiceDay[i]!;
    return Number.isFinite(last) ? last : null;
  }

  /** The block's bytes, its lines in the order they were added. */
  finish(): Uint8Array {
    const n = this.size;
    const order = new Uint32Array(n);
    for (let i = 0; i < n; i++) order[i] = i;
    const offsets = new Uint32Array(n + 1);
    offsets.set(this.textEnds.subarray(0, n), 1);
    const text = this.text.subarray(0, this.textLength);

    const parts: { kind: Kind; array?: ArrayBufferView }[] = numberColumns.map((column) =>
      encodeColumn(this.values[column], order, idColumns.includes(column as IdColumn)),
    );
    let size = 8 + pad(8 + 4 * (n + 1)) + pad(text.length);
    for (const part of parts) size += 8 + (part.array ? pad(part.array.byteLength) : 0);
    const out = new Uint8Array(size);
    const view = new DataView(out.buffer);
    view.setUint32(0, magic, true);
    view.setUint32(4, n, true);
    let at = 8;
    view.setUint32(at, text.length, true);
    at += 8;
    out.set(new Uint8Array(offsets.buffer), at);
    at += pad(4 * (n + 1));
    out.set(text, at);
    at += pad(text.length);
    for (const part of parts) {
      view.setUint8(at, part.kind);
      at += 8;
      if (part.array) {
        out.set(new Uint8Array(part.array.buffer, part.array.byteOffset, part.array.byteLength), at);
        at += pad(part.array.byteLength);
      }
    }
    return out;
  }
}

/** The order of keys: invoice number by UTF-16 code units, then line number. */
export function compareKeys(aInvoice: string, aLine: number, bInvoice: string, bLine: number): number {
  return aInvoice < bInvoice ? -1 : aInvoice > bInvoice ? 1 : aLine - bLine;
}

/**
 * A column in the narrowest kind that holds it exactly (a constant's value as one float64); id
 * columns are int32 (or float64 when too large), so that `mapBlockIds` can rewrite them in place.
 */
function encodeColumn(
  values: Float64Array,
  order: Uint32Array,
  wide: boolean,
): { kind: Kind; array?: ArrayBufferView } {
  const n = order.length;
  let allNull = true;
  let anyNull = false;
  let integers = true;
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  let first = Number.NaN;
  let constant = true;
  for (let k = 0; k < n; k++) {
    const value = values[order[k]!]!;
    if (Number.isNaN(value)) {
      anyNull = true;
      constant = false;
      continue;
    }
    if (allNull) first = value;
    else if (value !== first) constant = false;
    allNull = false;
    if (!Number.isInteger(value)) integers = false;
    if (value < min) min = value;
    if (value > max) max = value;
  }
  if (allNull && !wide) return { kind: Kind.Null };
  if (constant && !anyNull && !wide) return { kind: Kind.Constant, array: Float64Array.of(first) };
  const kind =
    anyNull || !integers
      ? Kind.Float64
      : wide
        ? min >= -2147483648 && max <= 2147483647
          ? Kind.Int32
          : Kind.Float64
        : min >= -128 && max <= 127
          ? Kind.Int8
          : min >= -32768 && max <= 32767
            ? Kind.Int16
            : min >= -2147483648 && max <= 2147483647
              ? Kind.Int32
              : Kind.Float64;
  const array =
    kind === Kind.Int8
      ? new Int8Array(n)
      : kind === Kind.Int16
        ? new Int16Array(n)
        : kind === Kind.Int32
          ? new Int32Array(n)
          : new Float64Array(n);
  for (let k = 0; k < n; k++) array[k] = values[order[k]!]!;
  return { kind, array };
}

/** Decodes a block; its numeric columns are views on `bytes` (copied once when misaligned). */
export function decodeLineBlock(input: Uint8Array): LineBlock {
  // A copy, not `slice()`: a Buffer's slice is a view at the same offset.
  const bytes = input.byteOffset % 8 === 0 ? input : new Uint8Array(input);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.byteLength < 16 || view.getUint32(0, true) !== magic)
    throw new Error("Not a block of invoice lines");
  const n = view.getUint32(4, true);
  let at = 8;
  const textLength = view.getUint32(at, true);
  at += 8;
  const offsets = new Uint32Array(bytes.buffer, bytes.byteOffset + at, n + 1);
  at += pad(4 * (n + 1));
  const text = Buffer.from(bytes.buffer, bytes.byteOffset + at, textLength);
  at += pad(textLength);
  // The invoice numbers are cut into strings when first asked for (the cube needs none).
  let invoiceNumbers: string[] | undefined;
  const cutInvoiceNumbers = () => {
    const ascii = text.every((b) => b < 0x80);
    const cut = new Array<string>(n);
    for (let k = 0; k < n; k++)
      cut[k] = text.toString(ascii ? "latin1" : "utf8", offsets[k]!, offsets[k + 1]!);
    return cut;
  };
  const columns = {} as Record<NumberColumn, ArrayLike<number>>;
  for (const column of numberColumns) {
    const kind = view.getUint8(at) as Kind;
    at += 8;
    const offset = bytes.byteOffset + at;
    switch (kind) {
      case Kind.Null:
        columns[column] = new Float64Array(n).fill(Number.NaN);
        break;
      case Kind.Constant:
        columns[column] = new Float64Array(n).fill(view.getFloat64(at, true));
        at += 8;
        break;
      case Kind.Int8:
        columns[column] = new Int8Array(bytes.buffer, offset, n);
        at += pad(n);
        break;
      case Kind.Int16:
        columns[column] = new Int16Array(bytes.buffer, offset, n);
        at += pad(2 * n);
        break;
      case Kind.Int32:
        columns[column] = new Int32Array(bytes.buffer, offset, n);
        at += pad(4 * n);
        break;
      case Kind.Float64:
        columns[column] = new Float64Array(bytes.buffer, offset, n);
        at += pad(8 * n);
        break;
      default:
        throw new Error(`Unknown column kind ${kind as number} in a block of invoice lines`);
    }
  }
  return {
    bytes,
    count: n,
    get invoiceNumbers() {
      invoiceNumbers ??= cutInvoiceNumbers();
      return invoiceNumbers;
    },
    invoiceText: text,
    invoiceOffsets: offsets,
    columns,
  };
}

/** The columns that hold ids of clients, items and salespeople. */
export const idColumns = ["clientId", "itemId", "salespersonId"] as const;
export type IdColumn = (typeof idColumns)[number];

/**
 * A block with its client, item and salesperson ids mapped (`map[column][id]`, 0 staying 0): the
 * same block, changed in place, when the new ids fit its columns (the usual case), else a new one.
 */
export function mapBlockIds(block: LineBlock, map: Record<IdColumn, ArrayLike<number>>): LineBlock {
  const fits = idColumns.every((column) => {
    const values = block.columns[column];
    if (values instanceof Float64Array) return true;
    if (!(values instanceof Int32Array)) return false;
    for (let i = 0; i < block.count; i++) if (map[column][values[i]!]! > 2147483647) return false;
    return true;
  });
  if (fits) {
    for (const column of idColumns) {
      const values = block.columns[column] as Int32Array | Float64Array;
      const to = map[column];
      for (let i = 0; i < block.count; i++) values[i] = values[i] === 0 ? 0 : to[values[i]!]!;
    }
    return block;
  }
  const builder = new LineBlockBuilder(block.count);
  for (let row = 0; row < block.count; row++) {
    const line = blockLine(block, row);
    builder.add({
      ...line,
      clientId: map.clientId[line.clientId]!,
      itemId: map.itemId[line.itemId]!,
      salespersonId: line.salespersonId === 0 ? 0 : map.salespersonId[line.salespersonId]!,
    });
  }
  return decodeLineBlock(builder.finish());
}

/** Line `row` of a decoded block. */
export function blockLine(block: LineBlock, row: number): StoredLine {
  const c = block.columns;
  const orNull = (value: number) => (Number.isNaN(value) ? null : value);
  return {
    invoiceNumber: block.invoiceNumbers[row]!,
    lineNumber: c.lineNumber[row]!,
    invoiceDay: c.invoiceDay[row]!,
    clientId: c.clientId[row]!,
    itemId: c.itemId[row]!,
    salespersonId: c.salespersonId[row]!,
    quantity: c.quantity[row]!,
    unitPrice: orNull(c.unitPrice[row]!),
    amountCents: c.amountCents[row]!,
    costCents: c.costCents[row]!,
    serviceFromDay: orNull(c.serviceFromDay[row]!),
    serviceToDay: orNull(c.serviceToDay[row]!),
    recordType: recordTypes[c.recordType[row]!]!,
  };
}

const pad = (bytes: number) => Math.ceil(bytes / 8) * 8;

function allocate(size: number): Record<NumberColumn, Float64Array> {
  return Object.fromEntries(numberColumns.map((c) => [c, new Float64Array(size)])) as Record<
    NumberColumn,
    Float64Array
  >;
}

function grow(values: Record<NumberColumn, Float64Array>, size: number) {
  const next = allocate(size);
  for (const column of numberColumns) next[column].set(values[column]);
  return next;
}
