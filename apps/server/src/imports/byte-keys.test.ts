import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ByteKeys, PairKeys } from "./byte-keys";

describe("ByteKeys", () => {
  it("numbers texts in the order they first come, as a Map would, whatever bytes hold them", () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: "grapheme", maxLength: 6 }), { maxLength: 3000 }), (texts) => {
        const keys = new ByteKeys();
        const reference = new Map<string, number>();
        for (const text of texts) {
          // Each text inside bytes of its own, between others.
          const bytes = Buffer.from(`«${text}»`, "utf8");
          const index = keys.add(bytes, 2, bytes.length - 2);
          expect(keys.added).toBe(!reference.has(text));
          if (!reference.has(text)) reference.set(text, reference.size);
          expect(index).toBe(reference.get(text));
        }
        expect(keys.size).toBe(reference.size);
        for (const [text, index] of reference) {
          expect(keys.text(index)).toBe(text);
          expect(keys.addText(text)).toBe(index);
        }
      }),
      { numRuns: 100 },
    );
  });
});

describe("PairKeys", () => {
  it("answers the record a pair was first given on, and -1 for a new pair", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat(300), fc.integer({ min: 1, max: 999_999_999 })), { maxLength: 5000 }),
        (pairs) => {
          const keys = new PairKeys();
          const reference = new Map<string, number>();
          pairs.forEach(([first, second], record) => {
            const key = `${first}/${second}`;
            expect(keys.add(first, second, record)).toBe(reference.get(key) ?? -1);
            if (!reference.has(key)) reference.set(key, record);
          });
        },
      ),
      { numRuns: 100 },
    );
  });
});
