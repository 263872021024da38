import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { invoiceColumns, requiredColumns } from "./invoice-columns";
import { validateRow } from "./parse-invoice-rows";
import { InvoiceLineReader, invoiceLineOf } from "./read-invoice-line";

/** The reference: every record through validateRow, as imports read it before the fast path. */
function checkedReader(header: readonly string[]) {
  const positions = new Map<string, number>();
  const position = (invoice: string) => {
    const next = (positions.get(invoice) ?? 0) + 1;
    positions.set(invoice, next);
    return next;
  };
  return (fields: readonly string[], line: number) => {
    const raw: Record<string, string> = {};
    header.forEach((name, i) => {
      raw[name] = fields[i] ?? "";
    });
    const checked = validateRow(raw, line, position, { fields: fields.length, header: header.length });
    return checked.errors ? { errors: checked.errors } : { line: invoiceLineOf(checked.row) };
  };
}

// Each field: mostly values the fast path takes, sometimes ones it must leave to validateRow.
const mostly = <T>(valid: fc.Arbitrary<T>, irregular: fc.Arbitrary<T>) =>
  fc.oneof({ arbitrary: valid, weight: 9 }, { arbitrary: irregular, weight: 1 });
const amount = fc.integer({ min: -10_000_000, max: 10_000_000 }).map((n) => (n / 100).toFixed(2));
const quantity = fc.oneof(
  fc.integer({ min: -100_000_000, max: 100_000_000 }).map((n) => (n / 10000).toFixed(4)),
  fc.constantFrom("1", "3", "10", "-1", "2.5"),
);
const oddNumber = fc.constantFrom(
  "",
  "-0",
  "1,000.50",
  "1.",
  ".5",
  "+3",
  "1e3",
  " 7",
  "0.00001",
  "99999999999.9999",
  "100000000000",
  "9999999999999.99",
  "10000000000000.00",
);
const field = {
  date: mostly(
    fc.constantFrom("2025-05-03", "2024-02-29", "2025-12-31", "1900-01-01", "2999-12-31"),
    fc.constantFrom(
      "2023-02-29",
      "2025-13-01",
      " 2025-05-03",
      "2025-5-3",
      "",
      "x",
      "0000-01-01",
      "1899-12-31",
      "3000-01-01",
    ),
  ),
  code: mostly(
    fc.constantFrom("INV-1", "INV-2", "C1", "a".repeat(100), "Café", "Ørsted-7"),
    fc.constantFrom(
      " C1",
      "",
      "a".repeat(101),
      "é".repeat(51),
      "\u00a0C1",
      "C1\u2009",
      "\u3000",
      "C\u00001",
      "Caf\uFFFD",
    ),
  ),
  name: mostly(
    fc.constantFrom("", "Acme Ltd", "Jane", "Élodie", "José", "Ørsted A/S 🙂"),
    fc.constantFrom(
      " Acme",
      "Ünïcode",
      "a".repeat(201),
      "é".repeat(101),
      "\u00a0Acme",
      "Acme\u3000",
      "\u2028",
      "Ac\u0000me",
      "Soci\uFFFDt\uFFFD",
    ),
  ),
  line: mostly(
    fc.constantFrom("", "1", "2", "01", "999999999"),
    fc.constantFrom("0", "-1", "+1", "1.0", "0000000001", "x"),
  ),
  stockType: mostly(
    fc.constantFrom("Subscription", "Product", "Hourly", "hourly", "SUBSCRIPTION"),
    fc.constantFrom(" Product", "Other", "", "Hourl", "Hourly_", "Ho\u212Arly"),
  ),
  quantity: mostly(quantity, oddNumber),
  /** Mostly empty, so that Amount is Quantity x UnitPrice, rounded half to even. */
  amount: fc.oneof(fc.constant(""), mostly(amount, oddNumber)),
  /** Some of these make Quantity x UnitPrice land on half a cent. */
  unitPrice: mostly(
    fc.oneof(quantity, fc.constantFrom("0.005", "0.0150", "2.0050", "-0.0250", "1.0005")),
    oddNumber,
  ),
  cost: fc.oneof(fc.constant(""), mostly(amount, oddNumber)),
  serviceFrom: mostly(fc.constantFrom("", "2025-05-01"), fc.constantFrom("2025-07-31", "2025-02-30")),
  serviceTo: mostly(fc.constantFrom("", "2025-07-31", "2026-04-30"), fc.constantFrom("2025-04-30", "x")),
  recordType: mostly(
    fc.constantFrom("", "Actual", "Budget", "Forecast", "budget"),
    fc.constantFrom("Plan", "ACTUAL ", "Bud get"),
  ),
  category: mostly(
    fc.constantFrom("", "Recurring", "Adhoc", "Exclude", "adhoc"),
    fc.constantFrom("Other", "Ad-hoc", "EXCLUDE\u00a0"),
  ),
};

