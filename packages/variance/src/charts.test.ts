import { describe, expect, it } from "vitest";
import { christmas, compareSegments, revenueBySegment, trend, waterfall } from "./charts";
import { buildCube, type CubeRow } from "./cube";
import { backtest, forecast, holtForecast } from "./forecast";
import { centsToMajor, varianceJson } from "./json";
import { kpis, rankClients } from "./kpis";
import { variance } from "./query";

const M = 2025 * 12; // 2025-01

// Clients 1 (A), 2 (B), 3 (C); items 1 PRO (Subscription), 2 HRS (Hourly), 3 BOX (Adhoc product);
// salespeople 1 Ann, 2 Bob.
const cube = (rows: Omit<CubeRow, "recordType" | "cost">[]) =>
  buildCube({
    clients: [
      { id: 1, code: "A", name: "Alpha" },
      { id: 2, code: "B", name: "Beta" },
      { id: 3, code: "C", name: "Gamma" },
    ],
    items: [
      { id: 1, code: "PRO", name: "Pro plan", stockType: "Subscription", category: "Recurring" },
      { id: 2, code: "HRS", name: "Support hours", stockType: "Hourly", category: "Recurring" },
      { id: 3, code: "BOX", name: "Router", stockType: "Product", category: "Adhoc" },
    ],
    salespeople: [
      { id: 1, name: "Ann" },
      { id: 2, name: "Bob" },
    ],
    rows: rows.map((r) => ({ ...r, recordType: "Actual", cost: Math.round(r.revenue * 0.4) })),
  });

// January: A 10 seats x 100.00, B 5 seats x 100.00, B 4 hours x 50.00.
// February: A 12 seats x 100.00 (volume +200.00), B gone (lost 700.00), C new 3 seats x 110.00.
const base = cube([
  { month: M, clientId: 1, itemId: 1, salespersonId: 1, quantity: 100_000, revenue: 100_000 },
  { month: M, clientId: 2, itemId: 1, salespersonId: 2, quantity: 50_000, revenue: 50_000 },
  { month: M, clientId: 2, itemId: 2, salespersonId: 2, quantity: 40_000, revenue: 20_000 },
  { month: M + 1, clientId: 1, itemId: 1, salespersonId: 1, quantity: 120_000, revenue: 120_000 },
  { month: M + 1, clientId: 3, itemId: 1, salespersonId: 2, quantity: 30_000, revenue: 33_000 },
  { month: M + 1, clientId: 3, itemId: 3, salespersonId: 2, quantity: 10_000, revenue: 90_000 },
]);
const query = { dataType: "Revenue" as const, from: M, to: M + 1 };

describe("KPIs (docs/methodology.md#kpis)", () => {
  it("MRR, ARR, clients, ARPA, new, churned, expansion, contraction, GRR and NRR", () => {
    const k = kpis(base, query);
    expect(k).toEqual({
      mrr: 153_000,
      arr: 1_836_000,
      mrrFrom: 170_000,
      arrFrom: 2_040_000,
      clientsSubscribed: 2,
      clientsSubscribedFrom: 2,
      arpa: 76_500,
      arpaFrom: 85_000,
      newMrr: 33_000,
      churnedMrr: -70_000,
      expansionMrr: 20_000,
      contractionMrr: 0,
      grr: (170_000 - 70_000) / 170_000,
      nrr: (170_000 - 70_000 + 20_000) / 170_000,
    });
  });

  it("ARPA rounds half to even and GRR is null without MRR in F", () => {
    const two = (a: number, b: number) =>
      cube([
        { month: M + 1, clientId: 1, itemId: 1, salespersonId: 1, quantity: 10_000, revenue: a },
        { month: M + 1, clientId: 2, itemId: 1, salespersonId: 1, quantity: 10_000, revenue: b },
      ]);
    // 201 / 2 = 100.5 -> 100 and 203 / 2 = 101.5 -> 102 (to even); 202 / 2 = 101.
    expect(kpis(two(101, 100), query).arpa).toBe(100);
    expect(kpis(two(103, 100), query).arpa).toBe(102);
    expect(kpis(two(102, 100), query).arpa).toBe(101);
    expect(kpis(two(102, 100), query).grr).toBeNull();
    // F had no clients: its ARPA is 0.
    expect(kpis(two(102, 100), query).arpaFrom).toBe(0);
  });

  it("ranks clients by value with their share", () => {
    expect(rankClients(base, { dataType: "Revenue", month: M })).toEqual([
      { clientId: 1, value: 100_000, rank: 1, contribution: 100_000 / 170_000 },
      { clientId: 2, value: 70_000, rank: 2, contribution: 70_000 / 170_000 },
    ]);
  });
});

