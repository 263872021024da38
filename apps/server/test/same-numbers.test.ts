import { beforeAll, expect, it } from "vitest";
import { generateDemoCsv } from "../src/demo/generate-demo-data";
import { describeWithServer } from "./harness";
import { csvHeader, parseCsv, tenantWithData } from "./report-fixture";

/**
 * The same numbers everywhere (docs/methodology.md, "The same numbers everywhere"): on the demo's
 * three years, with two clients whose margin is below zero added (one acquired at a loss in Oct 2026,
 * one lost at a loss after Sep 2026), every figure the API answers for a pair of months, in Revenue
 * and in Margin, is the one of DashboardAlpha/GetVariance (what `varia variance --json` prints) to the
 * cent: the KPIs, the waterfall, Variance by type, level 2's lists and their totals, the activity
 * table's steps and totals, the segments and their changes, the trend, the year-end chart, the
 * reports and a report's CSV. Nothing here is hard-coded: each surface is held to the variance.
 */
const atALoss = [
  "2026-10-01,NEG-1,1,ZN01,Loss Leader Ltd,PLAN-LOSS,Loss-making plan,Subscription,1,,100.00,180.00,,,,Actual,Recurring",
  "2026-09-01,NEG-2,1,ZN02,Costly Client Co,PLAN-LOSS,Loss-making plan,Subscription,1,,120.00,150.00,,,,Actual,Recurring",
];
const types = ["Client", "Service", "Price", "Volume", "Usage", "Transfer"] as const;
const signs = ["Positive", "Negative"] as const;
const cents = (major: number) => Math.round(major * 100);
const sum = <T>(rows: readonly T[], pick: (row: T) => number) => rows.reduce((s, r) => s + pick(r), 0);