const record = fc.record({
  InvoiceDate: field.date,
  InvoiceNumber: field.code,
  LineNumber: field.line,
  ClientCode: field.code,
  ClientName: field.name,
  ItemCode: field.code,
  ItemName: field.name,
  StockType: field.stockType,
  Quantity: field.quantity,
  UnitPrice: field.unitPrice,
  Amount: field.amount,
  Cost: field.cost,
  Salesperson: field.name,
  ServiceFrom: field.serviceFrom,
  ServiceTo: field.serviceTo,
  RecordType: field.recordType,
  Category: field.category,
});

describe("InvoiceLineReader", () => {
  it("reads every record as validateRow does: the same values, the same errors", () => {
    fc.assert(
      fc.property(
        fc.shuffledSubarray([...invoiceColumns], { minLength: 14 }),
        fc.array(record, { minLength: 1, maxLength: 20 }),
        fc.array(fc.constantFrom([], [], [], [], ["extra"], [""]), { minLength: 20, maxLength: 20 }),
        (columns, records, extras) => {
          const fast = new InvoiceLineReader(columns);
          const checked = checkedReader(columns);
          records.forEach((r, i) => {
            // Now and then a field beyond the header's columns.
            const fields = [...columns.map((c) => r[c]), ...extras[i]!];
            expect(fast.read(fields, i + 2)).toEqual(checked(fields, i + 2));
          });
        },
      ),
      { numRuns: 400 },
    );
  });

  it("flags a field beyond the header, a date outside 1900 to 2999 and a NUL, whichever path reads it", () => {
    const header = [...requiredColumns, "Amount"];
    const reader = new InvoiceLineReader(header);
    const good = ["2025-05-01", "INV-1", "C1", "A", "Subscription", "1", "10.00"];
    expect(reader.read(good, 2).line?.invoiceDay).toBeGreaterThan(0);
    expect(reader.read([...good, "dropped"], 3).errors).toEqual([
      { line: 3, column: "field 8", message: "is beyond the header's 7 columns" },
    ]);
    expect(reader.read([...good, "", ""], 4).errors).toEqual([
      { line: 4, column: "field 8", message: "is beyond the header's 7 columns (the row has 9 fields)" },
    ]);
    expect(reader.read(["0000-05-01", ...good.slice(1)], 5).errors).toEqual([
      { line: 5, column: "InvoiceDate", message: "'0000-05-01' is not a date from 1900-01-01 to 2999-12-31" },
    ]);
    expect(reader.read([good[0]!, "INV\u00002", ...good.slice(2)], 6).errors).toEqual([
      { line: 6, column: "InvoiceNumber", message: "holds the NUL character" },
    ]);
    // Fewer fields than the header: the missing columns are empty.
    expect(reader.read(good.slice(0, 6), 7).errors).toEqual([
      { line: 7, column: "Amount", message: "is required when UnitPrice is empty" },
    ]);
  });

  it("gives a line without LineNumber its position within its invoice, whichever path reads it", () => {
    const reader = new InvoiceLineReader([...requiredColumns, "Amount"]);
    const numbers = [
      ["2025-05-01", "INV-1", "C1", "A", "Subscription", "1", "10.00"],
      ["2025-05-01", "INV-1", " C1", "A", "subscription", "1", "10.00"],
      ["2025-05-01", "INV-2", "C1", "A", "Subscription", "1", "10.00"],
      ["2025-05-01", "INV-1", "C1", "A", "Subscription", "1", "1,000.00"],
    ].map((fields, i) => reader.read(fields, i + 2).line?.lineNumber);
    expect(numbers).toEqual([1, 2, 1, 3]);
  });
});
