import { Readable } from "node:stream";
import type { ImportRowError } from "@varia/contracts";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { binaryCopyRows } from "../db/binary-copy";
import type { FileDimensions } from "./dimension-resolver";
import { type InvoiceColumn, importLimits, invoiceColumns, requiredColumns } from "./invoice-columns";
import { parseInvoiceRows } from "./parse-invoice-file";
import { type InvoiceRow, type ParsedRow, validateRow } from "./parse-invoice-rows";
import { type ImportFileSummary, readImportFile } from "./read-import-file";

/** A line as a batch's COPY rows hold it, with the file's own ids (salesperson 0: none). */
interface Line {
  invoiceNumber: string;
  lineNumber: number;
  /** Days since 2000-01-01. */
  invoiceDay: number;
  clientId: number;
  itemId: number;
  salespersonId: number;
  /** Ten-thousandths. */
  quantity: number;
  unitPrice: number | null;
  amountCents: number;
  costCents: number;
  serviceFromDay: number | null;
  serviceToDay: number | null;
  recordType: string;
}

interface Batch {
  lines: Line[];
  dimensions: FileDimensions;
}

interface Reading {
  batches: Batch[];
  summary: Omit<ImportFileSummary, "cube">;
}

/** A numeric of binary COPY as an integer count of ten-thousandths. */
function numeric4(field: Uint8Array): number {
  const view = new DataView(field.buffer, field.byteOffset, field.byteLength);
  const [count, weight, sign] = [view.getInt16(0), view.getInt16(2), view.getUint16(4)];
  let value = 0;
  for (let i = 0; i < count; i++) value += view.getInt16(8 + 2 * i) * 10000 ** (weight - i + 1);
  return sign === 0x4000 ? -value : value;
}

/** The lines of a batch's COPY body (the columns of `stagingColumns`). */
function linesOfCopy(chunks: readonly Uint8Array[]): Line[] {
  const int = (field: Uint8Array | null, bytes = 4) => {
    const view = new DataView(field!.buffer, field!.byteOffset, bytes);
    return bytes === 4 ? view.getInt32(0) : Number(view.getBigInt64(0));
  };
  const text = (field: Uint8Array | null) => Buffer.from(field!).toString("utf8");
  return [...binaryCopyRows(Buffer.concat(chunks))].map((f) => ({
    invoiceNumber: text(f[0]!),
    lineNumber: int(f[1]!),
    invoiceDay: int(f[2]!),
    clientId: int(f[3]!),
    itemId: int(f[4]!),
    salespersonId: int(f[5]!),
    quantity: numeric4(f[6]!),
    unitPrice: f[7] ? numeric4(f[7]) : null,
    amountCents: int(f[8]!, 8),
    costCents: int(f[9]!, 8),
    serviceFromDay: f[10] ? int(f[10]) : null,
    serviceToDay: f[11] ? int(f[11]) : null,
    recordType: text(f[12]!),
  }));
}

/** Everything `readImportFile` gives for a file fed in these chunks, its batches decoded. */
async function readChunks(chunks: readonly Uint8Array[], batchLines?: number): Promise<Reading> {
  async function* source() {
    for (const chunk of chunks) yield chunk;
  }
  const reading = readImportFile(source(), batchLines === undefined ? {} : { batchLines });
  const batches: Batch[] = [];
  for (;;) {
    const next = await reading.next();
    if (next.done) {
      const { cube, ...summary } = next.value;
      // The file's cube holds every line (or its monthly shares) once.
      if (summary.errorCount === 0) {
        const shares = batches.flatMap((b) => b.lines).reduce((n, l) => n + monthsOf(l), 0);
        expect(cube.lines.reduce((n, k) => n + k, 0)).toBe(shares);
      }
      return { batches, summary };
    }
    const { copy, lineCount, dimensions } = next.value;
    const lines = linesOfCopy(copy);
    expect(lines).toHaveLength(lineCount);
    batches.push({ lines, dimensions });
  }
}

/** The months a line's amount is spread over (one without a service period). */
function monthsOf(line: Line): number {
  if (line.serviceFromDay === null) return 1;
  const month = (day: number) => {
    const date = new Date(Date.UTC(2000, 0, 1 + day));
    return date.getUTCFullYear() * 12 + date.getUTCMonth();
  };
  return month(line.serviceToDay!) - month(line.serviceFromDay) + 1;
}

