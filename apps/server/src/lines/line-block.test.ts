import { recordTypes } from "@varia/contracts";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  blockLine,
  compareKeys,
  decodeLineBlock,
  LineBlockBuilder,
  mapBlockIds,
  type StoredLine,
} from "./line-block";
import type { StoredBlock } from "./line-blocks-store";
import { mergeBlocks } from "./merge-blocks";
import { ReplacedLines } from "./replaced-lines";

/** Any line the import can store: money and quantities at their limits, nulls, any text. */
const lineArbitrary: fc.Arbitrary<StoredLine> = fc
  .record({
    invoiceNumber: fc.oneof(
      fc.string({ minLength: 1, maxLength: 12 }),
      fc.constantFrom("INV-1", "INV-2", "Ä-1"),
    ),
    lineNumber: fc.integer({ min: 1, max: 100_000 }),
    invoiceDay: fc.integer({ min: -40_000, max: 60_000 }),
    clientId: fc.integer({ min: 1, max: 2 ** 40 }),
    itemId: fc.integer({ min: 1, max: 300 }),
    salespersonId: fc.integer({ min: 0, max: 5 }),
    quantity: fc.integer({ min: -999_999_999_999_999, max: 999_999_999_999_999 }),
    unitPrice: fc.option(fc.integer({ min: -999_999_999_999_999, max: 999_999_999_999_999 })),
    amountCents: fc.integer({ min: -999_999_999_999_999, max: 999_999_999_999_999 }),
    costCents: fc.oneof(fc.constant(0), fc.integer({ min: -100, max: 100 })),
    service: fc.option(fc.tuple(fc.integer({ min: 0, max: 9_000 }), fc.integer({ min: 0, max: 400 }))),
    recordType: fc.constantFrom(...recordTypes),
  })
  .map(({ service, ...line }) => ({
    ...line,
    serviceFromDay: service ? service[0] : null,
    serviceToDay: service ? service[0] + service[1] : null,
  }));

/** Lines with distinct keys, as an organisation stores them. */
const linesArbitrary = fc.uniqueArray(lineArbitrary, {
  maxLength: 60,
  selector: (l) => `${l.invoiceNumber}\u0000${l.lineNumber}`,
});

const byKey = (a: StoredLine, b: StoredLine) =>
  compareKeys(a.invoiceNumber, a.lineNumber, b.invoiceNumber, b.lineNumber);

function encode(lines: StoredLine[]) {
  const builder = new LineBlockBuilder(2);
  for (const line of lines) builder.add(line);
  return decodeLineBlock(builder.finish());
}

