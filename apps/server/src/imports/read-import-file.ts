import { createReadStream } from "node:fs";
import type { ImportRowError } from "@varia/contracts";
import { recordTypes } from "@varia/contracts";
import { CubeCellsBuilder, type CubeColumns } from "../cube/cube-cells";
import { BinaryCopyWriter } from "../db/binary-copy";
import { ByteKeys, PairKeys } from "./byte-keys";
import { type ByteRecord, CsvByteScanner } from "./csv-bytes";
import type { FileDimensions } from "./dimension-resolver";
import { importLimits } from "./invoice-columns";
import { CheckedLine, InvoiceRecords } from "./read-invoice-line";

/** The organisation's clients, items and salespeople before the import, and the next free ids. */
export interface KnownDimensions {
  clients: [code: string, id: number][];
  items: [code: string, id: number][];
  salespeople: [name: string, id: number][];
  nextClientId: number;
  nextItemId: number;
  nextSalespersonId: number;
}

/** What the import writes of clients, items and salespeople (the first line of each wins). */
export interface DimensionChanges {
  clients: { id: number; code: string; name: string }[];
  items: { id: number; code: string; name: string; stockType: string; category: string | null }[];
  /** Salespeople new to the organisation. */
  salespeople: { id: number; name: string }[];
}

export interface ReadImportOptions {
  /** Lines per batch (one COPY into the staging table each). */
  batchLines?: number;
}

/** Lines per batch by default. */
export const batchLines = 50_000;

/**
 * Lines of one batch as the body of a binary COPY into the import's staging table
 * (`stagingColumns`), with the file's provisional ids of clients, items and salespeople (see
 * `FileDimensions`), and the dimensions the file names first in this batch.
 */
export interface LineBatch {
  copy: Uint8Array[];
  lineCount: number;
  dimensions: FileDimensions;
}

/**
 * The columns of the staging table an import loads its file into (`createStagingTable`), in the
 * order a batch writes them. Ids are the file's own; salesperson 0 is none.
 */
export const stagingColumns = [
  "invoice_number",
  "line_number",
  "invoice_date",
  "client_id",
  "item_id",
  "salesperson_id",
  "quantity",
  "unit_price",
  "amount_cents",
  "cost_cents",
  "service_from",
  "service_to",
  "record_type",
] as const;

export interface ImportFileSummary {
  lines: number;
  errors: ImportRowError[];
  errorCount: number;
  /** The cube cells of the file's lines, with the file's own ids (empty when a cell was bad). */
  cube: CubeColumns;
}

/** A batch of lines being written as COPY rows. */
class BatchWriter {
  private writer = new BinaryCopyWriter();
  count = 0;

  add(line: CheckedLine) {
    const w = this.writer;
    w.row(stagingColumns.length);
    w.textBytes(line.bytes, line.invoiceStart, line.invoiceEnd);
    w.int4(line.lineNumber);
    w.date(line.invoiceDay);
    w.int4(line.clientId);
    w.int4(line.itemId);
    w.int4(line.salespersonId);
    w.numeric4(line.quantity);
    if (Number.isNaN(line.unitPrice)) w.null();
    else w.numeric4(line.unitPrice);
    w.int8(line.amountCents);
    w.int8(line.costCents);
    if (Number.isNaN(line.serviceFromDay)) {
      w.null();
      w.null();
    } else {
      w.date(line.serviceFromDay);
      w.date(line.serviceToDay);
    }
    w.text(recordTypes[line.recordType]!);
    this.count++;
  }

  finish(dimensions: FileDimensions): LineBatch {
    return { copy: this.writer.finish(), lineCount: this.count, dimensions };
  }
}

/**
 * Reads an import file (its path, or its bytes as they arrive) as a stream, checking every record,
 * and yields its lines in batches ready to COPY; returns the summary with the file's cube cells. It needs nothing of the organisation: ids
 * are the file's own (`FileDimensions`), given the stored ones when the import runs. No batch
 * holds a line after a bad record, and none is filled after one (the import will be rolled back),
 * but reading goes on so that every bad cell is listed. The file is read as bytes: a line's codes
 * are looked up by their bytes and its numbers read from them, and a string is cut only for what
 * is new (a client's code and name the first time, say).
 */
