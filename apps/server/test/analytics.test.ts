import { analyticsContracts, type Contract, contractPath } from "@varia/contracts";
import { sql } from "kysely";
import { beforeAll, expect, it, vi } from "vitest";
import { invoiceLinePage } from "../src/lines/invoice-line-table";
import { analyticsMatrix } from "./authorization-matrix-analytics";
import { describeWithServer, type TestServer } from "./harness";
import { csvHeader, otherCsv, tenantWithData } from "./report-fixture";

/**
 * April to June 2025 of a small organisation (money in the CSV in major units), each case of the
 * decomposition once. Salespeople Ann and Bob.
 * - C1 Alpha (Ann): PRO 1 x 100.00 -> 120.00 (price +20, cost 40.00 both months); SUP (Hourly)
 *   2 h 200.00 -> 3 h 300.00 (usage (3-2) x 200/2 = +100, price 0); SEAT 5 seats 250.00 both months;
 *   ADD 30.00 from May (service added +30); an Adhoc router 80.00 in May (never in MRR).
 * - C2 Beta (Bob): PRO 200.00 in every month; SEAT 4 seats 200.00 in April only (service removed -200).
 * - C3 Gamma (Ann in April, Bob from May): SEAT 10 -> 12 seats, 400.00 -> 480.00
 *   (volume (12-10) x 400/10 = +80, price 0): handed over, Transfer -400 for Ann, +400 for Bob.
 * - C4 Delta (Bob): PRO 150.00 in April only: lost (-150).
 * - C5 Epsilon (Ann): PRO 90.00 from May: acquired (+90); 100.00 in June (price +10).
 * June repeats May but for C5's price and without the router. Before that, C1 prepaid PRO for February
 * and March on an invoice of January (P_1%, 60.00: 30.00 in each month), and lost C4 bought a router
 * (Adhoc) in July: April to June see neither. The only Budget of May is C1's PRO at 150.00.
 *
 * April 2025 -> May 2025, Revenue, in cents:
 *   MRR April 55,000 + 40,000 + 40,000 + 15,000 = 150,000; May 70,000 + 20,000 + 48,000 + 9,000 = 147,000
 *   Client +9,000 / -15,000; Service +3,000 / -20,000; Price +2,000; Volume +8,000; Usage +10,000
 *   (sum -3,000 = 147,000 - 150,000); June 148,000 (Price +1,000 against May).
 */
const analyticsCsv = [
  csvHeader,
  "2025-01-10,P_1%,1,C1,Alpha,PRO,Pro plan,Subscription,1,,60.00,,Ann,2025-02-01,2025-03-31,Actual,Recurring",
  "2025-04-01,A-1,1,C1,Alpha,PRO,Pro plan,Subscription,1,,100.00,40.00,Ann,,,Actual,Recurring",
  "2025-04-01,A-1,2,C1,Alpha,SUP,Support,Hourly,2,,200.00,,Ann,,,Actual,Recurring",
  "2025-04-01,A-1,3,C1,Alpha,SEAT,Seats,Subscription,5,,250.00,,Ann,,,Actual,Recurring",
  "2025-04-02,A-2,1,C2,Beta,PRO,Pro plan,Subscription,1,,200.00,,Bob,,,Actual,Recurring",
  "2025-04-02,A-2,2,C2,Beta,SEAT,Seats,Subscription,4,,200.00,,Bob,,,Actual,Recurring",
  "2025-04-03,A-3,1,C3,Gamma,SEAT,Seats,Subscription,10,,400.00,,Ann,,,Actual,Recurring",
  "2025-04-04,A-4,1,C4,Delta,PRO,Pro plan,Subscription,1,,150.00,,Bob,,,Actual,Recurring",
  "2025-05-01,M-1,1,C1,Alpha,PRO,Pro plan,Subscription,1,,120.00,40.00,Ann,,,Actual,Recurring",
  "2025-05-01,M-1,2,C1,Alpha,SUP,Support,Hourly,3,,300.00,,Ann,,,Actual,Recurring",
  "2025-05-01,M-1,3,C1,Alpha,SEAT,Seats,Subscription,5,,250.00,,Ann,,,Actual,Recurring",
  "2025-05-01,M-1,4,C1,Alpha,ADD,Add-on,Subscription,1,,30.00,,Ann,,,Actual,Recurring",
  "2025-05-01,M-1,5,C1,Alpha,HW,Router,Product,1,,80.00,,Ann,,,Actual,Adhoc",
  "2025-05-02,M-2,1,C2,Beta,PRO,Pro plan,Subscription,1,,200.00,,Bob,,,Actual,Recurring",
  "2025-05-03,M-3,1,C3,Gamma,SEAT,Seats,Subscription,12,,480.00,,Bob,,,Actual,Recurring",
  "2025-05-05,M-5,1,C5,Epsilon,PRO,Pro plan,Subscription,1,,90.00,,Ann,,,Actual,Recurring",
  "2025-05-15,B-1,1,C1,Alpha,PRO,Pro plan,Subscription,1,,150.00,,Ann,,,Budget,Recurring",
  "2025-06-01,J-1,1,C1,Alpha,PRO,Pro plan,Subscription,1,,120.00,40.00,Ann,,,Actual,Recurring",
  "2025-06-01,J-1,2,C1,Alpha,SUP,Support,Hourly,3,,300.00,,Ann,,,Actual,Recurring",
  "2025-06-01,J-1,3,C1,Alpha,SEAT,Seats,Subscription,5,,250.00,,Ann,,,Actual,Recurring",
  "2025-06-01,J-1,4,C1,Alpha,ADD,Add-on,Subscription,1,,30.00,,Ann,,,Actual,Recurring",
  "2025-06-02,J-2,1,C2,Beta,PRO,Pro plan,Subscription,1,,200.00,,Bob,,,Actual,Recurring",
  "2025-06-03,J-3,1,C3,Gamma,SEAT,Seats,Subscription,12,,480.00,,Bob,,,Actual,Recurring",
  "2025-06-05,J-5,1,C5,Epsilon,PRO,Pro plan,Subscription,1,,100.00,,Ann,,,Actual,Recurring",
  "2025-07-07,L-4,1,C4,Delta,HW,Router,Product,1,,70.00,,Bob,,,Actual,Adhoc",
  "",
].join("\n");

