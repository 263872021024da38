import { describe, expect, it } from "vitest";
import { createFormat, shownTrend, trendOf } from "./format";

describe("formatting (docs/behaviour.md#timings-and-limits)", () => {
  const usd = createFormat({ currency: "usd", forcedLocale: "en-US" });

  it("writes money in the organisation's currency with its narrow symbol, 0 decimals on cards and 2 in tables", () => {
    expect(usd.currency).toBe("USD");
    expect(usd.money(91_431_887)).toBe("$914,319");
    expect(usd.money(91_431_887, { decimals: 2 })).toBe("$914,318.87");
    expect(usd.money(-59_994, { decimals: 2 })).toBe("-$599.94");
    expect(usd.money(4_169_200, { signed: true })).toBe("+$41,692");
    expect(usd.money(-4_169_200, { signed: true })).toBe("-$41,692");
    // A change that rounds to nothing carries no sign.
    expect(usd.money(-40, { signed: true })).toBe("$0");
    expect(usd.money(0, { signed: true, decimals: 2 })).toBe("$0.00");
    expect(usd.money(123_456_789, { compact: true })).toBe("$1.2M");
  });

  it("follows another currency and a forced locale, and falls back to USD on a code it does not know", () => {
    expect(createFormat({ currency: "EUR", forcedLocale: "de-DE" }).money(123_456)).toBe("1.235\u00a0€");
    expect(createFormat({ currency: "NZD", forcedLocale: "en-NZ" }).money(100_000)).toBe("$1,000");
    expect(createFormat({ currency: "GBP", forcedLocale: "en-GB" }).money(-250, { decimals: 2 })).toBe(
      "-£2.50",
    );
    expect(createFormat({ currency: "EUR", forcedLocale: "de-DE" }).separators()).toEqual({
      decimal: ",",
      group: ".",
    });
    expect(createFormat({ currency: "not a code", forcedLocale: "en-US" }).currency).toBe("USD");
    expect(createFormat({ currency: null, forcedLocale: "en-US" }).money(100)).toBe("$1");
  });

  it("writes percentages with 2 decimals, and differences in percentage points", () => {
    expect(usd.percent(1.0150083162119452)).toBe("101.50%");
    expect(usd.percent(0.9218230696930063)).toBe("92.18%");
    expect(usd.percent(0.04778, { signed: true })).toBe("+4.78%");
    expect(usd.percent(-0.00001, { signed: true })).toBe("0.00%");
    expect(usd.percent(0.5, { decimals: 0 })).toBe("50%");
    expect(usd.percentagePoints(0.0125)).toBe("+1.25 pp");
    expect(usd.percentagePoints(-0.1)).toBe("-10.00 pp");
  });

  it("writes durations in months under 24 and in years and months from 24", () => {
    expect(usd.duration(1)).toBe("1 month");
    expect(usd.duration(8)).toBe("8 months");
    expect(usd.duration(23)).toBe("23 months");
    expect(usd.duration(24)).toBe("2 years");
    expect(usd.duration(27)).toBe("2 years 3 months");
    expect(usd.duration(37)).toBe("3 years 1 month");
  });

  it("counts, and says which way a change goes", () => {
    expect(usd.count(1234)).toBe("1,234");
    expect(usd.count(9, { signed: true })).toBe("+9");
    expect([trendOf(5), trendOf(-1), trendOf(0), trendOf(null)]).toEqual(["up", "down", "flat", "flat"]);
  });

  it("shows a change written as zero unchanged, whatever the cents behind it", () => {
    expect(shownTrend(-12, usd.money(-12, { signed: true }))).toBe("flat");
    expect(shownTrend(-12, usd.money(-12, { signed: true, decimals: 2 }))).toBe("down");
    expect(shownTrend(-60_000, usd.money(-60_000, { signed: true }))).toBe("down");
    expect(shownTrend(1_000, usd.money(1_000, { signed: true }))).toBe("up");
    expect(shownTrend(0.00004, "+0.00%")).toBe("flat");
  });
});