export async function* readImportFile(
  source: string | AsyncIterable<Uint8Array>,
  options: ReadImportOptions = {},
): AsyncGenerator<LineBatch, ImportFileSummary> {
  const perBatch = options.batchLines ?? batchLines;
  const file = new FileKeys();
  const errors: ImportRowError[] = [];
  let errorCount = 0;
  let lines = 0;
  const records = new InvoiceRecords((invoice) => file.position(file.invoices.addText(invoice)));
  let batch = new BatchWriter();
  const cube = new CubeCellsBuilder();
  const ready: LineBatch[] = [];
  const line = new CheckedLine();

  const fail = (found: ImportRowError[]) => {
    errorCount += found.length;
    for (const e of found) if (errors.length < importLimits.maxListedErrors) errors.push(e);
  };
  const onRecord = (record: ByteRecord) => {
    const taken = records.takeRecord(record);
    if (!taken) return;
    if ("errors" in taken) {
      fail(taken.errors);
      return;
    }
    let invoice: number;
    if (taken.reader.readFast(record, line)) {
      invoice = file.invoices.add(line.bytes, line.invoiceStart, line.invoiceEnd);
      line.lineNumber ||= file.position(invoice);
    } else {
      const read = taken.reader.readChecked(record.fields(), taken.line);
      if (read.errors) {
        fail(read.errors);
        return;
      }
      line.setLine(read.line);
      invoice = file.invoices.add(line.bytes, line.invoiceStart, line.invoiceEnd);
    }
    const first = file.keys.add(invoice, line.lineNumber, taken.line);
    if (first >= 0) {
      fail([
        {
          line: taken.line,
          column: "LineNumber",
          message: `invoice ${file.invoices.text(invoice)} line ${line.lineNumber} is also on line ${first}`,
        },
      ]);
      return;
    }
    if (errorCount > 0) return;
    lines++;
    file.giveIds(line);
    batch.add(line);
    cube.addLine(line);
    if (batch.count >= perBatch) {
      ready.push(batch.finish(file.take()));
      batch = new BatchWriter();
    }
  };

  const scanner = new CsvByteScanner();
  const input = typeof source === "string" ? createReadStream(source, { highWaterMark: 1 << 20 }) : source;
  for await (const chunk of input) {
    scanner.push(chunk as Uint8Array, onRecord);
    while (ready.length) yield ready.shift()!;
  }
  // The last record may fill a batch too (a file without a line break at its end).
  scanner.end(onRecord);
  yield* ready;
  fail(records.end());
  if (errorCount === 0 && batch.count) yield batch.finish(file.take());
  return {
    lines,
    errors,
    errorCount,
    cube: errorCount === 0 ? cube.finish() : new CubeCellsBuilder().finish(),
  };
}

/**
 * What an import keeps of a file while reading it, all looked up by bytes: its invoices (with the
 * position within each so far, for lines without LineNumber), the keys (invoice, line number) it
 * has given, and its own ids of clients, items and salespeople: 1, 2, … in the order it first
 * names them (`FileDimensions`), each with the first line's name.
 */
class FileKeys {
  readonly invoices = new ByteKeys();
  readonly keys = new PairKeys();
  private positions = new Int32Array(1024);
  private readonly clients = new ByteKeys();
  private readonly items = new ByteKeys();
  private readonly salespeople = new ByteKeys();
  /** Named first since the last `take`. */
  private found: FileDimensions = { clients: [], items: [], salespeople: [] };

  /** The next position within invoice `invoice` (a number of `invoices`). */
  position(invoice: number): number {
    if (invoice >= this.positions.length) {
      const positions = new Int32Array(Math.max(this.positions.length * 2, invoice + 1));
      positions.set(this.positions);
      this.positions = positions;
    }
    return ++this.positions[invoice]!;
  }

  /** Gives the line the file's ids of its client, item and salesperson (0: none). */
  giveIds(line: CheckedLine) {
    const { bytes } = line;
    const found = this.found;
    line.clientId = this.clients.add(bytes, line.clientCodeStart, line.clientCodeEnd) + 1;
    if (this.clients.added)
      found.clients.push({
        code: line.text(line.clientCodeStart, line.clientCodeEnd),
        name: line.text(line.clientNameStart, line.clientNameEnd),
      });
    line.itemId = this.items.add(bytes, line.itemCodeStart, line.itemCodeEnd) + 1;
    if (this.items.added)
      found.items.push({
        code: line.text(line.itemCodeStart, line.itemCodeEnd),
        name: line.text(line.itemNameStart, line.itemNameEnd),
        stockType: line.stockType,
        category: line.category,
      });
    if (line.salespersonStart === line.salespersonEnd) line.salespersonId = 0;
    else {
      line.salespersonId = this.salespeople.add(bytes, line.salespersonStart, line.salespersonEnd) + 1;
      if (this.salespeople.added)
        found.salespeople.push(line.text(line.salespersonStart, line.salespersonEnd));
    }
  }

  /** The dimensions named first since the last call. */
  take(): FileDimensions {
    const found = this.found;
    this.found = { clients: [], items: [], salespeople: [] };
    return found;
  }
}
