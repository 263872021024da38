import { describe, expect, it } from "vitest";
import { createFormat } from "../format/format";
import { valueTickText } from "./chart-layout";

const format = createFormat({ currency: "USD" });

describe("the value axis's labels", () => {
  it("writes large amounts compactly, as before", () => {
    expect(valueTickText([0, 20_000_000, 40_000_000, 60_000_000], format, "money")).toEqual([
      "$0",
      "$200K",
      "$400K",
      "$600K",
    ]);
  });

  it("writes a few cents with the cents, so that no two ticks read the same and none reads '-$0'", () => {
    // A margin's price decreases of a few cents a month: ticks 5 cents apart.
    const text = valueTickText([-20, -15, -10, -5, 0], format, "money");
    expect(text).toEqual(["-$0.20", "-$0.15", "-$0.10", "-$0.05", "$0.00"]);
    expect(new Set(valueTickText([-4, -3, -2, -1, 0], format, "money")).size).toBe(5);
    expect(valueTickText([-4, 0, 40], format, "money")).toEqual(["-$0.04", "$0.00", "$0.40"]);
  });
});
