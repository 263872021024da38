import type { Readable } from "node:stream";
import { type ByteRecord, CsvByteScanner } from "./csv-bytes";
import type { ParsedRow } from "./parse-invoice-rows";
import { InvoiceRecords } from "./read-invoice-line";

/**
 * Streams the rows of an invoice CSV through `validateRow` (UTF-8 with or without BOM, comma or
 * semicolon, quoted fields with newlines). Lines count records, the header being line 1. Imports
 * read files with `readImportFile`; this is the plain reading that tests check files with.
 */
export async function* parseInvoiceRows(input: Readable): AsyncGenerator<ParsedRow> {
  const scanner = new CsvByteScanner();
  const records = new InvoiceRecords();
  const parsed: ParsedRow[] = [];
  const collect = (record: ByteRecord) => {
    const fields = record.fields();
    const taken = records.take(fields, record);
    if (taken) parsed.push("errors" in taken ? taken : taken.reader.readRow(fields, taken.line));
  };
  for await (const chunk of input) {
    scanner.push(typeof chunk === "string" ? Buffer.from(chunk, "utf8") : (chunk as Uint8Array), collect);
    yield* parsed.splice(0);
  }
  scanner.end(collect);
  yield* parsed.splice(0);
  const empty = records.end();
  if (empty.length) yield { errors: empty };
}
