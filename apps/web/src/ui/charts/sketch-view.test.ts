import { describe, expect, it } from "vitest";
import { slicePercent } from "./sketch-view";

describe("a donut's share, written as Plotly writes it in the slice", () => {
  it("keeps three significant digits and no trailing zeros", () => {
    expect(slicePercent(0.90726)).toBe("90.7%");
    expect(slicePercent(0.09274)).toBe("9.27%");
    expect(slicePercent(0.5)).toBe("50%");
    expect(slicePercent(0.125)).toBe("12.5%");
    expect(slicePercent(1)).toBe("100%");
    expect(slicePercent(0.0004)).toBe("0.04%");
  });
});
