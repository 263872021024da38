import { describe, expect, it } from "vitest";
import { slicePercent } from "./sketch-view";

describe("a donut's share, written as the chart writes it in the slice", () => {
  it("keeps one decimal, as the table beside it does", () => {
    expect(slicePercent(0.90726)).toBe("90.7%");
    expect(slicePercent(0.09274)).toBe("9.3%");
    expect(slicePercent(0.5)).toBe("50.0%");
    expect(slicePercent(0.125)).toBe("12.5%");
    expect(slicePercent(1)).toBe("100.0%");
    expect(slicePercent(0.0004)).toBe("0.0%");
  });
});
