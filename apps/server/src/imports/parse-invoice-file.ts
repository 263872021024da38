import type { Readable } from "node:stream";
import { StringDecoder } from "node:string_decoder";
import { CsvRecordScanner } from "./csv-records";
import type { ParsedRow } from "./parse-invoice-rows";
import { InvoiceRecords } from "./read-invoice-line";

/**
 * Streams the rows of an invoice CSV through `validateRow` (UTF-8 with or without BOM, comma or
 * semicolon, quoted fields with newlines). Lines count records, the header being line 1. Imports
 * read files with `readImportFile`; this is the plain reading that tests check files with.
 */
export async function* parseInvoiceRows(input: Readable): AsyncGenerator<ParsedRow> {
  const scanner = new CsvRecordScanner();
  const decoder = new StringDecoder("utf8");
  const records = new InvoiceRecords();
  const parsed: ParsedRow[] = [];
  const collect = (fields: string[]) => {
    const record = records.take(fields);
    if (record) parsed.push("errors" in record ? record : record.reader.readRow(fields, record.line));
  };
  for await (const chunk of input) {
    scanner.push(typeof chunk === "string" ? chunk : decoder.write(chunk as Buffer), collect);
    yield* parsed.splice(0);
  }
  scanner.push(decoder.end(), collect);
  scanner.end(collect);
  yield* parsed.splice(0);
  const empty = records.end();
  if (empty.length) yield { errors: empty };
}