/** The ids the database gave an organisation's clients (by code), items (by code) and salespeople (by name). */
async function idsOf(ctx: TestServer, organisationId: string) {
  const db = ctx.database.db;
  const rows = async (table: "clients" | "items" | "salespeople", key: "code" | "name") => {
    const result = await sql<{ id: string; key: string }>`
      select id::text as id, ${sql.ref(key)} as key from ${sql.table(table)}
      where organisation_id = ${organisationId}`.execute(db);
    return Object.fromEntries(result.rows.map((r) => [r.key, r.id])) as Record<string, string>;
  };
  return {
    clients: await rows("clients", "code"),
    items: await rows("items", "code"),
    salespeople: await rows("salespeople", "name"),
  };
}

const aprMay = "dataType=Revenue&dateFrom=2025-04&dateTo=2025-05";
const chart =
  "DataType=Revenue&DateFrom=2025-04&DateTo=2025-05&RecordTypeFrom=Actual&RecordTypeTo=Actual&StockType=&PeriodFrom=2025-05&PeriodTo=2025-06";
const byType = (
  client: [number, number],
  service: [number, number],
  price: [number, number],
  volume: [number, number],
  usage: [number, number],
  transfer: [number, number] = [0, 0],
) => {
  const sums = ([positiveCents, negativeCents]: [number, number]) => ({ positiveCents, negativeCents });
  return {
    Client: sums(client),
    Service: sums(service),
    Price: sums(price),
    Volume: sums(volume),
    Usage: sums(usage),
    Transfer: sums(transfer),
  };
};
/** April -> May of the organisation (see the fixture). */
const aprilToMay = byType([9000, -15000], [3000, -20000], [2000, 0], [8000, 0], [10000, 0]);