describeWithServer("the same numbers on every surface of the API", (ctx) => {
  let org: Awaited<ReturnType<typeof tenantWithData>>;

  beforeAll(async () => {
    const demo = generateDemoCsv().trimEnd().split("\n");
    expect(demo[0]!.trim().toLowerCase()).toBe(csvHeader.toLowerCase());
    org = await tenantWithData(ctx(), "same-numbers", [...demo, ...atALoss, ""].join("\n"));
  }, 120_000);

  const get = async (path: string) => {
    const answer = await org.call("GET", `/api/variance/${path}`);
    expect(answer.status, `${path}: ${answer.text}`).toBe(200);
    return answer.json;
  };
  const post = async (path: string, body: Record<string, unknown>) => {
    const answer = await org.call("POST", `/api/variance/${path}`, body);
    expect(answer.status, `${path}: ${answer.text}`).toBe(200);
    return answer;
  };

  for (const [from, to] of [
    ["2026-09", "2026-10"],
    ["2025-10", "2026-10"],
    ["2024-01", "2024-02"],
  ] as const) {
    for (const dataType of ["Revenue", "Margin"] as const) {
      it(`${dataType}, ${from} to ${to}`, async () => {
        const q = `dataType=${dataType}&dateFrom=${from}&dateTo=${to}`;
        const v = await get(`DashboardAlpha/GetVariance?${q}`);
        const F = cents(v.totalFrom);
        const T = cents(v.totalTo);
        const side = (type: (typeof types)[number], sign: (typeof signs)[number]) =>
          cents(v.byType[type][sign === "Positive" ? "positive" : "negative"]);
        const net = (type: (typeof types)[number]) => side(type, "Positive") + side(type, "Negative");
        expect(sum(types, net), "the types add up to the change").toBe(T - F);
        const expansion = sum(["Service", "Price", "Volume", "Usage"] as const, (t) => side(t, "Positive"));
        const contraction = sum(["Service", "Price", "Volume", "Usage"] as const, (t) => side(t, "Negative"));

        // Level 1: the KPIs, the waterfall, Variance by type, the trend and the year-end chart.
        const kpi = await get(`VarianceOverview/OverviewKpi?${q}`);
        expect(kpi).toMatchObject({
          mrrCents: T,
          mrrFromCents: F,
          arrCents: 12 * T,
          mrrCentsVariance: T - F,
          newMrrCents: side("Client", "Positive"),
          churnedMrrCents: side("Client", "Negative"),
          expansionMrrCents: expansion,
          contractionMrrCents: contraction,
        });
        const chart = `DataType=${dataType}&DateFrom=${from}&DateTo=${to}&RecordTypeFrom=Actual&RecordTypeTo=Actual&StockType=&PeriodFrom=${from}&PeriodTo=${to}`;
        const waterfall = await get(`VarianceOverview/WaterfallChart?${chart}&RecordType=Actual`);
        const steps: { kind: string; type?: string; sign?: string; valueCents: number }[] = waterfall.steps;
        expect([steps[0]!.valueCents, steps.at(-1)!.valueCents]).toEqual([F, T]);
        for (const step of steps.filter((s) => s.kind === "step"))
          expect(step.valueCents, `${step.type} ${step.sign}`).toBe(
            side(step.type as (typeof types)[number], step.sign as (typeof signs)[number]),
          );
        const bars = await get(`VarianceOverview/PowerfulBar?${q}`);
        for (const type of types)
          expect([bars.byType[type].positiveCents, bars.byType[type].negativeCents], type).toEqual([
            side(type, "Positive"),
            side(type, "Negative"),
          ]);
        const trend = await get(
          `VarianceOverview/TrendChart?DataType=${dataType}&PeriodFrom=${to}&PeriodTo=${to}&RecordType=Actual&PeriodMode=Monthly&RecordTypeFrom=Actual&RecordTypeTo=Actual&ShowAdhoc=false`,
        );
        expect(trend.points.at(-1).totalCents).toBe(T);
        const monthBefore = (() => {
          const [y, m] = to.split("-").map(Number) as [number, number];
          return m === 1 ? `${y - 1}-12` : `${y}-${String(m - 1).padStart(2, "0")}`;
        })();
        if (monthBefore === from) {
          const yearEnd = await get(
            `VarianceOverview/ChristmasChart?DataType=${dataType}&DateFrom=${from}&DateTo=${to}&RecordTypeFrom=Actual&RecordTypeTo=Actual&StockType=&PeriodFrom=${to}&PeriodTo=${to}`,
          );
          expect(yearEnd.points.at(-1).netCents).toBe(T - F);
        }

        // Level 2: each step's contributors (clients or lines) and the total said with them.
        for (const type of types)
          for (const sign of signs) {
            const want = side(type, sign);
            const contributors = await get(
              `VarianceOverview/VarianceBars?${q}&varType=${type}&sign=${sign}&rowLimit=1000`,
            );
            expect(contributors.totals.valueCents, `${type} ${sign}`).toBe(want);
            expect(contributors.rowCount).toBeLessThanOrEqual(1000);
            expect(sum(contributors.rows, (r: { valueCents: number }) => r.valueCents)).toBe(want);
            const lines = await get(
              `VarianceOverview/ActivityTable?${q}&varType=${type}&sign=${sign}&rowLimit=1`,
            );
            expect(lines.totals.stepCents ?? 0, `${type} ${sign} lines`).toBe(want);
          }
        const activity = await get(`VarianceOverview/ActivityTable?${q}&rowLimit=1`);
        expect([activity.totals.valueFromCents, activity.totals.valueCents]).toEqual([F, T]);
        const lost = await get(`VarianceOverview/LostMRRKpi?${q}`);
        expect([lost.lostMrrCents, lost.lostClients]).toEqual([
          side("Client", "Negative"),
          v.lostClients.length,
        ]);

        // The segments, compared: every segment's values and changes add up.
        for (const segment of ["stockType", "salesperson", "item", "clientSize"]) {
          const rows: { valueCents: number; valueFromCents: number; valueCentsVariance: number }[] = (
            await get(`VarianceOverview/GridGeneralKpi?${q}&segment=${segment}`)
          ).rows;
          expect(
            [
              sum(rows, (r) => r.valueFromCents),
              sum(rows, (r) => r.valueCents),
              sum(rows, (r) => r.valueCentsVariance),
            ],
            segment,
          ).toEqual([F, T, T - F]);
        }

        // The reports, and a report's CSV as downloaded.
        const run = async (reportID: string, extra: Record<string, unknown> = {}) =>
          (
            await post("Report/Run", {
              reportID,
              dataType,
              dateFrom: from,
              dateTo: to,
              rowLimit: 1000,
              ...extra,
            })
          ).json;
        const byClient = await run("mrr-by-client");
        expect([cents(byClient.totals.mrrFrom), cents(byClient.totals.mrrTo)]).toEqual([F, T]);
        expect(sum(byClient.rows, (r: { mrrTo: number | null }) => cents(r.mrrTo ?? 0))).toBe(T);
        const byService = await run("mrr-by-service");
        expect([cents(byService.totals.mrrFrom), cents(byService.totals.mrrTo)]).toEqual([F, T]);
        const acquired = await run("acquired-clients");
        expect(cents(acquired.totals.value ?? 0)).toBe(side("Client", "Positive"));
        expect(acquired.rows.map((r: { clientCode: string }) => r.clientCode).sort()).toEqual(
          v.acquiredClients.map((c: { clientCode: string }) => c.clientCode).sort(),
        );
        const lostReport = await run("lost-clients");
        expect(cents(lostReport.totals.value ?? 0)).toBe(side("Client", "Negative"));
        const prices = await run("price-changes");
        expect(cents(prices.totals.price ?? 0)).toBe(net("Price"));
        const people = await run("salesperson-performance");
        expect(people.totals).toMatchObject({
          mrrFrom: v.totalFrom,
          mrrTo: v.totalTo,
          newMrr: v.byType.Client.positive,
          churnedMrr: v.byType.Client.negative,
        });
        expect(cents(people.totals.expansionMrr)).toBe(expansion);
        expect(cents(people.totals.contractionMrr)).toBe(contraction);
        const segments = await post("Report/Run", { reportID: "revenue-by-segment", dataType, dateTo: to });
        expect(cents(segments.json.totals.value)).toBe(T);
        const csv = parseCsv(
          (
            await post("Report/ExportReport", {
              reportID: "mrr-by-client",
              dataType,
              dateFrom: from,
              dateTo: to,
              format: "csv",
            })
          ).text.replace(/^\uFEFF/, ""),
        );
        const column = csv[0]!.indexOf("MRR to");
        expect(column).toBeGreaterThan(0);
        const rows = csv.slice(1).filter((r) => r.length > 1 && r[0] !== "Total");
        expect(rows.length).toBe(byClient.rowCount);
        expect(sum(rows, (r) => cents(Number(r[column] || 0)))).toBe(T);
      }, 60_000);
    }
  }

  it("lists clients by the sign of their contribution in Margin too: one acquired at a loss is among the lost", async () => {
    // docs/methodology.md, "Signs, contributions and lists": a contribution is Positive or Negative
    // by its sign, so ZN01 (acquired, margin -80) is a Negative Client contribution and ZN02 (lost,
    // margin -30 before) a Positive one; every surface says so alike (the tests above).
    const q = "dateFrom=2026-09&dateTo=2026-10";
    const find = (list: { clientCode: string; value: number }[], code: string) =>
      list.find((c) => c.clientCode === code)?.value;
    const revenue = await get(`DashboardAlpha/GetVariance?dataType=Revenue&${q}`);
    const margin = await get(`DashboardAlpha/GetVariance?dataType=Margin&${q}`);
    expect(find(revenue.acquiredClients, "ZN01")).toBeGreaterThan(0);
    expect(find(revenue.lostClients, "ZN02")).toBeLessThan(0);
    expect(find(margin.lostClients, "ZN01")).toBe(-80);
    expect(find(margin.acquiredClients, "ZN02")).toBe(30);
    // The cards' help says so, as a person seeing a new client among the lost would ask.
    for (const key of ["lostClients", "acquiredClients"])
      expect((await get(`helpText?key=${key}`)).content).toContain(
        "In Margin the lists go by the sign of the margin's change: a client acquired at a loss",
      );
  });
});
