import { describe, expect, it } from "vitest";
import { readViewFilter } from "../filters/view-filter";
import { cardPeriodOf, cardToggleOf, cardToggleParamValue, withoutCardChoices } from "./card-choice";
import type { CardToggle } from "./card-types";

const segment: CardToggle = {
  label: "Segment",
  param: "segment",
  options: [
    { value: "stockType", label: "Stock type" },
    { value: "salesperson", label: "Salesperson" },
  ],
};

describe("a card's choice in the address", () => {
  it("reads the card's option the address names, without regard to case", () => {
    expect(cardToggleOf(segment, readViewFilter("segment=SalesPerson", []))).toBe("salesperson");
  });

  it("falls back to the first option when the address names none or one the card lacks", () => {
    expect(cardToggleOf(segment, readViewFilter("", []))).toBe("stockType");
    expect(cardToggleOf(segment, readViewFilter("segment=planet", []))).toBe("stockType");
    expect(cardToggleOf({ ...segment, param: undefined }, readViewFilter("segment=salesperson", []))).toBe(
      "stockType",
    );
  });

  it("writes nothing for the first option, the value otherwise", () => {
    expect(cardToggleParamValue(segment, "stockType")).toBeNull();
    expect(cardToggleParamValue(segment, "salesperson")).toBe("salesperson");
  });

  it("reads a card's period the address names, or its first option when it names none or one the card lacks", () => {
    const trend = { periodOptions: "monthsDefault8", periodParam: "trendPeriodCount" } as const;
    expect(cardPeriodOf(trend, readViewFilter("trendPeriodCount=24", []))).toBe(24);
    expect(cardPeriodOf(trend, readViewFilter("", []))).toBe(8);
    expect(cardPeriodOf(trend, readViewFilter("trendPeriodCount=17", []))).toBe(8);
    // A card without the parameter keeps its own first option; one without periods has none.
    expect(
      cardPeriodOf({ periodOptions: "monthsDefault12" }, readViewFilter("trendPeriodCount=24", [])),
    ).toBe(12);
    expect(cardPeriodOf({}, readViewFilter("trendPeriodCount=24", []))).toBeNull();
  });

  it("leaves the cards' choices out of what the other cards depend on", () => {
    const filter = readViewFilter(
      "dateFrom=2026-01&dateTo=2026-02&segment=item&dimension=salesperson&typesView=contributors&trendInclude=adhoc&lostOrder=Rank&activityStatus=lost&trendPeriodCount=24",
      [],
    );
    expect(filter).toMatchObject({ typesView: "contributors", activityStatus: "lost", trendPeriodCount: 24 });
    expect(withoutCardChoices(filter)).toEqual({
      ...filter,
      segment: null,
      dimension: null,
      typesView: null,
      trendInclude: null,
      lostOrder: null,
      activityStatus: null,
      trendPeriodCount: 8,
    });
  });
});
