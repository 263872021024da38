import { describe, expect, it } from "vitest";
import { niceTicks } from "./chart-theme";

describe("chart ticks", () => {
  it("picks round steps inside the range", () => {
    expect(niceTicks(0, 100)).toEqual([0, 20, 40, 60, 80, 100]);
    expect(niceTicks(811_165, 914_318)).toEqual([825_000, 850_000, 875_000, 900_000]);
    expect(niceTicks(-40, 60)).toEqual([-40, -20, 0, 20, 40, 60]);
    expect(niceTicks(5, 5)).toEqual([5]);
    expect(niceTicks(Number.NaN, 1)).toEqual([]);
  });
});
