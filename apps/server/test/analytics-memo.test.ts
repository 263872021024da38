import { buildCube } from "@varia/variance";
import { describe, expect, it } from "vitest";
import { memo } from "../src/analytics/resolve-filter";

const emptyCube = () => buildCube({ clients: [], items: [], salespeople: [], rows: [] });

describe("memo: results kept per cube, least recently used first out", () => {
  it("computes once per key and cube", () => {
    const cube = emptyCube();
    let runs = 0;
    const compute = () => ++runs;
    expect(memo(cube, "a", compute)).toBe(1);
    expect(memo(cube, "a", compute)).toBe(1);
    expect(memo(emptyCube(), "a", compute)).toBe(2);
  });

  it("drops the least recently used results when their rows pass the weight limit", () => {
    const cube = emptyCube();
    const rows = (n: number) => () => Array.from({ length: n }, (_, i) => i);
    const big = (key: string) => memo(cube, key, rows(200_000), (r) => r.length);
    const first = big("first");
    const second = big("second");
    expect(big("first")).toBe(first); // used again: now the most recent
    big("third"); // 600,000 rows > 500,000: "second" is the least recently used
    expect(big("first")).toBe(first);
    expect(big("second")).not.toBe(second);
  });

  it("keeps at most 256 results per cube", () => {
    const cube = emptyCube();
    const objects = Array.from({ length: 257 }, (_, i) => memo(cube, `k${i}`, () => ({ i })));
    expect(memo(cube, "k256", () => ({ i: -1 }))).toBe(objects[256]);
    expect(memo(cube, "k0", () => ({ i: -1 }))).toEqual({ i: -1 });
  });
});
