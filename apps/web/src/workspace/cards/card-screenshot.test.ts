import { describe, expect, it } from "vitest";
import { screenshotCanvasLimit, screenshotFileName, screenshotScale } from "./card-screenshot";

describe("card screenshots", () => {
  it("are sharp but never wider or taller than 16384 pixels", () => {
    expect(screenshotScale(600, 300, 1)).toBe(2);
    expect(screenshotScale(600, 300, 3)).toBe(3);
    const scale = screenshotScale(1200, 20000, 2);
    expect(20000 * scale).toBeLessThanOrEqual(screenshotCanvasLimit);
    expect(9000 * screenshotScale(9000, 100, 2)).toBeLessThanOrEqual(screenshotCanvasLimit);
  });

  it("are named by the periods, the heading and when they were taken", () => {
    expect(screenshotFileName("Sep 2026 - Oct 2026", "Waterfall", new Date(2026, 10, 23, 21, 4, 5))).toBe(
      "Sep 2026 - Oct 2026 Waterfall 2026-11-23 21-04-05.png",
    );
    expect(
      screenshotFileName("Oct 2026", "Revenue / margin: by segment?", new Date(2026, 0, 2, 3, 4, 5)),
    ).toBe("Oct 2026 Revenue - margin- by segment- 2026-01-02 03-04-05.png");
  });
});
