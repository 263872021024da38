import { describe, expect, it } from "vitest";
import { readViewFilter, viewFilterSearch } from "../filters/view-filter";
import { cardPeriodOf, cardToggleOf, cardToggleParamValue, withoutCardChoices } from "./card-choice";
import type { CardToggle } from "./card-types";
import { cardCatalogue } from "./catalogue";

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
      historyPeriodCount: 12,
    });
  });

  it("keeps the months of the year-end chart, the step month by month and a subject's history in the address", () => {
    const filter = readViewFilter("historyPeriodCount=24", []);
    for (const id of ["christmas", "stepHistory", "subjectHistory"] as const)
      expect(cardPeriodOf(cardCatalogue[id], filter), id).toBe(24);
    // Their default (12) is written as nothing; another count is written.
    expect(viewFilterSearch(readViewFilter("dateFrom=2026-01&dateTo=2026-02", []))).not.toContain("history");
    expect(viewFilterSearch(filter)).toContain("historyPeriodCount=24");
    // Not a count of months of theirs: their first option.
    expect(cardPeriodOf(cardCatalogue.christmas, readViewFilter("historyPeriodCount=7", []))).toBe(12);
    expect(withoutCardChoices(filter).historyPeriodCount).toBe(12);
  });
});
