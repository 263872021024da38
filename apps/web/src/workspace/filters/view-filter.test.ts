import { describe, expect, it } from "vitest";
import { analyticsQuery, readViewFilter, viewFilterSearch, viewHref, withFilter } from "./view-filter";

const periods = [
  { yearNo: 2026, monthNo: 9 },
  { yearNo: 2026, monthNo: 10 },
  { yearNo: 2026, monthNo: 8 },
];

describe("the view's filter in the address", () => {
  it("defaults to revenue, the latest actual month against the one before it, and 8 trend periods", () => {
    const filter = readViewFilter("", periods);
    expect(filter).toMatchObject({
      dataType: "Revenue",
      dateFrom: "2026-09",
      dateTo: "2026-10",
      recordTypeFrom: "Actual",
      recordTypeTo: "Actual",
      periodType: "Monthly",
      stockType: null,
      varType: null,
      sign: null,
      trendPeriodCount: 8,
    });
    // One actual month: the month before it.
    expect(readViewFilter("", [{ yearNo: 2026, monthNo: 1 }]).dateFrom).toBe("2025-12");
    expect(readViewFilter("", []).dateTo).toBeNull();
  });

  it("normalises values without regard to case, and anything else falls back to the default", () => {
    const filter = readViewFilter(
      "DATATYPE=margin&stocktype=HOURLY&varType=price&sign=NEGATIVE&dateFrom=2025-13&dateTo=2025-06&clientID=12&stockItemID=x1&trendPeriodCount=0&recordTypeTo=budget",
      periods,
    );
    expect(filter).toMatchObject({
      dataType: "Margin",
      stockType: "Hourly",
      varType: "Price",
      sign: "Negative",
      dateFrom: "2026-09",
      dateTo: "2025-06",
      clientID: "12",
      stockItemID: null,
      trendPeriodCount: 8,
      recordTypeTo: "Budget",
    });
    expect(readViewFilter("dataType=Profit&stockType=All&varType=Other&sign=0", periods)).toMatchObject({
      dataType: "Revenue",
      stockType: null,
      varType: null,
      sign: null,
    });
  });

  it("writes the periods always and other parameters only when not their default; reading it back gives the same filter", () => {
    const filter = withFilter(readViewFilter("", periods), {
      dataType: "Margin",
      salespersonID: "4",
      salesperson: "Ben Okafor",
    });
    const search = viewFilterSearch(filter);
    expect(search).toBe(
      "?dataType=Margin&dateFrom=2026-09&dateTo=2026-10&salespersonID=4&salesperson=Ben+Okafor",
    );
    expect(readViewFilter(search, [])).toEqual(filter);
    expect(viewFilterSearch(readViewFilter("", periods))).toBe("?dateFrom=2026-09&dateTo=2026-10");
  });

  it("links to the level that explains a figure, and gives the calls their filter fields", () => {
    const filter = readViewFilter("stockType=Subscription", periods);
    expect(
      viewHref("/variance/dashboard/positiveOrNegative", filter, { varType: "Price", sign: "Positive" }),
    ).toBe(
      "/variance/dashboard/positiveOrNegative?dateFrom=2026-09&dateTo=2026-10&stockType=Subscription&varType=Price&sign=Positive",
    );
    expect(analyticsQuery(filter)).toEqual({
      dataType: "Revenue",
      dateFrom: "2026-09",
      dateTo: "2026-10",
      recordTypeFrom: "Actual",
      recordTypeTo: "Actual",
      stockType: "Subscription",
    });
    // An id filters; without one, the code (or a salesperson's name) does.
    expect(
      analyticsQuery(readViewFilter("clientID=7&client=C0007&stockItem=PLAN-ENT&salesperson=Ben", periods)),
    ).toMatchObject({
      clientID: "7",
      stockItem: "PLAN-ENT",
      salesperson: "Ben",
    });
    expect(analyticsQuery(readViewFilter("clientID=7&client=C0007", periods))).not.toHaveProperty("client");
  });
});