/** The plain reading of a whole file, in one piece. */
async function parseAll(bytes: Uint8Array): Promise<ParsedRow[]> {
  const rows: ParsedRow[] = [];
  for await (const row of parseInvoiceRows(Readable.from([Buffer.from(bytes)]))) rows.push(row);
  return rows;
}

/** Days since 2000-01-01. */
const dayOf = (date: string) => (Date.parse(`${date}T00:00:00Z`) - Date.UTC(2000, 0, 1)) / 86_400_000;
/** A decimal as validateRow writes it (a point and a fixed number of places), scaled to an integer. */
const scaled = (decimal: string) => Number(decimal.replace(".", ""));

/**
 * The reference: what an import should make of a file's rows, read plainly. A key given again is
 * an error naming the record it was first on (records with bad cells do not count); lines are
 * taken only until the first error; ids go 1, 2, … in order of first appearance, and each batch
 * names the dimensions it names first, with their first line's names. After an error only
 * complete batches of lines before it may come, the last short batch never.
 */
function expectedReading(rows: readonly ParsedRow[], batchLines: number): Reading {
  const errors: ImportRowError[] = [];
  const firstLines = new Map<string, number>();
  const taken: InvoiceRow[] = [];
  for (const parsed of rows) {
    if (parsed.errors) {
      errors.push(...parsed.errors);
      continue;
    }
    const { row } = parsed;
    const key = `${row.lineNumber} ${row.invoiceNumber}`;
    const first = firstLines.get(key);
    if (first !== undefined) {
      const message = `invoice ${row.invoiceNumber} line ${row.lineNumber} is also on line ${first}`;
      errors.push({ line: row.line, column: "LineNumber", message });
      continue;
    }
    firstLines.set(key, row.line);
    if (!errors.length) taken.push(row);
  }

  const ids = {
    clients: new Map<string, number>(),
    items: new Map<string, number>(),
    people: new Map<string, number>(),
  };
  const idOf = (known: Map<string, number>, key: string, named: () => void) => {
    let id = known.get(key);
    if (id === undefined) {
      id = known.size + 1;
      known.set(key, id);
      named();
    }
    return id;
  };
  const batches: Batch[] = [];
  for (let from = 0; from < taken.length; from += batchLines) {
    const rows = taken.slice(from, from + batchLines);
    if (rows.length < batchLines && errors.length) break;
    const dimensions: FileDimensions = { clients: [], items: [], salespeople: [] };
    const lines = rows.map(
      (row): Line => ({
        invoiceNumber: row.invoiceNumber,
        lineNumber: row.lineNumber,
        invoiceDay: dayOf(row.invoiceDate),
        clientId: idOf(ids.clients, row.clientCode, () =>
          dimensions.clients.push({ code: row.clientCode, name: row.clientName }),
        ),
        itemId: idOf(ids.items, row.itemCode, () =>
          dimensions.items.push({
            code: row.itemCode,
            name: row.itemName,
            stockType: row.stockType,
            category: row.category,
          }),
        ),
        salespersonId:
          row.salesperson === null
            ? 0
            : idOf(ids.people, row.salesperson, () => dimensions.salespeople.push(row.salesperson!)),
        quantity: scaled(row.quantity),
        unitPrice: row.unitPrice === null ? null : scaled(row.unitPrice),
        amountCents: Number(row.amountCents),
        costCents: Number(row.costCents),
        serviceFromDay: row.serviceFrom === null ? null : dayOf(row.serviceFrom),
        serviceToDay: row.serviceTo === null ? null : dayOf(row.serviceTo),
        recordType: row.recordType,
      }),
    );
    batches.push({ lines, dimensions });
  }
  return {
    batches,
    summary: {
      lines: taken.length,
      errors: errors.slice(0, importLimits.maxListedErrors),
      errorCount: errors.length,
    },
  };
}

/**
 * Holds a reading to the reference: all of it when the file is good; when it is not, the same
 * summary, and batches that are only the first of those complete before the first error.
 */
function expectReading(actual: Reading, expected: Reading) {
  expect(actual.summary).toEqual(expected.summary);
  if (expected.summary.errorCount === 0) expect(actual.batches).toEqual(expected.batches);
  else {
    expect(actual.batches.length).toBeLessThanOrEqual(expected.batches.length);
    expect(actual.batches).toEqual(expected.batches.slice(0, actual.batches.length));
  }
}

