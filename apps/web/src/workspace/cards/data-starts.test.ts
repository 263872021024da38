import { describe, expect, it } from "vitest";
import { dataStartsNote } from "./data-starts";

const months = (...starts: boolean[]) =>
  starts.map((startsTheData, i) => ({ period: `2025-0${i + 1}`, startsTheData }));

describe("dataStartsNote", () => {
  it("names the month where the data starts, alone or after earlier months without data", () => {
    expect(dataStartsNote(months(true, false, false))).toBe(
      "The data starts in Jan 2025: no change is counted for it, as there is no month before it to compare with.",
    );
    expect(dataStartsNote(months(true, true, false))).toBe(
      "The data starts in Feb 2025: no change is counted for it or the months before it.",
    );
  });

  it("says nothing when the data starts before the chart, and hedges when no month has data before it", () => {
    expect(dataStartsNote(months(false, false))).toBeNull();
    expect(dataStartsNote(months(true, true))).toBe(
      "No change is counted in these months: the data starts in Feb 2025 or later.",
    );
  });
});
