import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { BinaryCopyWriter } from "../db/binary-copy";
import { stagingColumns } from "./read-import-file";
import { withStoredIds } from "./stored-id-batch";

interface Line {
  invoice: string;
  lineNumber: number;
  day: number;
  client: number;
  item: number;
  salesperson: number;
  quantity: number;
  unitPrice: number | null;
  amount: number;
  cost: number;
  service: [number, number] | null;
  recordType: string;
}

/** Writes lines in the staging table's layout, or (`ids` given) in `invoice_lines`' with those ids. */
function write(
  lines: Line[],
  chunkBytes: number,
  ids?: { client: number[]; item: number[]; salesperson: number[] },
) {
  const w = new BinaryCopyWriter(chunkBytes);
  for (const line of lines) {
    w.row(stagingColumns.length);
    w.text(line.invoice);
    w.int4(line.lineNumber);
    w.date(line.day);
    if (ids) {
      w.int8(ids.client[line.client]!);
      w.int8(ids.item[line.item]!);
      const salesperson = ids.salesperson[line.salesperson]!;
      if (salesperson === 0) w.null();
      else w.int8(salesperson);
    } else {
      w.int4(line.client);
      w.int4(line.item);
      w.int4(line.salesperson);
    }
    w.numeric4(line.quantity);
    if (line.unitPrice === null) w.null();
    else w.numeric4(line.unitPrice);
    w.int8(line.amount);
    w.int8(line.cost);
    if (line.service) {
      w.date(line.service[0]);
      w.date(line.service[1]);
    } else {
      w.null();
      w.null();
    }
    w.text(line.recordType);
  }
  return Buffer.concat(w.finish());
}

const line = (dimensions: number) =>
  fc.record({
    invoice: fc.string({ minLength: 1, maxLength: 30, unit: "grapheme" }),
    lineNumber: fc.integer({ min: 1, max: 100_000 }),
    day: fc.integer({ min: -10_000, max: 20_000 }),
    client: fc.integer({ min: 1, max: dimensions }),
    item: fc.integer({ min: 1, max: dimensions }),
    salesperson: fc.integer({ min: 0, max: dimensions }),
    quantity: fc.integer({ min: -1e9, max: 1e9 }),
    unitPrice: fc.option(fc.integer({ min: 0, max: 1e9 })),
    amount: fc.integer({ min: -1e12, max: 1e12 }),
    cost: fc.integer({ min: -1e12, max: 1e12 }),
    service: fc.option(fc.tuple(fc.integer({ min: 0, max: 9000 }), fc.integer({ min: 0, max: 9000 }))),
    recordType: fc.constantFrom("Actual", "Budget", "Forecast"),
  });

/** Stored ids for the file's 1..n: some past 2^32, as a bigint column allows. */
const storedIds = (n: number) =>
  fc.array(fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }), { minLength: n, maxLength: n });

describe("withStoredIds", () => {
  it("gives a batch the stored ids as bigints, no salesperson as null, and keeps every other byte", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 8 }).chain((n) =>
          fc.record({
            lines: fc.array(line(n), { maxLength: 60 }),
            client: storedIds(n),
            item: storedIds(n),
            salesperson: storedIds(n),
            chunkBytes: fc.integer({ min: 32, max: 4096 }),
          }),
        ),
        ({ lines, client, item, salesperson, chunkBytes }) => {
          const ids = { client: [0, ...client], item: [0, ...item], salesperson: [0, ...salesperson] };
          // The reader's batch in chunks of any size, a row cut between two of them.
          const staged = write(lines, chunkBytes);
          const chunks: Uint8Array[] = [];
          for (let at = 0; at < staged.length; at += chunkBytes)
            chunks.push(staged.subarray(at, at + chunkBytes));
          const rewritten = withStoredIds(chunks, lines.length, {
            clientId: ids.client,
            itemId: ids.item,
            salespersonId: ids.salesperson,
          });
          expect(Buffer.from(rewritten).equals(write(lines, 1 << 16, ids))).toBe(true);
        },
      ),
    );
  });
});