// Generated files: a header, then records of mostly good values (some only after trimming or in
// another letter case), with a few bad ones in some files.

type Column = InvoiceColumn | "Notes";
type Fields = Record<Column, string>;

const names = [
  "",
  "Acme Ltd",
  "Jane",
  "Müller GmbH",
  "Ünïcode",
  "🙂",
  "Smile 🙂 Co",
  "Smith, Jones & Co",
  "Semi;colon",
  'The "Best" Ltd',
  "two\nlines",
  "two\r\nlines",
  " Padded ",
  "x".repeat(200),
  // 200 characters in 398 bytes.
  `a${"é".repeat(198)}a`,
];
const amount = fc.integer({ min: -10_000_000, max: 10_000_000 }).map((n) => (n / 100).toFixed(2));
const quantity = fc.oneof(
  fc.integer({ min: -100_000_000, max: 100_000_000 }).map((n) => (n / 10000).toFixed(4)),
  fc.constantFrom("1", "3", "10", "-1", "2.5", "1,000.5"),
);
const unitPrice = fc.oneof(quantity, fc.constantFrom("0.005", "0.0150", "2.0050", "-0.0250", "1.0005"));

const goodRecord = fc.record({
  InvoiceDate: fc.constantFrom("2025-05-03", "2024-02-29", "2025-12-31", "2000-01-01", "1999-12-31"),
  InvoiceNumber: fc.constantFrom("INV-1", "INV-2", "INV-3", "Café-7", "a".repeat(100)),
  LineNumber: fc.constantFrom("", "", "1", "2", "3", "01"),
  ClientCode: fc.constantFrom("C1", "C2", "C3", "Müller", " C2 ", "\u00a0C3\u3000", "Ä".repeat(100)),
  ClientName: fc.constantFrom(...names),
  ItemCode: fc.constantFrom("A", "B", "SUB-PRO", "Ärger"),
  ItemName: fc.constantFrom(...names),
  StockType: fc.constantFrom("Subscription", "Product", "Hourly", "hourly"),
  Quantity: quantity,
  UnitPrice: unitPrice,
  Amount: amount,
  Cost: fc.oneof(fc.constant(""), amount),
  Salesperson: fc.constantFrom("", "Jane", "Jane Smith", "José", " Jane ", "🙂"),
  ServiceFrom: fc.constant(""),
  ServiceTo: fc.constant(""),
  RecordType: fc.constantFrom("", "Actual", "Budget", "Forecast", "budget"),
  Category: fc.constantFrom("", "Recurring", "Adhoc", "Exclude", "adhoc"),
  Notes: fc.constantFrom(...names),
});
const service = fc.constantFrom(["", ""], ["2025-05-01", "2025-07-31"], ["2025-05-01", "2025-05-01"]);

const oddNumber = ["", "-0", "1.", ".5", "+3", "1e3", " 7", "0.00001", "99999999999.9999", "100000000000"];
const oddValues: Record<InvoiceColumn, string[]> = {
  InvoiceDate: ["2023-02-29", "2025-13-01", " 2025-05-03", "2025-5-3", "", "x"],
  InvoiceNumber: [" INV-1", "INV-2 ", "", "a".repeat(101)],
  LineNumber: ["0", "-1", "+1", "1.0", "0000000001", "x", " 2 ", "999999999", "1000000000"],
  ClientCode: ["", " ", "a".repeat(101), "C1 "],
  ClientName: ["x".repeat(201), " Ünïcode ", `a${"é".repeat(199)}a`],
  ItemCode: ["", " B", "a".repeat(101), "Ä".repeat(101), "\u2003"],
  ItemName: ["x".repeat(201), "\u00a0Nbsp\u00a0"],
  StockType: ["Other", " Product", "", "PRODUCT"],
  Quantity: oddNumber,
  UnitPrice: [...oddNumber, "9999999999999.99"],
  Amount: [...oddNumber, "9999999999999.99", "10000000000000.00"],
  Cost: [...oddNumber, "10000000000000.00"],
  Salesperson: ["x".repeat(201), "  "],
  ServiceFrom: ["2025-07-31", "2025-02-30", ""],
  ServiceTo: ["2025-04-30", "x", ""],
  RecordType: ["Plan", " BUDGET"],
  Category: ["Other", "EXCLUDE "],
};
const oddRecord = fc.record(
  Object.fromEntries(invoiceColumns.map((c) => [c, fc.constantFrom(...oddValues[c])])) as Record<
    InvoiceColumn,
    fc.Arbitrary<string>
  >,
);

