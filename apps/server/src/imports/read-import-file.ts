import { createReadStream } from "node:fs";
import { StringDecoder } from "node:string_decoder";
import type { ImportRowError } from "@varia/contracts";
import { LineBlockBuilder } from "../lines/line-block";
import { type BuiltBlock, blockLines, buildBlock } from "../lines/line-blocks-store";
import { type CsvRecord, CsvRecordScanner } from "./csv-records";
import type { FileDimensions } from "./dimension-resolver";
import { importLimits } from "./invoice-columns";
import { type InvoiceLine, InvoiceRecords } from "./read-invoice-line";

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
  /** Lines per batch (one stored block each). */
  batchLines?: number;
}

/**
 * Lines of one block, with the file's provisional ids of clients, items and salespeople (see
 * `FileDimensions`), and the dimensions the file names first in this batch.
 */
export interface LineBatch {
  block: BuiltBlock;
  dimensions: FileDimensions;
}

export interface ImportFileSummary {
  lines: number;
  errors: ImportRowError[];
  errorCount: number;
}

/**
 * Reads an import file (its path, or its bytes as they arrive) as a stream, checking every record,
 * and yields its lines in blocks; returns the summary. It needs nothing of the organisation: ids
 * are the file's own (`FileDimensions`), given the stored ones when the import runs. Once a bad
 * record is seen no more batches come (the import will be rolled back), but reading goes on so
 * that every bad cell is listed.
 */
export async function* readImportFile(
  source: string | AsyncIterable<Uint8Array>,
  options: ReadImportOptions = {},
): AsyncGenerator<LineBatch, ImportFileSummary> {
  const batchLines = options.batchLines ?? blockLines;
  const ids = new FileDimensionIds();
  const seen = new LineKeys();
  const errors: ImportRowError[] = [];
  let errorCount = 0;
  let lines = 0;
  const records = new InvoiceRecords();
  let batch = new LineBlockBuilder(batchLines);
  const ready: LineBatch[] = [];

  const fail = (found: ImportRowError[]) => {
    errorCount += found.length;
    for (const e of found) if (errors.length < importLimits.maxListedErrors) errors.push(e);
  };
  const onRecord = (fields: CsvRecord) => {
    const record = records.takeRecord(fields);
    if (!record) return;
    if ("errors" in record) {
      fail(record.errors);
      return;
    }
    const read = record.reader.readRecord(fields, record.line);
    if (read.errors) {
      fail(read.errors);
      return;
    }
    const line = read.line;
    const first = seen.add(line.invoiceNumber, line.lineNumber, line.line);
    if (first !== undefined) {
      fail([
        {
          line: line.line,
          column: "LineNumber",
          message: `invoice ${line.invoiceNumber} line ${line.lineNumber} is also on line ${first}`,
        },
      ]);
      return;
    }
    if (errorCount > 0) return;
    lines++;
    // Ids in file order: a new client, item or salesperson takes its first line's name.
    line.clientId = ids.client(line);
    line.itemId = ids.item(line);
    line.salespersonId = line.salesperson ? ids.salesperson(line.salesperson) : 0;
    batch.add(line);
    if (batch.count >= batchLines) {
      ready.push({ block: buildBlock(batch), dimensions: ids.take() });
      batch = new LineBlockBuilder(batchLines);
    }
  };

  const scanner = new CsvRecordScanner();
  const input = typeof source === "string" ? createReadStream(source, { highWaterMark: 1 << 20 }) : source;
  const decoder = new StringDecoder("utf8");
  for await (const chunk of input) {
    scanner.pushRecords(decoder.write(chunk as Buffer), onRecord);
    while (ready.length) yield ready.shift()!;
  }
  scanner.pushRecords(decoder.end(), onRecord);
  scanner.endRecords(onRecord);
  fail(records.end());
  if (errorCount === 0 && batch.count) yield { block: buildBlock(batch), dimensions: ids.take() };
  return { lines, errors, errorCount };
}