describeWithServer("analytics calls", (ctx) => {
  let org: Awaited<ReturnType<typeof tenantWithData>>;
  let other: Awaited<ReturnType<typeof tenantWithData>>;
  let ids: Awaited<ReturnType<typeof idsOf>>;
  let otherIds: Awaited<ReturnType<typeof idsOf>>;
  const get = async (path: string) => {
    const answer = await org.call("GET", `/api/variance/${path}`);
    expect(answer.status, `${path}: ${answer.text}`).toBe(200);
    return answer.json;
  };

  beforeAll(async () => {
    org = await tenantWithData(ctx(), "analytics", analyticsCsv);
    other = await tenantWithData(ctx(), "analytics-other", otherCsv);
    ids = await idsOf(ctx(), org.organisationId);
    otherIds = await idsOf(ctx(), other.organisationId);
  }, 60_000);

  it("WaterfallChart: start, one step per type and sign, end", async () => {
    const body = await get(`VarianceOverview/WaterfallChart?${chart}&RecordType=Actual`);
    expect(
      body.steps.map((s: { type?: string; sign?: string; valueCents: number }) => [
        s.type ?? "",
        s.sign ?? "",
        s.valueCents,
      ]),
    ).toEqual([
      ["", "", 150000],
      ["Client", "Positive", 9000],
      ["Client", "Negative", -15000],
      ["Service", "Positive", 3000],
      ["Service", "Negative", -20000],
      ["Price", "Positive", 2000],
      ["Volume", "Positive", 8000],
      ["Usage", "Positive", 10000],
      ["", "", 147000],
    ]);
    expect(body.steps[0].kind).toBe("total");
    expect(body.steps.at(-1).kind).toBe("total");
    // Margin: C1's PRO costs 40.00 in both months, so both totals drop by 4,000 and the change stays.
    const margin = await get(
      `VarianceOverview/WaterfallChart?${chart.replace("DataType=Revenue", "DataType=margin")}&RecordType=Actual`,
    );
    expect(margin.steps[0].valueCents).toBe(146000);
    expect(margin.steps.at(-1).valueCents).toBe(143000);
    // A stock type narrows what is summed: Hourly is C1's support only (200.00 -> 300.00, usage).
    const hourly = await get(
      `VarianceOverview/WaterfallChart?${chart.replace("StockType=", "StockType=hourly")}&RecordType=Actual`,
    );
    expect(hourly.steps.map((s: { valueCents: number }) => s.valueCents)).toEqual([20000, 10000, 30000]);
  });

  it("record types: April's Actual against May's Budget", async () => {
    // Budget of May: C1's PRO 150.00 only. C1 stays active: PRO price +5,000, SUP and SEAT removed
    // (-20,000, -25,000); C2, C3 and C4 have no budget: lost (-40,000, -40,000, -15,000).
    const body = await get(
      `VarianceOverview/WaterfallChart?${chart.replace("RecordTypeTo=Actual", "RecordTypeTo=budget")}&RecordType=Actual`,
    );
    expect(
      body.steps.map((s: { type?: string; sign?: string; valueCents: number }) => [
        s.type ?? "",
        s.sign ?? "",
        s.valueCents,
      ]),
    ).toEqual([
      ["", "", 150000],
      ["Client", "Negative", -95000],
      ["Service", "Negative", -45000],
      ["Price", "Positive", 5000],
      ["", "", 15000],
    ]);
    const lines = await get(
      `VarianceOverview/TableInvoiceData?${aprMay}&recordTypeTo=Budget&clientID=${ids.clients.C1}&sortBy=invoiceNumber&sortDir=asc`,
    );
    expect(
      lines.rows.map((r: { invoiceNumber: string; recordType: string }) => [r.invoiceNumber, r.recordType]),
    ).toEqual([
      ["A-1", "Actual"],
      ["A-1", "Actual"],
      ["A-1", "Actual"],
      ["B-1", "Budget"],
      ["M-1", "Actual"],
      ["M-1", "Actual"],
      ["M-1", "Actual"],
      ["M-1", "Actual"],
      ["M-1", "Actual"],
    ]);
  });

  it("OverviewKpi: MRR, ARR, clients, ARPA, new, churned, expansion, contraction, GRR and NRR", async () => {
    const expected = {
      periodFrom: "2025-04",
      periodTo: "2025-05",
      mrrCents: 147000,
      arrCents: 12 * 147000,
      mrrFromCents: 150000,
      mrrCentsVariance: -3000,
      arrFromCents: 12 * 150000,
      clientsSubscribed: 4,
      clientsSubscribedFrom: 4,
      arpaCents: 36750,
      arpaFromCents: 37500,
      newMrrCents: 9000,
      churnedMrrCents: -15000,
      expansionMrrCents: 3000 + 2000 + 8000 + 10000,
      contractionMrrCents: -20000,
      grr: (150000 - 15000 - 20000) / 150000,
      nrr: (150000 - 15000 - 20000 + 23000) / 150000,
    };
    const body = await get(`VarianceOverview/OverviewKpi?${aprMay}`);
    expect({ ...body, grr: undefined, nrr: undefined }).toEqual({
      ...expected,
      grr: undefined,
      nrr: undefined,
    });
    expect(body.grr).toBeCloseTo(expected.grr, 12);
    expect(body.nrr).toBeCloseTo(expected.nrr, 12);
    const posted = await org.call("POST", "/api/variance/Chart/OverviewKpi", {
      dataType: "Revenue",
      dateFrom: "2025-04",
      dateTo: "2025-05",
      showAdhoc: true,
    });
    expect(posted.status).toBe(200);
    expect(posted.json.mrrCents).toBe(147000);
    expect(posted.json.adhocCents).toBe(8000);
  });

  it("ActivityTable: one row per client and service with its parts, badges, paging and sorting", async () => {
    const body = await get(`VarianceOverview/ActivityTable?${aprMay}&startRow=0&rowLimit=50`);
    expect(body.rowCount).toBe(9);
    expect(body.totals).toEqual({ valueCents: 147000, valueCentsVariance: -3000, valueFromCents: 150000 });
    const rows = new Map(
      body.rows.map((r: { clientCode: string; itemCode: string }) => [`${r.clientCode}/${r.itemCode}`, r]),
    );
    expect(rows.get("C1/SUP")).toMatchObject({
      clientName: "Alpha",
      itemName: "Support",
      salesperson: "Ann",
      valueFromCents: 20000,
      valueCents: 30000,
      valueCentsVariance: 10000,
      quantityFrom: 2,
      quantityTo: 3,
      parts: { Usage: 10000, Price: 0 },
      status: "Existing",
      badgeVariant: "existing",
    });
    expect(rows.get("C1/ADD")).toMatchObject({
      parts: { Service: 3000 },
      status: "Added",
      badgeVariant: "added",
    });
    expect(rows.get("C2/SEAT")).toMatchObject({
      parts: { Service: -20000 },
      status: "Removed",
      badgeVariant: "removed",
    });
    expect(rows.get("C3/SEAT")).toMatchObject({ salesperson: "Bob", parts: { Volume: 8000, Price: 0 } });
    expect(rows.get("C4/PRO")).toMatchObject({
      parts: { Client: -15000 },
      badgeVariant: "lost",
      clientBadge: "lost",
    });
    expect(rows.get("C5/PRO")).toMatchObject({
      parts: { Client: 9000 },
      badgeVariant: "new",
      clientBadge: "new",
    });
    expect(rows.get("C1/PRO")).toMatchObject({ parts: { Price: 2000, Volume: 0 } });
    // Largest change first by default; the first page of three.
    const page = await get(`VarianceOverview/ActivityTable?${aprMay}&startRow=0&rowLimit=3`);
    expect(page.rowCount).toBe(9);
    expect(page.rows.map((r: { valueCentsVariance: number }) => r.valueCentsVariance)).toEqual([
      -20000, -15000, 10000,
    ]);
    const sorted = await get(
      `VarianceOverview/ActivityTable?${aprMay}&startRow=2&rowLimit=3&sortBy=valueCentsVariance&sortDir=asc`,
    );
    expect(sorted.rows.map((r: { valueCentsVariance: number }) => r.valueCentsVariance)).toEqual([
      0, 0, 2000,
    ]);
    const searched = await get(`VarianceOverview/ActivityTable?${aprMay}&search=gamm`);
    expect(searched.rowCount).toBe(1);
    expect(searched.rows[0].clientCode).toBe("C3");
    const negativeService = await get(
      `VarianceOverview/ActivityTable?${aprMay}&varType=service&sign=negative`,
    );
    expect(negativeService.rows.map((r: { clientCode: string }) => r.clientCode)).toEqual(["C2"]);
    // A type's lines say their part of the step in all: the waterfall's step and VarianceBars' total.
    expect(negativeService.totals.stepCents).toBe(-20000);
    expect(body.totals.stepCents).toBeUndefined();
    const bars = await get(`VarianceOverview/VarianceBars?${aprMay}&varType=Service&sign=Negative`);
    expect(bars.totals.valueCents).toBe(negativeService.totals.stepCents);
    for (const [type, sign, cents] of [
      ["Service", "Positive", 3000],
      ["Price", "Positive", 2000],
      ["Volume", "Positive", 8000],
      ["Usage", "Positive", 10000],
    ] as const) {
      const lines = await get(`VarianceOverview/ActivityTable?${aprMay}&varType=${type}&sign=${sign}`);
      expect(lines.totals.stepCents, type).toBe(cents);
      expect(lines.totals.stepCents, type).toBe(aprilToMay[type].positiveCents);
    }
    const searchedUsage = await get(`VarianceOverview/ActivityTable?${aprMay}&varType=Usage&search=beta`);
    expect(searchedUsage.totals.stepCents).toBe(0);
    // Sorted by one part of the change: the price effects, largest first.
    const byPrice = await get(
      `VarianceOverview/ActivityTable?${aprMay}&varType=Price&sortBy=parts.Price&sortDir=desc`,
    );
    expect(byPrice.rows.map((r: { parts: { Price: number } }) => r.parts.Price)).toEqual([2000]);
    const everyPrice = await get(`VarianceOverview/ActivityTable?${aprMay}&sortBy=parts.Volume&sortDir=desc`);
    expect(everyPrice.rows[0]).toMatchObject({ clientCode: "C3", parts: { Volume: 8000 } });
    // One badge only (any case): the lost client's rows, and the totals of those rows.
    const lost = await get(`VarianceOverview/ActivityTable?${aprMay}&badgeVariant=LOST`);
    expect(lost.rows.map((r: { clientCode: string }) => r.clientCode)).toEqual(["C4"]);
    expect(lost.totals).toEqual({ valueCents: 0, valueCentsVariance: -15000, valueFromCents: 15000 });
    const anyBadge = await get(`VarianceOverview/ActivityTable?${aprMay}&badgeVariant=`);
    expect(anyBadge.rowCount).toBe(9);
    // The POST variant takes the same fields in a JSON body; ShowAdhoc adds the router.
    const posted = await org.call("POST", "/api/variance/VarianceOverview/ActivityTable", {
      dataType: "Revenue",
      dateFrom: "2025-04",
      dateTo: "2025-05",
      showAdhoc: true,
      startRow: 0,
      rowLimit: 50,
    });
    expect(posted.status).toBe(200);
    expect(posted.json.rowCount).toBe(10);
    const router = posted.json.rows.find((r: { itemCode: string }) => r.itemCode === "HW");
    expect(router).toMatchObject({ valueCents: 8000, status: "Adhoc", badgeVariant: "adhoc" });
    expect(posted.json.totals).toEqual({
      valueCents: 147000,
      valueCentsVariance: -3000,
      valueFromCents: 150000,
    });
  });

  it("TrendChart and LineChart: the total of each month; ChristmasChart: each month against the one before", async () => {
    const trend = await get(
      "VarianceOverview/TrendChart?DataType=Revenue&PeriodFrom=2025-04&PeriodTo=2025-06&RecordType=Actual&PeriodMode=Monthly&RecordTypeFrom=Actual&RecordTypeTo=Actual&ShowAdhoc=true&PeriodCount=3",
    );
    expect(trend.points).toEqual([
      { period: "2025-04", totalCents: 150000, adhocCents: 0 },
      { period: "2025-05", totalCents: 147000, adhocCents: 8000 },
      { period: "2025-06", totalCents: 148000, adhocCents: 0 },
    ]);
    const line = await get("VarianceOverview/LineChart?dataType=Revenue&periodFrom=2025-04&periodTo=2025-06");
    expect(line.points.map((p: { totalCents: number }) => p.totalCents)).toEqual([150000, 147000, 148000]);
    const christmas = await get(`VarianceOverview/ChristmasChart?${chart}`);
    expect(christmas.points).toEqual([
      { period: "2025-05", byType: aprilToMay, netCents: -3000, startsTheData: false },
      {
        period: "2025-06",
        byType: byType([0, 0], [0, 0], [1000, 0], [0, 0], [0, 0]),
        netCents: 1000,
        startsTheData: false,
      },
    ]);
    // February is the first month of data: it and January are marked, and count no change.
    const start = await get(
      `VarianceOverview/ChristmasChart?${chart.replace("PeriodFrom=2025-05&PeriodTo=2025-06", "PeriodFrom=2025-01&PeriodTo=2025-03")}`,
    );
    expect(
      start.points.map((p: { period: string; netCents: number; startsTheData: boolean }) => [
        p.period,
        p.startsTheData,
        p.startsTheData ? p.netCents : "a change",
      ]),
    ).toEqual([
      ["2025-01", true, 0],
      ["2025-02", true, 0],
      ["2025-03", false, "a change"],
    ]);
  });

  it("the chart calls' ResponsiblePersonID is a salesperson view (with Transfer); VarianceType narrows the year-end chart", async () => {
    const bob = ids.salespeople.Bob;
    const waterfall = await get(
      `VarianceOverview/WaterfallChart?${chart}&RecordType=Actual&ResponsiblePersonID=${bob}`,
    );
    // Bob: C2 and C4 in April (55,000), C2 and C3 in May (68,000); C3 came from Ann (+40,000).
    expect(
      waterfall.steps.map((s: { type?: string; sign?: string; valueCents: number }) => [
        s.type ?? "",
        s.sign ?? "",
        s.valueCents,
      ]),
    ).toEqual([
      ["", "", 55000],
      ["Client", "Negative", -15000],
      ["Service", "Negative", -20000],
      ["Volume", "Positive", 8000],
      ["Transfer", "Positive", 40000],
      ["", "", 68000],
    ]);
    const transfers = await get(
      `VarianceOverview/ChristmasChart?${chart}&ResponsiblePersonID=${bob}&VarianceType=transfer`,
    );
    expect(transfers.points).toEqual([
      {
        period: "2025-05",
        byType: byType([0, 0], [0, 0], [0, 0], [0, 0], [0, 0], [40000, 0]),
        netCents: 40000,
        startsTheData: false,
      },
      {
        period: "2025-06",
        byType: byType([0, 0], [0, 0], [0, 0], [0, 0], [0, 0]),
        netCents: 0,
        startsTheData: false,
      },
    ]);
  });

  it("CostsImported: whether any line carries a cost, so that a screen can say margin equals revenue", async () => {
    expect(await get("VarianceOverview/CostsImported")).toEqual({
      costsImported: true,
      recurringCostsImported: true,
    });
    // The other organisation's lines carry no cost: its margin is its revenue.
    const answer = await other.call("GET", "/api/variance/VarianceOverview/CostsImported");
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({ costsImported: false, recurringCostsImported: false });
    // Costs on an ad hoc sale only (as the QuickBooks sample's products): MRR's margin is its revenue.
    const adhocOnly = await tenantWithData(
      ctx(),
      "analytics-adhoc-costs",
      [
        csvHeader,
        "2025-05-01,H-1,1,C1,Alpha,PRO,Pro plan,Subscription,1,,100.00,,Ann,,,Actual,Recurring",
        "2025-05-01,H-1,2,C1,Alpha,HW,Router,Product,1,,80.00,50.00,Ann,,,Actual,Adhoc",
        "",
      ].join("\n"),
    );
    const adhocAnswer = await adhocOnly.call("GET", "/api/variance/VarianceOverview/CostsImported");
    expect(adhocAnswer.json).toEqual({ costsImported: true, recurringCostsImported: false });
    const margin = await other.call(
      "GET",
      "/api/variance/DashboardAlpha/GetVariance?dataType=Margin&dateFrom=2025-05&dateTo=2025-06",
    );
    const revenue = await other.call(
      "GET",
      "/api/variance/DashboardAlpha/GetVariance?dataType=Revenue&dateFrom=2025-05&dateTo=2025-06",
    );
    expect({ ...margin.json, dataType: "Revenue" }).toEqual(revenue.json);
  });

  it("PowerfulBar and VarianceBars: sums and contributors of each type and sign", async () => {
    const bar = await get(`VarianceOverview/PowerfulBar?${aprMay}`);
    expect(bar.byType).toEqual(aprilToMay);
    const bars = await get(`VarianceOverview/VarianceBars?${aprMay}&varType=Client`);
    expect(
      bars.rows.map((r: { clientCode: string; sign: string; valueCents: number }) => [
        r.clientCode,
        r.sign,
        r.valueCents,
      ]),
    ).toEqual([
      ["C4", "Negative", -15000],
      ["C5", "Positive", 9000],
    ]);
    // The total is of every contributor that matches, whatever the page.
    expect(bars.totals).toEqual({ valueCents: -6000 });
    const page = await get(`VarianceOverview/VarianceBars?${aprMay}&varType=Client&startRow=1&rowLimit=1`);
    expect(page.rows).toHaveLength(1);
    expect(page.totals).toEqual({ valueCents: -6000 });
    const searched = await get(`VarianceOverview/VarianceBars?${aprMay}&varType=Client&search=C5`);
    expect(searched.totals).toEqual({ valueCents: 9000 });
  });

  it("VarianceBars names the service of a pair's contribution", async () => {
    const bars = await get(`VarianceOverview/VarianceBars?${aprMay}&varType=Service&sign=Negative`);
    expect(bars.rows).toEqual([
      {
        type: "Service",
        sign: "Negative",
        clientID: Number(ids.clients.C2),
        clientCode: "C2",
        clientName: "Beta",
        stockItemID: Number(ids.items.SEAT),
        itemCode: "SEAT",
        itemName: "Seats",
        valueCents: -20000,
      },
    ]);
    expect(bars.rowCount).toBe(1);
  });

  it("segments: GridGeneralKpi, GridSpecificKpi, SpecificDonutChart, ComparisonKpiChart, RevenueBySegment", async () => {
    const grid = await get(`VarianceOverview/GridGeneralKpi?${aprMay}&segment=stockType`);
    expect(grid.rows).toEqual([
      {
        key: "Subscription",
        label: "Subscription",
        valueCents: 117000,
        share: 117000 / 147000,
        valueFromCents: 130000,
        valueCentsVariance: -13000,
      },
      {
        key: "Hourly",
        label: "Hourly",
        valueCents: 30000,
        share: 30000 / 147000,
        valueFromCents: 20000,
        valueCentsVariance: 10000,
      },
    ]);
    // By salesperson (owner in the month): Ann has C1 and C5 in May (79,000), Bob C2 and C3 (68,000).
    const donut = await get(`VarianceOverview/SpecificDonutChart?${aprMay}&dimension=salesperson`);
    expect(donut.rows.map((r: { label: string; valueCents: number }) => [r.label, r.valueCents])).toEqual([
      ["Ann", 79000],
      ["Bob", 68000],
    ]);
    const specific = await get(
      `VarianceOverview/GridSpecificKpi?${aprMay}&segment=item&clientID=${ids.clients.C1}`,
    );
    expect(
      specific.rows.map((r: { key: string; valueCents: number; valueFromCents: number }) => [
        r.key,
        r.valueCents,
        r.valueFromCents,
      ]),
    ).toEqual([
      ["SUP", 30000, 20000],
      ["SEAT", 25000, 25000],
      ["PRO", 12000, 10000],
      ["ADD", 3000, 0],
    ]);
    const comparison = await get(`VarianceOverview/ComparisonKpiChart?${aprMay}`);
    expect(
      comparison.rows.map((r: { key: string; fromCents: number; toCents: number }) => [
        r.key,
        r.fromCents,
        r.toCents,
      ]),
    ).toEqual([
      ["Subscription", 130000, 117000],
      ["Hourly", 20000, 30000],
    ]);
    const bands = await org.call("POST", "/api/variance/Chart/RevenueBySegment", {
      dataType: "Revenue",
      dateFrom: "2025-04",
      dateTo: "2025-05",
      segment: "clientSize",
    });
    expect(bands.status).toBe(200);
    // May: C5 90.00 under 100; C2 200.00 and C3 480.00 in 100 to 499; C1 700.00 in 500 to 1,999.
    expect(bands.json.rows.map((r: { key: string; valueCents: number }) => [r.key, r.valueCents])).toEqual([
      ["under-100", 9000],
      ["100-499", 68000],
      ["500-1999", 70000],
    ]);
  });

  it("segments compared: a segment of DateFrom that DateTo has not got is listed at 0, so the changes add up to the MRR's", async () => {
    // May -> June: C5 grows from 90.00 (under 100) to 100.00 (100 to 499); no client is under 100 in June.
    const mayJune = "dateFrom=2025-05&dateTo=2025-06&segment=clientSize";
    for (const dataType of ["Revenue", "Margin"]) {
      const grid = await get(`VarianceOverview/GridGeneralKpi?dataType=${dataType}&${mayJune}`);
      const kpi = await get(
        `VarianceOverview/OverviewKpi?dataType=${dataType}&dateFrom=2025-05&dateTo=2025-06`,
      );
      type Row = { key: string; valueCents: number; valueFromCents: number; valueCentsVariance: number };
      const rows: Row[] = grid.rows;
      expect(rows.map((r) => [r.key, r.valueFromCents, r.valueCents, r.valueCentsVariance])).toEqual([
        ["under-100", 9000, 0, -9000],
        ["100-499", 68000, 78000, 10000],
        // C1's 700.00 of revenue; 40.00 less of margin (PRO's cost).
        ["500-1999", dataType === "Revenue" ? 70000 : 66000, dataType === "Revenue" ? 70000 : 66000, 0],
      ]);
      expect(rows.reduce((sum, r) => sum + r.valueFromCents, 0)).toBe(kpi.mrrFromCents);
      expect(rows.reduce((sum, r) => sum + r.valueCents, 0)).toBe(kpi.mrrCents);
      expect(rows.reduce((sum, r) => sum + r.valueCentsVariance, 0)).toBe(kpi.mrrCentsVariance);
      const comparison = await get(`VarianceOverview/ComparisonKpiChart?dataType=${dataType}&${mayJune}`);
      expect(comparison.rows[0]).toMatchObject({ key: "under-100", fromCents: 9000, toCents: 0 });
    }
  });

  it("client KPIs: subscribed, rank and contribution, lost clients (Revenue, Rank, Contribution)", async () => {
    expect(await get(`VarianceOverview/ClientsSubscribedKpi?${aprMay}`)).toEqual({
      periodFrom: "2025-04",
      periodTo: "2025-05",
      clientsSubscribed: 4,
      clientsSubscribedFrom: 4,
      variance: 0,
      acquired: 1,
      lost: 1,
    });
    const expanded = await get(`VarianceOverview/ExpandedClientsSubscribedKpi?${aprMay}`);
    expect(
      expanded.rows.map((r: { clientCode: string; valueCents: number; badgeVariant: string }) => [
        r.clientCode,
        r.valueCents,
        r.badgeVariant,
      ]),
    ).toEqual([
      ["C1", 70000, "existing"],
      ["C3", 48000, "existing"],
      ["C2", 20000, "existing"],
      ["C5", 9000, "new"],
      ["C4", -15000, "lost"],
    ]);
    const rank = await get(
      `VarianceOverview/SpecificRankContributionKpi?${aprMay}&clientID=${ids.clients.C3}`,
    );
    expect(rank).toEqual({
      period: "2025-05",
      clientID: Number(ids.clients.C3),
      rank: 2,
      contribution: 48000 / 147000,
      valueCents: 48000,
      clientCount: 4,
    });
    const ranked = await get(
      `VarianceOverview/ExpandedSpecificRankContributionKpi?${aprMay}&startRow=1&rowLimit=2`,
    );
    expect(ranked.rowCount).toBe(4);
    expect(ranked.rows.map((r: { clientCode: string; rank: number }) => [r.clientCode, r.rank])).toEqual([
      ["C3", 2],
      ["C2", 3],
    ]);
    expect(await get(`VarianceOverview/LostMRRKpi?${aprMay}`)).toEqual({
      periodFrom: "2025-04",
      periodTo: "2025-05",
      lostMrrCents: -15000,
      lostClients: 1,
    });
    // C4 was fourth of four in April (C1 55,000; C2 and C3 40,000; C4 15,000 of 150,000).
    for (const type of ["Revenue", "Rank", "Contribution"]) {
      const lost = await get(`VarianceOverview/LostRankContributionKpi?${aprMay}&type=${type.toLowerCase()}`);
      expect(lost.type).toBe(type);
      expect(lost.rows).toEqual([
        {
          clientID: Number(ids.clients.C4),
          clientCode: "C4",
          clientName: "Delta",
          valueCents: -15000,
          rank: 4,
          contribution: 0.1,
          badgeVariant: "lost",
        },
      ]);
    }
  });

  it("MRR of a filtered view: SpecificMRRKpi, Chart/SpecificMrrKpi and Chart/ClientKpis", async () => {
    expect(await get(`VarianceOverview/SpecificMRRKpi?${aprMay}&stockItemID=${ids.items.SEAT}`)).toEqual({
      periodFrom: "2025-04",
      periodTo: "2025-05",
      mrrCents: 73000,
      mrrFromCents: 85000,
      mrrCentsVariance: -12000,
      arrCents: 12 * 73000,
    });
    const posted = await org.call("POST", "/api/variance/Chart/SpecificMrrKpi", {
      dataType: "Revenue",
      dateFrom: "2025-04",
      dateTo: "2025-05",
      client: "c1",
    });
    expect(posted.json).toMatchObject({ mrrCents: 70000, mrrFromCents: 55000 });
    const client = await org.call("POST", "/api/variance/Chart/ClientKpis", {
      dataType: "Revenue",
      dateFrom: "2025-04",
      dateTo: "2025-05",
      clientID: ids.clients.C5,
      trendPeriodCount: 3,
    });
    expect(client.json).toMatchObject({
      clientCode: "C5",
      mrrCents: 9000,
      mrrFromCents: 0,
      rank: 4,
      trend: [
        { period: "2025-03", totalCents: 0 },
        { period: "2025-04", totalCents: 0 },
        { period: "2025-05", totalCents: 9000 },
      ],
    });
  });

  it("details of a client, a service and a salesperson (with Transfer)", async () => {
    const client = await get(`Client/SpecificClientDetail?${aprMay}&clientID=${ids.clients.C1}`);
    expect(client).toMatchObject({
      clientCode: "C1",
      clientName: "Alpha",
      salesperson: "Ann",
      mrrCents: 70000,
      mrrFromCents: 55000,
      rank: 1,
      firstPeriod: "2025-02",
      // February is the first month of data: Alpha may have been a client before it.
      firstPeriodStartsTheData: true,
      lastPeriod: "2025-06",
    });
    expect(
      client.services.map((s: { itemCode: string; status: string }) => [s.itemCode, s.status]).sort(),
    ).toEqual([
      ["ADD", "Added"],
      ["PRO", "Existing"],
      ["SEAT", "Existing"],
      ["SUP", "Existing"],
    ]);
    // Active months count Recurring revenue only: C4's router of July does not make it active.
    expect(await get(`Client/SpecificClientDetail?${aprMay}&clientID=${ids.clients.C4}`)).toMatchObject({
      clientCode: "C4",
      salesperson: "Bob",
      mrrCents: 0,
      mrrFromCents: 15000,
      firstPeriod: "2025-04",
      firstPeriodStartsTheData: false,
      lastPeriod: "2025-04",
    });
    expect(await get(`Sku/SkuDetail?${aprMay}&stockItemID=${ids.items.SEAT}`)).toMatchObject({
      itemCode: "SEAT",
      itemName: "Seats",
      stockType: "Subscription",
      category: "Recurring",
      mrrCents: 73000,
      mrrFromCents: 85000,
      clients: 2,
      clientsFrom: 3,
    });
    // Bob: C2 and C4 in April (55,000); C2 and C3 in May (68,000): C3 handed over from Ann.
    const bob = await get(`Salesperson/SpecificSalespersonDetail?${aprMay}&contactID=${ids.salespeople.Bob}`);
    expect(bob).toMatchObject({
      name: "Bob",
      mrrFromCents: 55000,
      mrrCents: 68000,
      transferInCents: 40000,
      transferOutCents: 0,
      byType: byType([0, -15000], [0, -20000], [0, 0], [8000, 0], [0, 0], [40000, 0]),
    });
    const ann = await get(`Salesperson/SpecificSalespersonDetail?${aprMay}&contactID=${ids.salespeople.Ann}`);
    expect(ann).toMatchObject({
      mrrFromCents: 95000,
      mrrCents: 79000,
      transferInCents: 0,
      transferOutCents: -40000,
      byType: byType([9000, 0], [3000, 0], [2000, 0], [0, 0], [10000, 0], [0, -40000]),
    });
  });

  it("TableInvoiceData: the client's invoice lines of the months, paged and sorted", async () => {
    const first = await get(
      `VarianceOverview/TableInvoiceData?${aprMay}&clientID=${ids.clients.C1}&startRow=0&rowLimit=5&sortBy=amountCents&sortDir=desc`,
    );
    expect(first.rowCount).toBe(8);
    expect(
      first.rows.map((r: { invoiceNumber: string; lineNumber: number; amountCents: number }) => [
        r.invoiceNumber,
        r.lineNumber,
        r.amountCents,
      ]),
    ).toEqual([
      ["M-1", 2, 30000],
      // Equal amounts: then by invoice number and line number, in the same direction.
      ["M-1", 3, 25000],
      ["A-1", 3, 25000],
      ["A-1", 2, 20000],
      ["M-1", 1, 12000],
    ]);
    const rest = await get(
      `VarianceOverview/TableInvoiceData?${aprMay}&clientID=${ids.clients.C1}&startRow=5&rowLimit=5&sortBy=amountCents&sortDir=desc`,
    );
    expect(rest.rows.map((r: { amountCents: number }) => r.amountCents)).toEqual([10000, 8000, 3000]);
    // The totals are of every line listed, on every page: level 4's totals row.
    const all = [...first.rows, ...rest.rows] as { amountCents: number; costCents: number }[];
    expect(first.totals).toEqual({
      amountCents: 133000,
      costCents: all.reduce((sum, r) => sum + r.costCents, 0),
    });
    expect(rest.totals).toEqual(first.totals);
    expect(first.rows[0]).toMatchObject({
      clientCode: "C1",
      clientName: "Alpha",
      itemCode: "SUP",
      itemName: "Support",
    });
    // A stock type narrows the lines to its items: C1's Hourly support only.
    const hourly = await get(
      `VarianceOverview/TableInvoiceData?${aprMay}&clientID=${ids.clients.C1}&stockType=Hourly&sortBy=invoiceDate&sortDir=asc`,
    );
    expect(
      hourly.rows.map((r: { itemCode: string; invoiceDate: string }) => [r.itemCode, r.invoiceDate]),
    ).toEqual([
      ["SUP", "2025-04-01"],
      ["SUP", "2025-05-01"],
    ]);
    // A line is placed in the months of its service period (docs/methodology.md, "Spreading"), not in its invoice's month.
    const prepaid = (from: string, to: string) =>
      get(
        `VarianceOverview/TableInvoiceData?dataType=Revenue&dateFrom=${from}&dateTo=${to}&clientID=${ids.clients.C1}`,
      );
    expect((await prepaid("2025-03", "2025-03")).rows).toMatchObject([
      {
        invoiceNumber: "P_1%",
        invoiceDate: "2025-01-10",
        serviceFrom: "2025-02-01",
        serviceTo: "2025-03-31",
        amountCents: 6000,
      },
    ]);
    expect((await prepaid("2025-01", "2025-01")).rowCount).toBe(0);
    expect((await prepaid("2025-03", "2025-04")).rowCount).toBe(4);
    // The text filter is literal: "_1%" is not a pattern.
    expect(
      (
        await get(
          `VarianceOverview/TableInvoiceData?dataType=Revenue&dateFrom=2025-02&dateTo=2025-06&search=_1%25`,
        )
      ).rows.map((r: { invoiceNumber: string }) => r.invoiceNumber),
    ).toEqual(["P_1%"]);
    expect(
      (
        await get(
          `VarianceOverview/TableInvoiceData?dataType=Revenue&dateFrom=2025-02&dateTo=2025-06&search=a_1`,
        )
      ).rowCount,
    ).toBe(0);
  });

  it("TableInvoiceData: one order both ways, paged across record types and service periods", async () => {
    // March to May, Actual against Budget: P_1% (invoiced in January, its service period reaching
    // into March), April's and May's lines, and May's Budget line; 17 in all.
    const months = "dataType=Revenue&dateFrom=2025-03&dateTo=2025-05&recordTypeTo=Budget&sortBy=invoiceDate";
    const key = (r: { invoiceNumber: string; lineNumber: number }) => `${r.invoiceNumber}/${r.lineNumber}`;
    const pages = async (sortDir: "asc" | "desc") => {
      const keys: string[] = [];
      for (let startRow = 0; startRow < 17; startRow += 3) {
        const page = await get(
          `VarianceOverview/TableInvoiceData?${months}&sortDir=${sortDir}&startRow=${startRow}&rowLimit=3`,
        );
        expect(page.rowCount).toBe(17);
        keys.push(...page.rows.map(key));
      }
      return keys;
    };
    const all = await get(`VarianceOverview/TableInvoiceData?${months}&sortDir=asc&rowLimit=100`);
    expect(all.rows.map(key)).toEqual([
      "P_1%/1",
      "A-1/1",
      "A-1/2",
      "A-1/3",
      "A-2/1",
      "A-2/2",
      "A-3/1",
      "A-4/1",
      "M-1/1",
      "M-1/2",
      "M-1/3",
      "M-1/4",
      "M-1/5",
      "M-2/1",
      "M-3/1",
      "M-5/1",
      "B-1/1",
    ]);
    expect(await pages("asc")).toEqual(all.rows.map(key));
    expect(await pages("desc")).toEqual(all.rows.map(key).reverse());
    // Every column a page sorts by: the column, then the key, one list both ways.
    type Line = {
      invoiceNumber: string;
      lineNumber: number;
      amountCents: number;
      clientCode: string;
      itemCode: string;
      clientName: string;
      itemName: string;
    };
    const compare = (a: string | number, b: string | number) => (a < b ? -1 : a > b ? 1 : 0);
    const columns: Record<string, (line: Line) => string | number> = {
      invoiceNumber: (line) => line.invoiceNumber,
      amountCents: (line) => line.amountCents,
      clientCode: (line) => line.clientCode,
      itemCode: (line) => line.itemCode,
      clientName: (line) => line.clientName,
      itemName: (line) => line.itemName,
    };
    for (const [sortBy, value] of Object.entries(columns)) {
      const view = months.replace("sortBy=invoiceDate", `sortBy=${sortBy}`);
      const up: Line[] = (await get(`VarianceOverview/TableInvoiceData?${view}&sortDir=asc`)).rows;
      const down: Line[] = (await get(`VarianceOverview/TableInvoiceData?${view}&sortDir=desc`)).rows;
      const expected = ([...all.rows] as Line[]).sort(
        (a, b) =>
          compare(value(a), value(b)) ||
          compare(a.invoiceNumber, b.invoiceNumber) ||
          compare(a.lineNumber, b.lineNumber),
      );
      expect(up.map(key), sortBy).toEqual(expected.map(key));
      expect(down.map(key), sortBy).toEqual(expected.map(key).reverse());
    }
  });

  it("TableInvoiceData names a line's client, item and salesperson that the cube cache does not hold yet", async () => {
    const view = `${aprMay}&recordTypeTo=Budget&sortBy=amountCents&sortDir=asc`;
    const shown = await get(`VarianceOverview/TableInvoiceData?${view}`);
    const unknown = { clients: new Map(), items: new Map(), salespeople: new Map() };
    const read = await invoiceLinePage(
      ctx().database.db,
      org.organisationId,
      {
        first: "2025-04-01",
        afterLast: "2025-06-01",
        recordTypes: ["Actual", "Budget"],
        sortBy: "amountCents",
        sortDir: "asc",
        startRow: 0,
        rowLimit: 100,
      },
      unknown,
    );
    expect(read).toEqual(shown.rows);
    expect(read.map((r) => [r.clientCode, r.itemName, r.salesperson])).toContainEqual(["C3", "Seats", "Bob"]);
  });

  it("TableInvoiceData: the count of a view follows an import", async () => {
    const lines = await tenantWithData(ctx(), "analytics-lines", otherCsv);
    const count = async () => {
      const answer = await lines.call(
        "GET",
        "/api/variance/VarianceOverview/TableInvoiceData?dataType=Revenue&dateFrom=2025-05&dateTo=2025-06&rowLimit=1",
      );
      expect(answer.status, answer.text).toBe(200);
      return [answer.json.rowCount, answer.json.rows.length];
    };
    expect(await count()).toEqual([2, 1]);
    const form = new FormData();
    const more = [
      csvHeader,
      "2025-06-01,O-3,1,C901,Next Corp,PRO,Other plan,Subscription,1,,10.00,,Olga,,,Actual,Recurring",
      "",
    ];
    form.append("csv", new Blob([more.join("\n")], { type: "text/csv" }), "more.csv");
    const queued = await lines.call("POST", "/api/import/upload", form);
    expect(queued.status, queued.text).toBe(200);
    await vi.waitFor(
      async () => {
        const job = await lines.call("GET", `/api/Import/GetJobStatus?JobGuid=${queued.json.jobGuid}`);
        expect(job.json.status).toBe("Completed");
      },
      { timeout: 30_000, interval: 50 },
    );
    // The job shows Completed as its transaction commits; the server's cube cache hears of the
    // import a moment later, and within a second at most (docs/storage.md, "Level 4's page").
    await vi.waitFor(async () => expect(await count()).toEqual([3, 1]), { timeout: 5_000, interval: 50 });
  });

  it("every call answers 200 with its contract's shape", async () => {
    for (const [name, contract] of Object.entries(analyticsContracts) as [string, Contract][]) {
      const entry = analyticsMatrix[name as keyof typeof analyticsMatrix];
      const input = typeof entry?.input === "function" ? undefined : entry?.input;
      const query = new URLSearchParams(input?.query ?? {}).toString();
      const answer = await org.call(
        contract.method,
        `${contractPath(contract)}${query ? `?${query}` : ""}`,
        input?.body,
      );
      expect(answer.status, `${name}: ${answer.text}`).toBe(200);
      const parsed = contract.response!.safeParse(answer.json);
      expect(parsed.success, `${name}: ${JSON.stringify(parsed.error?.issues)}`).toBe(true);
    }
  });

  it("a bad parameter answers 400 naming it", async () => {
    const cases: [string, string][] = [
      [`VarianceOverview/WaterfallChart?${chart}`, "RecordType"],
      [
        `VarianceOverview/WaterfallChart?${chart.replace("DateFrom=2025-04&", "")}&RecordType=Actual`,
        "DateFrom",
      ],
      [
        `VarianceOverview/ChristmasChart?${chart.replace("PeriodTo=2025-06", "PeriodTo=2025-13")}`,
        "PeriodTo",
      ],
      [
        "VarianceOverview/TrendChart?DataType=Revenue&PeriodFrom=2025-04&PeriodTo=2025-06&RecordType=Actual&RecordTypeFrom=Actual&RecordTypeTo=Actual&ShowAdhoc=false",
        "PeriodMode",
      ],
      [`VarianceOverview/OverviewKpi?dataType=Revenue&dateFrom=April&dateTo=2025-05`, "dateFrom"],
      [`VarianceOverview/ActivityTable?${aprMay}&clientID=abc`, "clientID"],
      [`VarianceOverview/ActivityTable?${aprMay}&rowLimit=-1`, "rowLimit"],
      [`Client/SpecificClientDetail?${aprMay}`, "clientID"],
      [`Sku/SkuDetail?${aprMay}&stockItemID=1.5`, "stockItemID"],
      [`Salesperson/SpecificSalespersonDetail?${aprMay}`, "contactID"],
      [`VarianceOverview/LineChart?dataType=Revenue&periodFrom=2025-04`, "periodTo"],
      [`VarianceOverview/OverviewKpi?${aprMay}&client=NOPE`, "client"],
    ];
    for (const [path, field] of cases) {
      const answer = await org.call("GET", `/api/variance/${path}`);
      expect(answer.status, path).toBe(400);
      expect(
        answer.json.errors.map((e: { field: string }) => e.field),
        path,
      ).toContain(field);
    }
    const posted = await org.call("POST", "/api/variance/VarianceOverview/ActivityTable", {
      dateTo: "2025-5x",
    });
    expect(posted.status).toBe(400);
    expect(posted.json.errors.map((e: { field: string }) => e.field)).toContain("dateTo");
  });

  it("another organisation's ids give nothing of its data", async () => {
    const theirs = otherIds.clients.C900!;
    const client = await get(`Client/SpecificClientDetail?${aprMay}&clientID=${theirs}`);
    expect(client).toMatchObject({ clientCode: "", mrrCents: 0, mrrFromCents: 0, services: [] });
    const lines = await get(`VarianceOverview/TableInvoiceData?${aprMay}&clientID=${theirs}`);
    expect(lines).toMatchObject({ rows: [], rowCount: 0 });
    const kpi = await get(`VarianceOverview/OverviewKpi?${aprMay}&clientID=${theirs}`);
    expect(kpi).toMatchObject({ mrrCents: 0, mrrFromCents: 0, clientsSubscribed: 0 });
    // Their own view holds only their client, 999.00 in both months.
    const theirsKpi = await other.call(
      "GET",
      `/api/variance/VarianceOverview/OverviewKpi?${aprMay.replace("2025-04", "2025-05").replace("dateTo=2025-05", "dateTo=2025-06")}`,
    );
    expect(theirsKpi.json).toMatchObject({ mrrCents: 99900, mrrFromCents: 99900, clientsSubscribed: 1 });
    const rows = await get(`VarianceOverview/ActivityTable?${aprMay}&search=other`);
    expect(rows.rowCount).toBe(0);
  });
});