const optionalColumns = invoiceColumns.filter(
  (c) => !requiredColumns.includes(c) && c !== "Amount" && c !== "UnitPrice",
);
/** Required columns, Amount or UnitPrice or both, some others, sometimes a column we do not know. */
const header = fc
  .record({
    optional: fc.subarray(optionalColumns),
    priced: fc.constantFrom<InvoiceColumn[]>(["Amount"], ["UnitPrice"], ["Amount", "UnitPrice"]),
    notes: fc.boolean(),
  })
  .chain(({ optional, priced, notes }) => {
    const columns: Column[] = [
      ...requiredColumns,
      ...priced,
      ...optional,
      ...(notes ? ["Notes" as const] : []),
    ];
    return fc.shuffledSubarray(columns, { minLength: columns.length, maxLength: columns.length });
  });

const generatedFile = fc.record({
  columns: header,
  cases: fc.array(fc.constantFrom("same", "same", "lower", "upper", "spaced"), {
    minLength: 18,
    maxLength: 18,
  }),
  records: fc.array(
    fc.record({
      good: goodRecord,
      service,
      amountBlank: fc.boolean(),
      unitPriceBlank: fc.boolean(),
      odd: oddRecord,
      oddColumns: fc.subarray([...invoiceColumns], { minLength: 1, maxLength: 3 }),
      oddRoll: fc.nat({ max: 59 }),
      /** Fields left off the end (of an odd record), or extra fields after the last column. */
      shape: fc.oneof(
        { arbitrary: fc.constant(0), weight: 8 },
        { arbitrary: fc.integer({ min: -5, max: -1 }), weight: 1 },
        { arbitrary: fc.constantFrom(["extra"], ["", ""]), weight: 1 },
      ),
    }),
    { maxLength: 40, size: "max" },
  ),
  /** How many records in 60 have odd values: none, a few, many. */
  oddness: fc.constantFrom(0, 0, 3, 20),
  /** Unique keys (explicit LineNumbers of 100 and up, so that positions never meet them), or few. */
  uniqueKeys: fc.constantFrom(true, true, false),
  oneInvoice: fc.boolean(),
  /** Records given the key of another. */
  repeats: fc.oneof(
    { arbitrary: fc.constant([]), weight: 3 },
    { arbitrary: fc.array(fc.tuple(fc.nat(), fc.nat()), { minLength: 1, maxLength: 3 }), weight: 1 },
  ),
  delimiter: fc.constantFrom(",", ";"),
  newline: fc.constantFrom("\n", "\r\n"),
  bom: fc.boolean(),
  finalNewline: fc.boolean(),
  quoting: fc.constantFrom("needed", "needed", "spaces", "all"),
  /** Blank records after the header ("D" is the delimiter). */
  blanks: fc.array(
    fc.record({
      at: fc.nat(),
      text: fc.constantFrom("", "", "  ", "\t", "D", "DD", " D ", "\u00a0", '""', '" "'),
    }),
    { maxLength: 4 },
  ),
  cuts: fc.array(fc.nat(), { maxLength: 12 }),
  /** Cuts inside a UTF-8 character, between CR and LF, or after a quote. */
  awkwardCuts: fc.array(fc.nat(), { maxLength: 4 }),
  batchLines: fc.integer({ min: 3, max: 7 }),
});
type GeneratedFile = typeof generatedFile extends fc.Arbitrary<infer T> ? T : never;

