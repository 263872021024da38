import { describe, expect, it } from "vitest";
import { readViewFilter, viewPaths } from "../filters/view-filter";
import { drillCrumbs, drillLevelOf, level1Href, subjectLabel, upHref } from "./drill-path";

const periods = [
  { yearNo: 2026, monthNo: 9 },
  { yearNo: 2026, monthNo: 10 },
];
const read = (path: string, search: string) => readViewFilter(search, periods, path);

describe("the drill-down path", () => {
  it("names each level of the path, each crumb an address of the way down", () => {
    const level4 = read(
      viewPaths.level4,
      "dateFrom=2026-09&dateTo=2026-10&stockType=All&varType=Price&sign=Positive&thirdClientID=12&thirdStockItemID=3",
    );
    const crumbs = drillCrumbs(4, level4, { client: "Acme Ltd", service: "Pro plan" });
    expect(crumbs.map((c) => c.label)).toEqual([
      "Level 1",
      "Price increases",
      "Acme Ltd · Pro plan",
      "Invoice lines",
    ]);
    expect(crumbs.map((c) => c.href)).toEqual([
      "/variance/dashboard/stockTypeOverview?dateFrom=2026-09&dateTo=2026-10",
      "/variance/dashboard/positiveOrNegative?dateFrom=2026-09&dateTo=2026-10&stockType=All&varType=Price&sign=Positive",
      "/variance/dashboard/specific?dateFrom=2026-09&dateTo=2026-10&varType=Price&sign=Positive&thirdClientID=12&thirdStockItemID=3",
      "/variance/dashboard/invoice?dateFrom=2026-09&dateTo=2026-10&varType=Price&sign=Positive&thirdClientID=12&thirdStockItemID=3",
    ]);
  });

  it("goes up by removing what the level above does not have", () => {
    const level3 = read(
      viewPaths.level3,
      "dateTo=2026-10&dataType=Margin&varType=Client&sign=Negative&thirdClientID=7",
    );
    expect(upHref(3, level3)).toBe(
      "/variance/dashboard/positiveOrNegative?dataType=Margin&dateFrom=2026-09&dateTo=2026-10&stockType=All&varType=Client&sign=Negative",
    );
    const level2 = read(viewPaths.level2, "dateTo=2026-10&varType=Client&sign=Negative&stockType=Hourly");
    expect(upHref(2, level2)).toBe(
      "/variance/dashboard/stockTypeOverview?dateFrom=2026-09&dateTo=2026-10&stockType=Hourly",
    );
    expect(upHref(1, level2)).toBeNull();
  });

  it("skips level 2 when the view came straight from level 1 (a client of a list)", () => {
    const level3 = read(viewPaths.level3, "thirdClientID=7");
    expect(drillCrumbs(3, level3, { client: "Orbit" }).map((c) => c.label)).toEqual(["Level 1", "Orbit"]);
    expect(upHref(3, level3)).toBe(level1Href(level3));
    const level4 = read(viewPaths.level4, "thirdStockItemID=2");
    expect(drillCrumbs(4, level4).map((c) => c.label)).toEqual(["Level 1", "Service #2", "Invoice lines"]);
  });

  it("knows the levels' routes", () => {
    expect(
      [viewPaths.level1, viewPaths.level2, viewPaths.level3, `${viewPaths.level4}/`].map(drillLevelOf),
    ).toEqual([1, 2, 3, 4]);
    expect(drillLevelOf("/variance/forecast")).toBeNull();
  });
});

describe("level 2's defaults", () => {
  it("lists new clients of subscriptions when the address names nothing, and All means every stock type", () => {
    expect(read(viewPaths.level2, "")).toMatchObject({
      stockType: "Subscription",
      varType: "Client",
      sign: "Positive",
    });
    expect(read(viewPaths.level2, "stockType=all&varType=price&sign=negative")).toMatchObject({
      stockType: null,
      varType: "Price",
      sign: "Negative",
    });
    // Other routes have no such defaults.
    expect(read(viewPaths.level1, "")).toMatchObject({ stockType: null, varType: null, sign: null });
  });

  it("names a subject by its id while its name is unknown or empty, never 'Detail'", () => {
    const client = read(viewPaths.level3, "thirdClientID=99999");
    expect(subjectLabel(client, {})).toBe("Client #99999");
    expect(subjectLabel(client, { client: "", unknown: "client" })).toBe("Client #99999");
    expect(subjectLabel(read(viewPaths.level3, "salespersonID=4"), { salesperson: "" })).toBe(
      "Salesperson #4",
    );
    expect(subjectLabel(client, { client: "Acme Ltd" })).toBe("Acme Ltd");
  });
});