/**
 * The keys (invoice number, line number) of a file, to find a key given twice: per invoice, its
 * line numbers and the records they were on (a list while short, a map when an invoice is long).
 * The lines of an invoice mostly come together, so the last invoice is kept at hand.
 */
class LineKeys {
  private readonly invoices = new Map<string, number[] | Map<number, number>>();
  private lastInvoice: string | undefined;
  private lastLines: number[] | Map<number, number> = [];

  /** Records the key; answers the record it was first on, if it was seen before. */
  add(invoiceNumber: string, lineNumber: number, record: number): number | undefined {
    let lines: number[] | Map<number, number> | undefined;
    if (invoiceNumber === this.lastInvoice) lines = this.lastLines;
    else {
      lines = this.invoices.get(invoiceNumber);
      if (lines === undefined) {
        lines = [lineNumber, record];
        this.invoices.set(invoiceNumber, lines);
        this.lastInvoice = invoiceNumber;
        this.lastLines = lines;
        return undefined;
      }
      this.lastInvoice = invoiceNumber;
      this.lastLines = lines;
    }
    if (lines instanceof Map) {
      const first = lines.get(lineNumber);
      if (first === undefined) lines.set(lineNumber, record);
      return first;
    }
    for (let i = 0; i < lines.length; i += 2) if (lines[i] === lineNumber) return lines[i + 1];
    if (lines.length < 32) lines.push(lineNumber, record);
    else {
      const map = new Map<number, number>();
      for (let i = 0; i < lines.length; i += 2) map.set(lines[i]!, lines[i + 1]!);
      map.set(lineNumber, record);
      this.invoices.set(invoiceNumber, map);
      this.lastLines = map;
    }
    return undefined;
  }
}

/**
 * The file's own ids of its clients, items and salespeople: 1, 2, … in the order it first names
 * them (`FileDimensions`). Consecutive lines often name the same client and item, so the last of
 * each is kept at hand.
 */
class FileDimensionIds {
  private readonly clientIds = new Map<string, number>();
  private readonly itemIds = new Map<string, number>();
  private readonly salespersonIds = new Map<string, number>();
  /** Named first since the last `take`. */
  private found: FileDimensions = { clients: [], items: [], salespeople: [] };
  private lastClient: string | undefined;
  private lastClientId = 0;
  private lastItem: string | undefined;
  private lastItemId = 0;
  private lastSalesperson: string | undefined;
  private lastSalespersonId = 0;

  client(line: InvoiceLine): number {
    const code = line.clientCode;
    if (code === this.lastClient) return this.lastClientId;
    let id = this.clientIds.get(code);
    if (id === undefined) {
      id = this.clientIds.size + 1;
      this.clientIds.set(code, id);
      this.found.clients.push({ code, name: line.clientName });
    }
    this.lastClient = code;
    this.lastClientId = id;
    return id;
  }

  item(line: InvoiceLine): number {
    const code = line.itemCode;
    if (code === this.lastItem) return this.lastItemId;
    let id = this.itemIds.get(code);
    if (id === undefined) {
      id = this.itemIds.size + 1;
      this.itemIds.set(code, id);
      this.found.items.push({
        code,
        name: line.itemName,
        stockType: line.stockType,
        category: line.category,
      });
    }
    this.lastItem = code;
    this.lastItemId = id;
    return id;
  }

  salesperson(name: string): number {
    if (name === this.lastSalesperson) return this.lastSalespersonId;
    let id = this.salespersonIds.get(name);
    if (id === undefined) {
      id = this.salespersonIds.size + 1;
      this.salespersonIds.set(name, id);
      this.found.salespeople.push(name);
    }
    this.lastSalesperson = name;
    this.lastSalespersonId = id;
    return id;
  }

  /** The dimensions named first since the last call. */
  take(): FileDimensions {
    const found = this.found;
    this.found = { clients: [], items: [], salespeople: [] };
    return found;
  }
}