/** The file's header, records (their fields as written, blank ones included) and bytes, cut into chunks. */
function fileOf(g: GeneratedFile) {
  const has = (column: Column) => g.columns.includes(column);
  const records: Fields[] = g.records.map((r, i) => {
    const fields: Fields = { ...r.good, ServiceFrom: r.service[0]!, ServiceTo: r.service[1]! };
    if (g.oneInvoice) fields.InvoiceNumber = "INV-1";
    if (g.uniqueKeys && fields.LineNumber)
      fields.LineNumber = `${fields.LineNumber.startsWith("0") ? "0" : ""}${100 + i}`;
    // Amount may be left to Quantity x UnitPrice, and UnitPrice left out when Amount is given.
    if (r.amountBlank && has("UnitPrice")) fields.Amount = "";
    else if (r.unitPriceBlank && has("Amount")) fields.UnitPrice = "";
    if (r.oddRoll < g.oddness) for (const column of r.oddColumns) fields[column] = r.odd[column];
    return fields;
  });
  for (const [from, to] of g.repeats) {
    if (!records.length) break;
    const source = records[from % records.length]!;
    const target = records[to % records.length]!;
    target.InvoiceNumber = source.InvoiceNumber;
    target.LineNumber = source.LineNumber;
  }

  const cell = (value: string) =>
    g.quoting === "all" ||
    /["\r\n]/.test(value) ||
    value.includes(g.delimiter) ||
    (g.quoting === "spaces" && value !== value.trim())
      ? `"${value.replaceAll('"', '""')}"`
      : value;
  const headerNames = g.columns.map((column, i) => {
    const form = g.cases[i];
    return form === "lower"
      ? column.toLowerCase()
      : form === "upper"
        ? column.toUpperCase()
        : form === "spaced"
          ? ` ${column} `
          : column;
  });
  const rows = records.map((record, i) => {
    const fields = g.columns.map((c) => record[c]);
    const shape = g.records[i]!.shape;
    if (typeof shape !== "number") return [...fields, ...shape];
    return g.records[i]!.oddRoll < g.oddness ? fields.slice(0, Math.max(1, fields.length + shape)) : fields;
  });
  const lines = [headerNames, ...rows].map((fields) => fields.map(cell).join(g.delimiter));
  // Which row each record is (-1: the header or a blank record), to number them as the file does.
  const rowAt = [-1, ...rows.map((_, i) => i)];
  for (const blank of g.blanks) {
    const at = 1 + (blank.at % lines.length);
    lines.splice(at, 0, blank.text.replaceAll("D", g.delimiter));
    rowAt.splice(at, 0, -1);
  }
  // A row's line: its record's place in the file, blank records counted, the header being line 1.
  const rowLines = rows.map((_, i) => rowAt.indexOf(i) + 1);
  const text = `${g.bom ? "\uFEFF" : ""}${lines.join(g.newline)}${g.finalNewline ? g.newline : ""}`;
  const bytes = new TextEncoder().encode(text);

  const awkward: number[] = [];
  for (let i = 1; i < bytes.length; i++)
    if ((bytes[i]! & 0xc0) === 0x80 || bytes[i - 1] === 13 || bytes[i - 1] === 34) awkward.push(i);
  const cuts = [
    ...g.cuts.map((cut) => cut % (bytes.length + 1)),
    ...(awkward.length ? g.awkwardCuts.map((cut) => awkward[cut % awkward.length]!) : []),
  ].sort((a, b) => a - b);
  const chunks: Uint8Array[] = [];
  let from = 0;
  for (const cut of cuts) {
    chunks.push(bytes.slice(from, cut));
    from = cut;
  }
  chunks.push(bytes.slice(from));
  return { columns: g.columns, rows, rowLines, bytes, chunks };
}

/** The records through validateRow, read straight from the generator (blank records skipped, but counted as lines). */
function checkedRows(file: {
  columns: readonly Column[];
  rows: readonly string[][];
  rowLines: readonly number[];
}): ParsedRow[] {
  const positions = new Map<string, number>();
  const position = (invoice: string) => {
    const next = (positions.get(invoice) ?? 0) + 1;
    positions.set(invoice, next);
    return next;
  };
  const parsed: ParsedRow[] = [];
  for (const [i, fields] of file.rows.entries()) {
    if (fields.every((field) => field.trim() === "")) continue;
    const line = file.rowLines[i]!;
    const raw: Partial<Record<InvoiceColumn, string>> = {};
    file.columns.forEach((column, i) => {
      if (column !== "Notes") raw[column] = fields[i] ?? "";
    });
    // A field beyond the header's columns is a bad cell.
    parsed.push(validateRow(raw, line, position, { fields: fields.length, header: file.columns.length }));
  }
  return parsed;
}

const encode = (text: string) => new TextEncoder().encode(text);
/** One chunk a byte. */
const bytewise = (bytes: Uint8Array) => Array.from(bytes, (b) => Uint8Array.of(b));
/** Chunks of `size` bytes. */
const chunksOf = (bytes: Uint8Array, size: number) =>
  Array.from({ length: Math.ceil(bytes.length / size) }, (_, i) => bytes.slice(i * size, (i + 1) * size));

describe("parseInvoiceRows", () => {
  it("reads a generated file as its records read one by one through validateRow", async () => {
    await fc.assert(
      fc.asyncProperty(generatedFile, async (g) => {
        const file = fileOf(g);
        expect(await parseAll(file.bytes)).toEqual(checkedRows(file));
      }),
      { numRuns: 200 },
    );
  });
});

describe("readImportFile", () => {
  it("reads any file, its bytes cut anywhere, as the reference does: lines, ids, dimensions and errors", async () => {
    await fc.assert(
      fc.asyncProperty(generatedFile, async (g) => {
        const file = fileOf(g);
        const expected = expectedReading(checkedRows(file), g.batchLines);
        expectReading(await readChunks(file.chunks, g.batchLines), expected);
      }),
      { numRuns: 300 },
    );
  });

  it("keeps a quoted field's delimiters, quotes and line breaks, and counts records, not text lines", async () => {
    const text = [
      "InvoiceDate,InvoiceNumber,LineNumber,ClientCode,ClientName,ItemCode,ItemName,StockType,Quantity,UnitPrice,Salesperson",
      '2025-05-03,INV-1,,C1,"Smith, ""Jones""\r\n& Co",A,"Widget\n🙂",Product,2,1.005,Jane',
      "2025-05-03,INV-1,,C1,Other name,B,,Hourly,1.5,10,",
      '2024-02-29,Café-7,5,C2,Müller GmbH,A,ignored,Subscription,-1,0.0050," José "',
      "",
    ].join("\r\n");
    const reading = await readChunks(bytewise(encode(text)), 2);
    const line = { serviceFromDay: null, serviceToDay: null, costCents: 0, recordType: "Actual" };
    expect(reading).toEqual({
      batches: [
        {
          lines: [
            {
              ...line,
              invoiceNumber: "INV-1",
              lineNumber: 1,
              invoiceDay: dayOf("2025-05-03"),
              clientId: 1,
              itemId: 1,
              salespersonId: 1,
              quantity: 20000,
              unitPrice: 10050,
              amountCents: 201,
            },
            {
              ...line,
              invoiceNumber: "INV-1",
              lineNumber: 2,
              invoiceDay: dayOf("2025-05-03"),
              clientId: 1,
              itemId: 2,
              salespersonId: 0,
              quantity: 15000,
              unitPrice: 100000,
              amountCents: 1500,
            },
          ],
          dimensions: {
            clients: [{ code: "C1", name: 'Smith, "Jones"\r\n& Co' }],
            items: [
              { code: "A", name: "Widget\n🙂", stockType: "Product", category: null },
              { code: "B", name: "", stockType: "Hourly", category: null },
            ],
            salespeople: ["Jane"],
          },
        },
        {
          lines: [
            {
              ...line,
              invoiceNumber: "Café-7",
              lineNumber: 5,
              invoiceDay: dayOf("2024-02-29"),
              clientId: 2,
              itemId: 1,
              salespersonId: 2,
              quantity: -10000,
              unitPrice: 50,
              amountCents: 0,
            },
          ],
          dimensions: { clients: [{ code: "C2", name: "Müller GmbH" }], items: [], salespeople: ["José"] },
        },
      ],
      summary: { lines: 3, errors: [], errorCount: 0 },
    });
    expectReading(reading, expectedReading(await parseAll(encode(text)), 2));
  });

  it("reads a file that is only a header as no lines and no errors", async () => {
    for (const text of [
      "\uFEFFInvoiceDate;InvoiceNumber;ClientCode;ItemCode;StockType;Quantity;UnitPrice",
      "InvoiceDate,InvoiceNumber,ClientCode,ItemCode,StockType,Quantity,Amount\r\n\r\n , \r\n",
    ]) {
      expect(await readChunks(bytewise(encode(text)), 3)).toEqual({
        batches: [],
        summary: { lines: 0, errors: [], errorCount: 0 },
      });
    }
  });

  it("finds an empty file (no bytes, a byte order mark, blank lines) empty", async () => {
    const empty = { line: 1, column: "", message: "the file is empty" };
    for (const chunks of [
      [],
      [new Uint8Array(0)],
      [encode("\uFEFF")],
      bytewise(encode("\uFEFF\r\n  \n , \n")),
    ]) {
      expect(await readChunks(chunks)).toEqual({
        batches: [],
        summary: { lines: 0, errors: [empty], errorCount: 1 },
      });
    }
  });

  it("rejects a bad header with its errors, reading no further", async () => {
    const text = "Date,Invoice,ClientCode,ItemCode,StockType,Quantity\n2025-05-03,INV-1,C1,A,Nonsense,x\n";
    expect(await readChunks([encode(text)])).toEqual({
      batches: [],
      summary: {
        lines: 0,
        errors: [
          { line: 1, column: "InvoiceDate", message: "required column is missing" },
          { line: 1, column: "InvoiceNumber", message: "required column is missing" },
          { line: 1, column: "Amount", message: "either Amount or UnitPrice is required" },
        ],
        errorCount: 3,
      },
    });
  });

  it("lists the first errors of a file and counts them all", async () => {
    const rows = Array.from({ length: 600 }, (_, i) => `2025-05-03,INV-1,${i + 1},C1,A,Other,x,1.00`);
    const text = [
      "InvoiceDate,InvoiceNumber,LineNumber,ClientCode,ItemCode,StockType,Quantity,Amount",
      ...rows,
    ].join("\n");
    const reading = await readChunks([encode(text)], 5);
    expect(reading.batches).toEqual([]);
    expect(reading.summary.errorCount).toBe(1200);
    expect(reading.summary.errors).toHaveLength(importLimits.maxListedErrors);
    expect(reading.summary.errors.at(-1)).toEqual({
      line: 501,
      column: "Quantity",
      message: "'x' is not a number with at most 4 decimals",
    });
    expectReading(reading, expectedReading(await parseAll(encode(text)), 5));
  });

  it("finds a key given again, also in a long invoice and after the first error, but not on a bad record", async () => {
    const record = (invoice: string, line: string, quantity = "1") =>
      `2025-05-03,${invoice},${line},C1,A,Product,${quantity},1.00`;
    const text = [
      "InvoiceDate,InvoiceNumber,LineNumber,ClientCode,ItemCode,StockType,Quantity,Amount",
      ...Array.from({ length: 40 }, (_, i) => record("INV-1", `${i + 1}`)), // lines 2 to 41
      record("INV-2", "1"), // 42
      record("INV-1", "17"), // 43: first on 18
      record("INV-2", "01"), // 44: first on 42
      record("INV-3", "1", "x"), // 45: a bad cell
      record("INV-3", "1"), // 46: not a repeat of 45
      record("INV-3", ""), // 47: the first line of INV-3 without a number, so line 1 again
    ].join("\n");
    const reading = await readChunks([encode(text)], 10);
    expect(reading.summary).toEqual({
      lines: 41,
      errors: [
        { line: 43, column: "LineNumber", message: "invoice INV-1 line 17 is also on line 18" },
        { line: 44, column: "LineNumber", message: "invoice INV-2 line 1 is also on line 42" },
        { line: 45, column: "Quantity", message: "'x' is not a number with at most 4 decimals" },
        { line: 47, column: "LineNumber", message: "invoice INV-3 line 1 is also on line 46" },
      ],
      errorCount: 4,
    });
    expectReading(reading, expectedReading(await parseAll(encode(text)), 10));
  });

  it("keeps thousands of invoices, clients, items and salespeople apart", async () => {
    const header =
      "InvoiceDate,InvoiceNumber,LineNumber,ClientCode,ClientName,ItemCode,ItemName,StockType,Quantity,Amount,Salesperson";
    // Invoice k has the records k, k + 1500, …: numbered when k is even, by position when it is odd.
    const rows = Array.from(
      { length: 4000 },
      (_, i) =>
        `2025-05-03,${"N".repeat(80)}-${i % 1500},${i % 2 ? "" : i + 1},C${i},Client ${i % 7},I${(i * 7) % 1100},Item,Product,1,${i}.00,Rep ${i % 1200}`,
    );
    for (const again of [[], [rows[4]!]]) {
      const bytes = encode([header, ...rows, ...again].join("\n"));
      const reading = await readChunks(chunksOf(bytes, 4093), 1000);
      expectReading(reading, expectedReading(await parseAll(bytes), 1000));
      expect(reading.summary.errors).toEqual(
        again.length
          ? [
              {
                line: 4002,
                column: "LineNumber",
                message: `invoice ${"N".repeat(80)}-4 line 5 is also on line 6`,
              },
            ]
          : [],
      );
    }
  });
});