describe("charts (docs/methodology.md#charts)", () => {
  it("waterfall: start, one step per type and sign in order, end", () => {
    expect(waterfall(base, query).map((s) => [s.label, s.value])).toEqual([
      ["Start", 170_000],
      ["Client positive", 33_000],
      ["Client negative", -70_000],
      ["Volume positive", 20_000],
      ["End", 153_000],
    ]);
  });

  it("trend: the totals of the months ending at periodTo, with Adhoc when asked", () => {
    expect(
      trend(base, { dataType: "Revenue", periodTo: M + 1, periodCount: 3, showAdhoc: true }).map((p) => [
        p.month,
        p.total,
        p.adhoc,
      ]),
    ).toEqual([
      [M - 1, 0, 0],
      [M, 170_000, 0],
      [M + 1, 153_000, 90_000],
    ]);
  });

  it("year-end chart: each month against the month before, none where the data starts", () => {
    const points = christmas(base, { dataType: "Revenue", periodFrom: M - 1, periodTo: M + 1 });
    expect(points.map((p) => [p.month, p.net, p.byType.Client.positive, p.startsTheData])).toEqual([
      [M - 1, 0, 0, true],
      // January, the first month of data: its clients are where the data starts, not new.
      [M, 0, 0, true],
      [M + 1, -17_000, 33_000, false],
    ]);
  });

  it("trend by type: the types of each month against the one before, none where the data starts", () => {
    const points = trend(base, { dataType: "Revenue", periodTo: M + 1, periodCount: 2, byType: true });
    expect(
      points.map((p) => [p.month, p.total, p.byType?.Client.positive, p.byType?.Client.negative]),
    ).toEqual([
      [M, 170_000, 0, 0],
      [M + 1, 153_000, 33_000, -70_000],
    ]);
  });

  it("revenue by segment: stock type, salesperson, item and client size band", () => {
    expect(
      revenueBySegment(base, { dataType: "Revenue", month: M, segment: "stockType" }).map((s) => [
        s.key,
        s.value,
      ]),
    ).toEqual([
      ["Subscription", 150_000],
      ["Hourly", 20_000],
    ]);
    expect(
      revenueBySegment(base, { dataType: "Revenue", month: M, segment: "salesperson" }).map((s) => [
        s.label,
        s.share,
      ]),
    ).toEqual([
      ["Ann", 100_000 / 170_000],
      ["Bob", 70_000 / 170_000],
    ]);
    expect(
      revenueBySegment(base, { dataType: "Revenue", month: M + 1, segment: "clientSize" }).map((s) => [
        s.key,
        s.value,
      ]),
    ).toEqual([
      ["100-499", 33_000],
      ["500-1999", 120_000],
    ]);
  });

  it("segments compared: one the later month has not got is kept at 0, so the changes add up to the total's", () => {
    for (const segment of ["stockType", "salesperson", "item", "clientSize"] as const) {
      const at = (month: number) => revenueBySegment(base, { dataType: "Revenue", month, segment });
      const rows = compareSegments(at(M + 1), at(M), segment);
      const total = (month: number) =>
        variance(base, { dataType: "Revenue", from: month, to: month }).totalTo;
      expect(
        rows.reduce((sum, r) => sum + r.from, 0),
        segment,
      ).toBe(total(M));
      expect(
        rows.reduce((sum, r) => sum + r.value, 0),
        segment,
      ).toBe(total(M + 1));
      expect(
        rows.reduce((sum, r) => sum + r.change, 0),
        segment,
      ).toBe(total(M + 1) - total(M));
    }
    const bands = compareSegments(
      [{ key: "2000-plus", label: "2,000 and over", value: 300_000, share: 1 }],
      [
        { key: "under-100", label: "Under 100", value: 5_000, share: 0.25 },
        { key: "500-1999", label: "500 to 1,999", value: 15_000, share: 0.75 },
      ],
      "clientSize",
    );
    expect(bands.map((b) => [b.key, b.from, b.value, b.change, b.share])).toEqual([
      ["under-100", 5_000, 0, -5_000, 0],
      ["500-1999", 15_000, 0, -15_000, 0],
      ["2000-plus", 0, 300_000, 300_000, 1],
    ]);
  });
});

describe("forecast (docs/methodology.md#forecast)", () => {
  it("Holt's method continues a straight line, inside its interval", () => {
    const line = Array.from({ length: 24 }, (_, i) => 1000 + 50 * i);
    const { values } = holtForecast(line, 3);
    expect(values.map((v) => Math.round(v.value))).toEqual([2200, 2250, 2300]);
    for (const v of values) expect(v.lower).toBeLessThanOrEqual(v.value);
    expect(backtest(line).mae).toBe(0);
  });

  it("the interval widens with the horizon on a noisy series", () => {
    const noisy = Array.from({ length: 30 }, (_, i) => 1000 + 40 * i + (i % 3 === 0 ? 90 : -45));
    const { values } = holtForecast(noisy, 12);
    const width = (v: { lower: number; upper: number }) => v.upper - v.lower;
    expect(width(values[11]!)).toBeGreaterThan(width(values[0]!));
    expect(values[0]!.lower).toBeLessThan(values[0]!.value);
    const result = backtest(noisy);
    expect(result.months).toBe(12);
    expect(result.mape).toBeGreaterThan(0);
  });

  it("forecasts the next 12 months after periodTo from the cube", () => {
    const f = forecast(base, { dataType: "Revenue", periodTo: M + 1 });
    expect(f.history.map((h) => h.value)).toEqual([170_000, 153_000]);
    expect(f.points).toHaveLength(12);
    expect(f.points[0]!.month).toBe(M + 2);
  });
});

describe("the JSON of docs/methodology.md#the-same-numbers-everywhere", () => {
  it("has the documented keys in order, money in major units", () => {
    const json = varianceJson(base, variance(base, query));
    expect(Object.keys(json)).toEqual([
      "dataType",
      "periodFrom",
      "periodTo",
      "totalFrom",
      "totalTo",
      "byType",
      "acquiredClients",
      "lostClients",
    ]);
    expect(json).toMatchObject({
      periodFrom: "2025-01",
      periodTo: "2025-02",
      totalFrom: 1700,
      totalTo: 1530,
    });
    // Each client by code and name, in that order of keys.
    expect(json.acquiredClients).toEqual([{ clientCode: "C", clientName: "Gamma", value: 330 }]);
    expect(json.lostClients).toEqual([{ clientCode: "B", clientName: "Beta", value: -700 }]);
    expect(Object.keys(json.lostClients[0]!)).toEqual(["clientCode", "clientName", "value"]);
    expect(Object.keys(json.byType)).toEqual(["Client", "Service", "Price", "Volume", "Usage", "Transfer"]);
    expect(centsToMajor(12_345)).toBe(123.45);
  });
});
