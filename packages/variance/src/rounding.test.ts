import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { divideHalfEven, divideHalfEvenNumber, spreadShare } from "./rounding";

describe("rounding half to even", () => {
  it("rounds halves to the even neighbour, on either side of zero", () => {
    expect(divideHalfEven(10n, 4n)).toBe(2n);
    expect(divideHalfEven(14n, 4n)).toBe(4n);
    expect(divideHalfEven(28n, 8n)).toBe(4n);
    expect(divideHalfEven(-10n, 4n)).toBe(-2n);
    expect(divideHalfEven(-14n, 4n)).toBe(-4n);
    expect(divideHalfEven(11n, 4n)).toBe(3n);
    expect(divideHalfEvenNumber(5, 2)).toBe(2);
    expect(divideHalfEvenNumber(-7, 2)).toBe(-4);
    expect(divideHalfEvenNumber(-1, 3)).toBe(0);
    expect(Object.is(divideHalfEvenNumber(-1, 3), -0)).toBe(false);
  });

  it("gives the same in numbers as in BigInt, beyond the safe range too", () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.integer({ min: -1e9, max: 1e9 }), fc.constantFrom(2 ** 60, -(2 ** 60) - 2048)),
        fc.integer({ min: 1, max: 1_000_000 }),
        (n, d) => {
          expect(divideHalfEvenNumber(n, d)).toBe(Number(divideHalfEven(BigInt(n), BigInt(d))));
        },
      ),
    );
  });
});

describe("spreading an amount over months", () => {
  it("gives the leftover cents to the earliest months, with the amount's sign", () => {
    expect([0, 1, 2].map((k) => spreadShare(100_000, 3, k))).toEqual([33_334, 33_333, 33_333]);
    expect([0, 1, 2].map((k) => spreadShare(-10_001, 3, k))).toEqual([-3_334, -3_334, -3_333]);
    expect([0, 1, 2, 3].map((k) => spreadShare(2, 4, k))).toEqual([1, 1, 0, 0]);
    expect(spreadShare(500, 1, 0)).toBe(500);
  });

  it("keeps every cent, spreads evenly to within a cent, and is odd in the amount", () => {
    fc.assert(
      fc.property(fc.integer({ min: -1e12, max: 1e12 }), fc.integer({ min: 1, max: 240 }), (amount, n) => {
        const shares = Array.from({ length: n }, (_, k) => spreadShare(amount, n, k));
        expect(shares.reduce((a, b) => a + b, 0)).toBe(amount);
        expect(Math.max(...shares) - Math.min(...shares)).toBeLessThanOrEqual(1);
        for (let k = 1; k < n; k++)
          expect(Math.abs(shares[k]!)).toBeLessThanOrEqual(Math.abs(shares[k - 1]!));
        expect(shares.map((_, k) => 0 - spreadShare(-amount, n, k))).toEqual(shares);
      }),
    );
  });
});
