import { describe, expect, it } from "vitest";
import { cohorts } from "./cohorts";
import { buildCube, type CubeRow } from "./cube";
import { variance } from "./query";

const M = 2025 * 12; // 2025-01, the first month of data

// Items 1 PRO (Subscription), 2 HRS (Hourly), 3 BOX (an Adhoc product). Clients:
// A (1) from the first month of data on; B (2) from M+1, grows in M+2, gone in M+3;
// C (3) from M+1 on, hours; D (4) buys a router in M+1 and subscribes from M+2;
// E (5) in the first month, away in M+1, back in M+2.
const row = (month: number, clientId: number, itemId: number, revenue: number): CubeRow => ({
  month,
  clientId,
  itemId,
  salespersonId: 1,
  recordType: "Actual",
  quantity: 10_000,
  revenue,
  cost: Math.round(revenue * 0.25),
});
const cube = buildCube({
  clients: [1, 2, 3, 4, 5].map((id) => ({ id, code: `C${id}`, name: `Client ${id}` })),
  items: [
    { id: 1, code: "PRO", name: "Pro plan", stockType: "Subscription", category: "Recurring" },
    { id: 2, code: "HRS", name: "Support hours", stockType: "Hourly", category: "Recurring" },
    { id: 3, code: "BOX", name: "Router", stockType: "Product", category: "Adhoc" },
  ],
  salespeople: [{ id: 1, name: "Ann" }],
  rows: [
    ...[M, M + 1, M + 2, M + 3].map((m) => row(m, 1, 1, 40_000)),
    row(M + 1, 2, 1, 10_000),
    row(M + 2, 2, 1, 12_000),
    ...[M + 1, M + 2, M + 3].map((m) => row(m, 3, 2, 5_000)),
    row(M + 1, 4, 3, 90_000),
    row(M + 2, 4, 1, 20_000),
    row(M + 3, 4, 1, 20_000),
    row(M, 5, 1, 7_000),
    row(M + 2, 5, 1, 7_000),
  ],
});
const filter = { dataType: "Revenue" as const, periodTo: M + 3 };

describe('cohorts (docs/methodology.md, "Cohorts")', () => {
  it("groups clients by their first active month, after the first month of data, and follows their MRR", () => {
    expect(cohorts(cube, filter)).toEqual([
      { month: M + 1, clients: 2, mrr: [15_000, 17_000, 5_000], active: [2, 2, 1] },
      // D's router in M+1 is Adhoc: not activity, so D's first month is M+2.
      { month: M + 2, clients: 1, mrr: [20_000, 20_000], active: [1, 1] },
      { month: M + 3, clients: 0, mrr: [0], active: [0] },
    ]);
  });

  it("counts only the months asked for, and nothing before the data", () => {
    expect(cohorts(cube, { ...filter, periodCount: 2 }).map((c) => c.month)).toEqual([M + 2, M + 3]);
    expect(cohorts(cube, { ...filter, periodTo: M })).toEqual([]);
    expect(cohorts(cube, { ...filter, periodTo: M - 1 })).toEqual([]);
  });

  it("sums the view's measure and keeps the clients the view's filter keeps", () => {
    const margin = cohorts(cube, { ...filter, dataType: "Margin" });
    expect(margin[0]!.mrr).toEqual([11_250, 12_750, 3_750]);
    const hourly = cohorts(cube, { ...filter, stockType: "Hourly" });
    expect(hourly[0]).toEqual({ month: M + 1, clients: 1, mrr: [5_000, 5_000, 5_000], active: [1, 1, 1] });
    expect(hourly[1]!.clients).toBe(0);
    const withoutB = cohorts(cube, { ...filter, excludedClientIds: new Set([2]) });
    expect(withoutB[0]).toMatchObject({ clients: 1, mrr: [5_000, 5_000, 5_000] });
  });

  it("agrees with the variance engine: a cohort's first month is its clients' MRR there", () => {
    for (const cohort of cohorts(cube, filter)) {
      const result = variance(cube, { ...filter, from: cohort.month - 1, to: cohort.month });
      const acquired = new Map(result.acquiredClients.map((c) => [c.clientId, c.value]));
      // Every member of a cohort is acquired in its month, with its whole MRR as the Client part.
      const members = result.lines.filter((l) => acquired.has(l.clientId) && l.clientId !== 5);
      expect(members.reduce((sum, l) => sum + l.to, 0)).toBe(cohort.mrr[0]);
    }
  });
});