describe("blocks of invoice lines", () => {
  it("give back every line exactly, in the order they were added", () => {
    fc.assert(
      fc.property(linesArbitrary, (lines) => {
        const block = encode(lines);
        const back = Array.from({ length: block.count }, (_, row) => blockLine(block, row));
        expect(back).toEqual(lines);
      }),
    );
  });

  it("keep their values when the bytes arrive at an odd offset (as a COPY's output does)", () => {
    const builder = new LineBlockBuilder();
    const line: StoredLine = {
      invoiceNumber: "INV-7",
      lineNumber: 2,
      invoiceDay: 9_000,
      clientId: 70_000,
      itemId: 3,
      salespersonId: 0,
      quantity: 12_345,
      unitPrice: null,
      amountCents: -5_000_000_000,
      costCents: 1,
      serviceFromDay: 9_000,
      serviceToDay: 9_400,
      recordType: "Budget",
    };
    builder.add(line);
    builder.add({ ...line, lineNumber: 1, unitPrice: 5, serviceFromDay: null, serviceToDay: null });
    const bytes = builder.finish();
    // A Buffer, as PostgreSQL's driver hands it over (its slice() is a view, not a copy).
    const shifted = Buffer.alloc(bytes.length + 3).subarray(3);
    shifted.set(bytes);
    const block = decodeLineBlock(shifted);
    expect(blockLine(block, 0)).toEqual(line);
    expect(blockLine(block, 1)).toMatchObject({ lineNumber: 1, unitPrice: 5, serviceFromDay: null });
  });

  it("map their client, item and salesperson ids, in place while the new ids fit", () => {
    fc.assert(
      fc.property(
        linesArbitrary.filter((lines) => lines.length > 0),
        fc.constantFrom(1_000, 2 ** 31 - 1, 2 ** 40),
        (lines, largest) => {
          // Provisional ids 1..k as an import gives them; the map sends each to a stored id.
          const provisional = lines.map((l, i) => ({ ...l, clientId: (i % 5) + 1, itemId: (i % 3) + 1 }));
          const map = {
            clientId: [0, 11, 12, 13, 14, largest],
            itemId: [0, 7, 8, largest - 1],
            salespersonId: [0, 21, 22, 23, 24, 25],
          };
          const builder = new LineBlockBuilder();
          for (const line of provisional) builder.add(line);
          const stored = decodeLineBlock(builder.finish());
          const block = mapBlockIds(stored, map);
          const fits = provisional.every(
            (l) => map.clientId[l.clientId]! < 2 ** 31 && map.itemId[l.itemId]! < 2 ** 31,
          );
          expect(block === stored).toBe(fits);
          const back = Array.from({ length: block.count }, (_, row) => blockLine(block, row));
          expect(back).toEqual(
            provisional.map((l) => ({
              ...l,
              clientId: map.clientId[l.clientId]!,
              itemId: map.itemId[l.itemId]!,
              salespersonId: map.salespersonId[l.salespersonId]!,
            })),
          );
        },
      ),
    );
  });

  it("refuse bytes that are not a block", () => {
    expect(() => decodeLineBlock(new Uint8Array(32))).toThrow("Not a block of invoice lines");
  });

  it("merge in key order across blocks, leaving out what the filter drops", () => {
    fc.assert(
      fc.property(linesArbitrary, fc.integer({ min: 1, max: 7 }), (lines, parts) => {
        const blocks = Array.from({ length: parts }, (_, p) =>
          encode(lines.filter((_, i) => i % parts === p)),
        );
        const keep = (block: (typeof blocks)[number], row: number) => block.columns.clientId[row]! % 3 !== 0;
        const merged = [...mergeBlocks(blocks, keep)].map(([block, row]) => blockLine(block, row));
        expect(merged).toEqual(lines.filter((l) => l.clientId % 3 !== 0).sort(byKey));
      }),
    );
  });

  it("mark and drop exactly the stored lines a file replaces", () => {
    fc.assert(
      fc.property(
        linesArbitrary,
        fc.array(fc.boolean(), { maxLength: 60 }),
        fc.integer({ min: 1, max: 20 }),
        (lines, picks, perBlock) => {
          const stored: StoredBlock[] = [];
          for (let i = 0; i < lines.length; i += perBlock)
            stored.push({ id: 100 + i, jobId: `job ${i}`, block: encode(lines.slice(i, i + perBlock)) });
          const replacedKeys = lines.filter((_, i) => picks[i]);
          const replaced = new ReplacedLines(stored);
          // The file's lines: the picked keys (other values changed) and one key not stored.
          const file = [...replacedKeys, { ...lines[0]!, invoiceNumber: "not stored", lineNumber: 1 }];
          replaced.mark(encode(file.map((l) => ({ ...l, quantity: l.quantity + 1 }))));
          expect(replaced.replaced).toBe(replacedKeys.length);
          const { deleteIds, rewritten } = replaced.plan();
          const touched = stored.filter((_, b) =>
            lines.slice(b * perBlock, (b + 1) * perBlock).some((_, i) => picks[b * perBlock + i]),
          );
          expect(deleteIds).toEqual(touched.map((b) => b.id));
          const untouched = stored.filter((b) => !deleteIds.includes(b.id)).map((b) => b.block);
          const kept = [...untouched, ...rewritten.map((r) => decodeLineBlock(r.block.bytes))];
          const left = [...mergeBlocks(kept)].map(([block, row]) => blockLine(block, row));
          expect(left).toEqual(lines.filter((_, i) => !picks[i]).sort(byKey));
          for (const r of rewritten) expect(touched.map((b) => b.jobId)).toContain(r.jobId);
        },
      ),
    );
  });
});
