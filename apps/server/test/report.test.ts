import { abilities } from "@varia/contracts";
import { strFromU8, unzipSync } from "fflate";
import { beforeAll, describe, expect, it } from "vitest";
import { createApiToken } from "../src/auth/api-tokens";
import { describeWithServer, localFetch } from "./harness";
import { csvHeader, otherCsv, parseCsv, reportCsv, tenantWithData } from "./report-fixture";

type Tenant = Awaited<ReturnType<typeof tenantWithData>>;

const may = "2025-05";
const june = "2025-06";

describeWithServer("reports", (ctx) => {
  let rep: Tenant;
  let other: Tenant;
  let linear: Tenant;

  beforeAll(async () => {
    rep = await tenantWithData(ctx(), "rep", reportCsv);
    other = await tenantWithData(ctx(), "rep-other", otherCsv);
    // MRR rising by exactly 100.00 a month: Holt's trend continues the line with no error.
    linear = await tenantWithData(
      ctx(),
      "rep-linear",
      [
        csvHeader,
        ...[1, 2, 3, 4].map(
          (m) => `2025-0${m}-01,L-${m},1,C1,Solo,PLAN,Plan,Subscription,1,,${m}00.00,,Sam,,,Actual,Recurring`,
        ),
        "",
      ].join("\n"),
    );
  });

  const run = (body: Record<string, unknown>, tenant = rep) =>
    tenant.call("POST", "/api/variance/Report/Run", { dateFrom: may, dateTo: june, ...body });

  it("runs the forecast report for a caller who may see the forecast but not the reports, and no other report", async () => {
    const { token } = await createApiToken(ctx().database.db, {
      organisationId: rep.organisationId,
      userId: rep.userId,
      name: "forecast only",
      abilities: [abilities.varianceForecastView],
    });
    const runAs = (reportID: string) =>
      localFetch(`${ctx().tenantUrl("rep")}/api/variance/Report/Run`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify({ reportID, dateFrom: may, dateTo: june }),
      });
    const forecast = await runAs("forecast");
    expect(forecast.status).toBe(200);
    expect(((await forecast.json()) as { reportID: string }).reportID).toBe("forecast");
    const other = await runAs("mrr-by-client");
    expect(other.status).toBe(403);
    expect(((await other.json()) as { message: string }).message).toBe(
      "You do not have permission to do this: it needs the ability Variance/Reports/View.",
    );
  });

  describe("Report/Run, each report against hand-computed numbers", () => {
    it("MRR by client: each client's MRR in both months, its status and salesperson, with the totals", async () => {
      const answer = await run({ reportID: "mrr-by-client" });
      expect(answer.status).toBe(200);
      expect(answer.json).toMatchObject({
        reportID: "mrr-by-client",
        reportType: "MrrByClient",
        dataType: "Revenue",
        dateFrom: may,
        dateTo: june,
        rowCount: 4,
        startRow: 0,
      });
      expect(answer.json.columns.map((c: { field: string; kind: string }) => `${c.field}:${c.kind}`)).toEqual(
        [
          "clientCode:text",
          "clientName:text",
          "salesperson:text",
          "status:text",
          "mrrFrom:money",
          "mrrTo:money",
          "change:money",
          "changePercent:percent",
        ],
      );
      expect(answer.json.rows).toEqual([
        {
          clientCode: "C001",
          clientName: "Acme Ltd",
          salesperson: "Jane",
          status: "existing",
          mrrFrom: 700,
          mrrTo: 920,
          change: 220,
          changePercent: 220 / 700,
        },
        {
          clientCode: "C004",
          clientName: "=cmd",
          salesperson: "Raj",
          status: "existing",
          mrrFrom: 400,
          mrrTo: 504,
          change: 104,
          changePercent: 0.26,
        },
        {
          clientCode: "C003",
          clientName: "Initech",
          salesperson: "Raj",
          status: "new",
          mrrFrom: 0,
          mrrTo: 120,
          change: 120,
          changePercent: null,
        },
        {
          clientCode: "C002",
          clientName: "Globex",
          salesperson: "Raj",
          status: "lost",
          mrrFrom: 300,
          mrrTo: 0,
          change: -300,
          changePercent: -1,
        },
      ]);
      expect(answer.json.totals).toEqual({
        mrrFrom: 1400,
        mrrTo: 1544,
        change: 144,
        changePercent: 144 / 1400,
      });
    });

    it("MRR by client on Margin (dataType normalised case-insensitively) takes the cost off", async () => {
      const answer = await run({ reportID: "mrr-by-client", dataType: "margin", clientID: null });
      expect(answer.json.dataType).toBe("Margin");
      // Acme: May (500 - 100) + 200 = 600; June (550 - 110) + 330 + 40 = 810.
      expect(answer.json.rows[0]).toMatchObject({
        clientCode: "C001",
        mrrFrom: 600,
        mrrTo: 810,
        change: 210,
      });
      expect(answer.json.totals).toMatchObject({ mrrFrom: 1300, mrrTo: 1434 });
    });

    it("MRR by client with showAdhoc: the router's revenue beside Acme's MRR, never in it", async () => {
      const answer = await run({ reportID: "mrr-by-client", showAdhoc: true });
      expect(answer.json.columns.slice(-2).map((c: { field: string }) => c.field)).toEqual([
        "adhocFrom",
        "adhocTo",
      ]);
      expect(answer.json.rows[0]).toMatchObject({
        clientCode: "C001",
        mrrFrom: 700,
        mrrTo: 920,
        adhocFrom: 100,
        adhocTo: 250,
      });
      expect(answer.json.rows[1]).toMatchObject({ clientCode: "C004", adhocFrom: 0, adhocTo: 0 });
      expect(answer.json.totals).toMatchObject({ mrrFrom: 1400, mrrTo: 1544, adhocFrom: 100, adhocTo: 250 });
      const sorted = await run({
        reportID: "mrr-by-client",
        showAdhoc: true,
        sortField: "adhocTo",
        sortDirection: "desc",
      });
      expect(sorted.json.rows[0].clientCode).toBe("C001");
    });

    it("MRR by service: each service's MRR and how many clients take it", async () => {
      const answer = await run({ reportID: "mrr-by-service" });
      expect(answer.json.rows).toEqual([
        {
          itemCode: "SEAT",
          itemName: "Seats",
          stockType: "Subscription",
          clientsFrom: 1,
          clientsTo: 3,
          mrrFrom: 400,
          mrrTo: 664,
          change: 264,
          changePercent: 0.66,
        },
        {
          itemCode: "PRO",
          itemName: "Pro plan",
          stockType: "Subscription",
          clientsFrom: 2,
          clientsTo: 1,
          mrrFrom: 800,
          mrrTo: 550,
          change: -250,
          changePercent: -250 / 800,
        },
        {
          itemCode: "SUP",
          itemName: "Support",
          stockType: "Hourly",
          clientsFrom: 1,
          clientsTo: 1,
          mrrFrom: 200,
          mrrTo: 330,
          change: 130,
          changePercent: 0.65,
        },
      ]);
      expect(answer.json.totals).toMatchObject({ clientsFrom: 3, clientsTo: 3, mrrFrom: 1400, mrrTo: 1544 });
    });

    it("acquired and lost clients, the lost one with its rank and contribution in May", async () => {
      const acquired = await run({ reportID: "acquired-clients" });
      expect(acquired.json.rows).toEqual([
        { clientCode: "C003", clientName: "Initech", salesperson: "Raj", value: 120 },
      ]);
      expect(acquired.json.totals).toEqual({ value: 120 });
      const lost = await run({ reportID: "lost-clients" });
      // May: Acme 700 (1), =cmd 400 (2), Globex 300 (3) of 1400.
      expect(lost.json.rows).toEqual([
        {
          clientCode: "C002",
          clientName: "Globex",
          salesperson: "Raj",
          value: -300,
          rankFrom: 3,
          contributionFrom: 300 / 1400,
        },
      ]);
      expect(lost.json.totals).toEqual({ value: -300 });
    });

    it("price changes: the price effect per client service with the quantity effect beside it", async () => {
      const answer = await run({ reportID: "price-changes" });
      expect(answer.json.rows).toEqual([
        {
          clientCode: "C001",
          clientName: "Acme Ltd",
          itemCode: "PRO",
          itemName: "Pro plan",
          quantityFrom: 5,
          quantityTo: 5,
          mrrFrom: 500,
          mrrTo: 550,
          price: 50,
          quantityEffect: 0,
        },
        {
          clientCode: "C001",
          clientName: "Acme Ltd",
          itemCode: "SUP",
          itemName: "Support",
          quantityFrom: 2,
          quantityTo: 3,
          mrrFrom: 200,
          mrrTo: 330,
          price: 30,
          quantityEffect: 100,
        },
        {
          clientCode: "C004",
          clientName: "=cmd",
          itemCode: "SEAT",
          itemName: "Seats",
          quantityFrom: 10,
          quantityTo: 12,
          mrrFrom: 400,
          mrrTo: 504,
          price: 24,
          quantityEffect: 80,
        },
      ]);
      // Each money column totalled: 500 + 200 + 400, 550 + 330 + 504, 0 + 100 + 80.
      expect(answer.json.totals).toEqual({ mrrFrom: 1100, mrrTo: 1384, price: 104, quantityEffect: 180 });
    });

    it("salesperson performance: the hand-over of =cmd is a transfer out of Jane and into Raj", async () => {
      const answer = await run({ reportID: "salesperson-performance" });
      expect(answer.json.rows).toEqual([
        {
          salesperson: "Jane",
          mrrFrom: 1100,
          mrrTo: 920,
          change: -180,
          newMrr: 0,
          churnedMrr: 0,
          expansionMrr: 220,
          contractionMrr: 0,
          transferIn: 0,
          transferOut: -400,
        },
        {
          salesperson: "Raj",
          mrrFrom: 300,
          mrrTo: 624,
          change: 324,
          newMrr: 120,
          churnedMrr: -300,
          expansionMrr: 104,
          contractionMrr: 0,
          transferIn: 400,
          transferOut: 0,
        },
      ]);
      // Summed over salespeople: the organisation's totals, Transfer nets to zero.
      expect(answer.json.totals).toEqual({
        mrrFrom: 1400,
        mrrTo: 1544,
        change: 144,
        newMrr: 120,
        churnedMrr: -300,
        expansionMrr: 324,
        contractionMrr: 0,
        transferIn: 400,
        transferOut: -400,
      });
    });

    it("a salesperson filter narrows the reports to that salesperson's view", async () => {
      const people = await rep.call("POST", "/api/variance/Lookup/GetSalespersonList", { search: "raj" });
      const raj = people.json.rows[0].salespersonID;
      const performance = await run({ reportID: "salesperson-performance", salespersonID: raj });
      expect(performance.json.rows.map((r: { salesperson: string }) => r.salesperson)).toEqual(["Raj"]);
      const clients = await run({ reportID: "mrr-by-client", salespersonID: Number(raj) });
      expect(clients.json.totals).toMatchObject({ mrrFrom: 300, mrrTo: 624 });
    });

    it("revenue by segment: June's MRR by stock type and by salesperson", async () => {
      const byStockType = await run({ reportID: "revenue-by-segment" });
      expect(byStockType.json).toMatchObject({ dateFrom: null, dateTo: june });
      expect(byStockType.json.rows).toEqual([
        { segment: "Subscription", value: 1214, share: 1214 / 1544 },
        { segment: "Hourly", value: 330, share: 330 / 1544 },
      ]);
      expect(byStockType.json.totals).toEqual({ value: 1544, share: 1 });
      const bySalesperson = await run({ reportID: "revenue-by-segment", segment: "salesperson" });
      expect(bySalesperson.json.rows).toEqual([
        { segment: "Jane", value: 920, share: 920 / 1544 },
        { segment: "Raj", value: 624, share: 624 / 1544 },
      ]);
    });

    it("ad-hoc revenue: the router, never part of MRR", async () => {
      const answer = await run({ reportID: "adhoc-revenue" });
      expect(answer.json.rows).toEqual([
        {
          clientCode: "C001",
          clientName: "Acme Ltd",
          itemCode: "HW",
          itemName: "Router",
          revenueFrom: 100,
          revenueTo: 250,
          change: 150,
        },
      ]);
      expect(answer.json.totals).toEqual({ revenueFrom: 100, revenueTo: 250, change: 150 });
    });

    it("MRR movements: each month's new, expansion, contraction and churn add up from its start to its end", async () => {
      const answer = await run({ reportID: "mrr-movements", dateFrom: null });
      expect(answer.status).toBe(200);
      expect(answer.json).toMatchObject({ dateFrom: null, dateTo: june, rowCount: 2 });
      const [mayRow, juneRow] = answer.json.rows;
      // May, the first month of data: where the data starts, with its MRR and no movements (its
      // clients are not new: nothing says when they started).
      expect(mayRow).toEqual({
        month: may,
        startMrr: null,
        newMrr: null,
        expansionMrr: null,
        contractionMrr: null,
        churnedMrr: null,
        transferMrr: null,
        endMrr: 1400,
        netChange: null,
        clients: 3,
        arpa: 466.67,
        nrr: null,
        grr: null,
        quickRatio: null,
      });
      expect(answer.json.notes).toContain(
        "May 2025 is the first month of data: its MRR is where the data starts (its clients may have started before it), so it has no movements and the totals start from its end.",
      );
      // June against May (the fixture's comment): Initech +120, Globex -300, and Acme's price,
      // usage and service with =cmd's volume and price: +50 +100 +30 +40 +80 +24.
      expect(juneRow).toEqual({
        month: june,
        startMrr: 1400,
        newMrr: 120,
        expansionMrr: 324,
        contractionMrr: 0,
        churnedMrr: -300,
        transferMrr: 0,
        endMrr: 1544,
        netChange: 144,
        clients: 3,
        arpa: 514.67,
        nrr: (1400 - 300 + 324) / 1400,
        grr: (1400 - 300) / 1400,
        // (120 + 324) / 300
        quickRatio: 1.48,
      });
      // The totals start from May's end: June's movements alone.
      expect(answer.json.totals).toEqual({
        startMrr: 1400,
        newMrr: 120,
        expansionMrr: 324,
        contractionMrr: 0,
        churnedMrr: -300,
        transferMrr: 0,
        endMrr: 1544,
        netChange: 144,
        quickRatio: 1.48,
      });
      // In Raj's view, =cmd's hand-over from Jane is a transfer in, and the months still add up.
      const people = await rep.call("POST", "/api/variance/Lookup/GetSalespersonList", { search: "raj" });
      const raj = await run({ reportID: "mrr-movements", salespersonID: people.json.rows[0].salespersonID });
      const rajJune = raj.json.rows[1];
      expect(rajJune.transferMrr).toBe(400);
      expect(
        rajJune.startMrr +
          rajJune.newMrr +
          rajJune.expansionMrr +
          rajJune.contractionMrr +
          rajJune.churnedMrr +
          rajJune.transferMrr,
      ).toBeCloseTo(rajJune.endMrr, 10);
    });

    it("cohort retention: clients by their first active month, their MRR then, now and each month after", async () => {
      // January is the first month of data (C1: no cohort). February: C2 200.00 and C3 50.00 start;
      // March: C2 grows to 250.00, C3 is gone, C4 starts at 80.00; April: C3 is back, C4 halves.
      const line = (date: string, n: number, client: string, amount: string) =>
        `${date},${client}-${n},1,${client},Client ${client},PLAN,Plan,Subscription,1,,${amount},,Sam,,,Actual,Recurring`;
      const cohortsCsv = [
        csvHeader,
        ...["01", "02", "03", "04"].map((m, i) => line(`2025-${m}-01`, i, "C1", "100.00")),
        line("2025-02-01", 1, "C2", "200.00"),
        line("2025-03-01", 2, "C2", "250.00"),
        line("2025-04-01", 3, "C2", "250.00"),
        line("2025-02-01", 1, "C3", "50.00"),
        line("2025-04-01", 3, "C3", "50.00"),
        line("2025-03-01", 2, "C4", "80.00"),
        line("2025-04-01", 3, "C4", "40.00"),
        "",
      ].join("\n");
      const tenant = await tenantWithData(ctx(), "rep-cohorts", cohortsCsv);
      const answer = await tenant.call("POST", "/api/variance/Report/Run", { reportID: "cohort-retention" });
      expect(answer.status).toBe(200);
      expect(answer.json).toMatchObject({ dateFrom: null, dateTo: "2025-04", rowCount: 3 });
      const later = (values: (number | null)[]) =>
        Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`month${i + 1}`, values[i] ?? null]));
      expect(answer.json.rows).toEqual([
        { cohort: "2025-02", clients: 2, startMrr: 250, clientsNow: 2, mrrNow: 300, ...later([1, 1.2]) },
        { cohort: "2025-03", clients: 1, startMrr: 80, clientsNow: 1, mrrNow: 40, ...later([0.5]) },
        // C3's return in April is not a new client.
        { cohort: "2025-04", clients: 0, startMrr: 0, clientsNow: 0, mrrNow: 0, ...later([]) },
      ]);
      expect(answer.json.totals).toEqual({
        clients: 3,
        startMrr: 330,
        clientsNow: 3,
        mrrNow: 340,
        ...later([290 / 330, 1.2]),
      });
      expect(answer.json.notes[1]).toBe(
        "Clients active in Jan 2025, the first month of data, are in no cohort: they may have started before it.",
      );
      // Followed by clients: C3's absence in March and return in April, C2 always there.
      const byClients = await tenant.call("POST", "/api/variance/Report/Run", {
        reportID: "cohort-retention",
        retention: "clients",
      });
      expect(byClients.json.rows.map((r: Record<string, unknown>) => [r.month1, r.month2])).toEqual([
        [0.5, 1],
        [1, null],
        [null, null],
      ]);
      expect([byClients.json.totals.month1, byClients.json.totals.month2]).toEqual([2 / 3, 1]);
      expect(byClients.json.notes[0]).toBe(
        "Each month after a cohort's first: how many of its clients are active then, as a share of its clients.",
      );
      // The latest cohort's first month is the acquired clients' new MRR of that month, to the cent.
      const acquired = await tenant.call("POST", "/api/variance/Report/Run", {
        reportID: "acquired-clients",
        dateFrom: "2025-02",
        dateTo: "2025-03",
      });
      expect(acquired.json.totals.value).toBe(answer.json.rows[1].startMrr);
    });

    it("forecast: the months so far and the next 12 on the trend, with the back-test in the notes", async () => {
      const answer = await linear.call("POST", "/api/variance/Report/Run", {
        reportID: "forecast",
        rowLimit: 100,
      });
      expect(answer.json).toMatchObject({ dateFrom: null, dateTo: "2025-04", rowCount: 16 });
      const actual = [1, 2, 3, 4].map((m) => ({
        month: `2025-0${m}`,
        kind: "Actual",
        value: m * 100,
        lower: null,
        upper: null,
      }));
      const ahead = Array.from({ length: 12 }, (_, i) => {
        const month = 2025 * 12 + 4 + i; // May 2025 onwards
        const value = (5 + i) * 100;
        return {
          month: `${Math.floor(month / 12)}-${String((month % 12) + 1).padStart(2, "0")}`,
          kind: "Forecast",
          value,
          lower: value,
          upper: value,
        };
      });
      expect(answer.json.rows).toEqual([...actual, ...ahead]);
      expect(answer.json.notes[1]).toBe("Back-test over 1 month, one month ahead: MAE 0.00, MAPE 0.00%.");
      // The same figures as numbers, for screens.
      expect(answer.json.figures).toEqual({
        fittedMonths: 4,
        alpha: expect.any(Number),
        beta: expect.any(Number),
        backtestMonths: 1,
        backtestMae: 0,
        backtestMape: 0,
      });
    });

    it("agrees with DashboardAlpha/GetVariance to the cent", async () => {
      const dashboard = await rep.call(
        "GET",
        `/api/variance/DashboardAlpha/GetVariance?dateFrom=${may}&dateTo=${june}&dataType=Revenue`,
      );
      expect(dashboard.status).toBe(200);
      const byClient = await run({ reportID: "mrr-by-client" });
      expect(byClient.json.totals).toMatchObject({
        mrrFrom: dashboard.json.totalFrom,
        mrrTo: dashboard.json.totalTo,
      });
      const acquired = await run({ reportID: "acquired-clients" });
      expect(
        acquired.json.rows.map((r: { clientCode: string; value: number }) => [r.clientCode, r.value]),
      ).toEqual(
        dashboard.json.acquiredClients.map((c: { clientCode: string; value: number }) => [
          c.clientCode,
          c.value,
        ]),
      );
      const lost = await run({ reportID: "lost-clients" });
      expect(
        lost.json.rows.map((r: { clientCode: string; value: number }) => [r.clientCode, r.value]),
      ).toEqual(
        dashboard.json.lostClients.map((c: { clientCode: string; value: number }) => [c.clientCode, c.value]),
      );
      const prices = await run({ reportID: "price-changes" });
      const t = dashboard.json.byType;
      expect(prices.json.totals.price).toBeCloseTo(t.Price.positive + t.Price.negative, 9);
    });

    it("defaults the periods to the latest actual month and the month before", async () => {
      const answer = await rep.call("POST", "/api/variance/Report/Run", { reportID: "acquired-clients" });
      expect(answer.json).toMatchObject({ dateFrom: may, dateTo: june, rowCount: 1 });
    });

    it("defaults to the dashboards' latest month when a prepaid line reaches into months to come", async () => {
      const prepaid = await tenantWithData(
        ctx(),
        "rep-prepaid",
        [
          csvHeader,
          "2025-06-01,P-1,1,C1,Solo,PLAN,Plan,Subscription,1,,6000.00,,Sam,2025-06-01,2030-05-31,Actual,Recurring",
          "",
        ].join("\n"),
      );
      const periods = await prepaid.call("GET", "/api/variance/VarianceOverview/ActualPeriods");
      const latest = periods.json[0] as { yearNo: number; monthNo: number };
      const latestKey = `${latest.yearNo}-${String(latest.monthNo).padStart(2, "0")}`;
      expect(latestKey).toBe(june);
      const answer = await prepaid.call("POST", "/api/variance/Report/Run", { reportID: "mrr-by-client" });
      expect(answer.json.dateTo).toBe(latestKey);
      const filters = await prepaid.call(
        "GET",
        "/api/variance/Report/getReportFilter?reportID=mrr-by-client",
      );
      expect(filters.json.filters.find((f: { name: string }) => f.name === "dateTo").default).toBe(latestKey);
      // The months offered are the dashboards' actual periods: none of the months to come.
      const actualKeys = (periods.json as { yearNo: number; monthNo: number }[]).map(
        (p) => `${p.yearNo}-${String(p.monthNo).padStart(2, "0")}`,
      );
      for (const name of ["dateFrom", "dateTo"]) {
        const filter = filters.json.filters.find((f: { name: string }) => f.name === name);
        expect(filter.options.map((o: { value: string }) => o.value)).toEqual(actualKeys);
      }
    });
  });

  describe("sorting and paging", () => {
    it("sorts by any column, empty cells last, and answers the page asked for with the full count", async () => {
      const byName = await run({
        reportID: "mrr-by-client",
        sortField: "clientName",
        sortDirection: "asc",
        startRow: 1,
        rowLimit: 2,
      });
      expect(byName.json).toMatchObject({ rowCount: 4, startRow: 1 });
      expect(byName.json.rows.map((r: { clientName: string }) => r.clientName)).toEqual([
        "Acme Ltd",
        "Globex",
      ]);
      const byPercent = await run({
        reportID: "mrr-by-client",
        sortField: "changePercent",
        sortDirection: "desc",
      });
      expect(byPercent.json.rows.map((r: { clientCode: string }) => r.clientCode)).toEqual([
        "C001",
        "C004",
        "C002",
        "C003",
      ]);
    });

    it("sorts text as a reader does: regardless of case, and the numbers inside codes by their value", async () => {
      const names = await tenantWithData(
        ctx(),
        "rep-names",
        [
          csvHeader,
          ...[
            ["C10", "zeta Labs"],
            ["C9", "acme"],
            ["C100", "Beta Foods"],
            ["C2", "Ébène Studio"],
          ].map(
            ([code, name], i) =>
              `2025-06-01,N-${i},1,${code},${name},PLAN,Plan,Subscription,1,,10${i}.00,,Sam,,,Actual,Recurring`,
          ),
          "",
        ].join("\n"),
      );
      const sorted = async (sortField: string, sortDirection: "asc" | "desc") => {
        const answer = await run({ reportID: "mrr-by-client", sortField, sortDirection }, names);
        expect(answer.status).toBe(200);
        return answer.json.rows.map((r: Record<string, string>) => r[sortField]);
      };
      expect(await sorted("clientName", "asc")).toEqual(["acme", "Beta Foods", "Ébène Studio", "zeta Labs"]);
      expect(await sorted("clientName", "desc")).toEqual(["zeta Labs", "Ébène Studio", "Beta Foods", "acme"]);
      expect(await sorted("clientCode", "asc")).toEqual(["C2", "C9", "C10", "C100"]);
    });
  });

  describe("Report/ExportReport", () => {
    it("CSV: the same rows as Run, money with two decimals, a client named =cmd neutralised", async () => {
      const body = { reportID: "mrr-by-client", dateFrom: may, dateTo: june, format: "csv" };
      const file = await rep.call("POST", "/api/variance/Report/ExportReport", body);
      expect(file.status).toBe(200);
      expect(file.headers.get("content-type")).toMatch(/^text\/csv/);
      expect(file.headers.get("content-disposition")).toBe(
        'attachment; filename="varia-mrr-by-client-2025-05_to_2025-06.csv"',
      );
      expect(file.text).toBe(
        [
          "Client code,Client,Salesperson,Status,MRR from,MRR to,Change,Change %",
          "C001,Acme Ltd,Jane,existing,700.00,920.00,220.00,31.43",
          "C004,'=cmd,Raj,existing,400.00,504.00,104.00,26.00",
          "C003,Initech,Raj,new,0.00,120.00,120.00,",
          "C002,Globex,Raj,lost,300.00,0.00,-300.00,-100.00",
          "",
        ].join("\r\n"),
      );
      // Every report's CSV carries exactly the cells of its Run (a percent in percent, two decimals).
      for (const reportID of [
        "price-changes",
        "salesperson-performance",
        "lost-clients",
        "adhoc-revenue",
        "mrr-movements",
      ]) {
        const csv = await rep.call("POST", "/api/variance/Report/ExportReport", { ...body, reportID });
        const ran = await run({ reportID, rowLimit: 1000 });
        const [header, ...rows] = parseCsv(csv.text);
        // A percent column's header says "%", since its cells are in percent (Contribution before %).
        expect(header).toEqual(
          ran.json.columns.map((c: { header: string; kind: string }) =>
            c.kind === "percent" && !c.header.endsWith("%") ? `${c.header} %` : c.header,
          ),
        );
        if (reportID === "lost-clients") expect(header).toContain("Contribution before %");
        if (reportID === "mrr-movements")
          expect(header?.slice(-3)).toEqual(["NRR %", "GRR %", "Quick ratio"]);
        expect(rows.map((r) => r.map((cell) => (cell === "" ? null : cell.replace(/^'/, ""))))).toEqual(
          ran.json.rows.map((row: Record<string, unknown>) =>
            ran.json.columns.map((c: { field: string; kind: string; decimals?: number }) => {
              const v = row[c.field];
              if (v === null) return null;
              if (typeof v === "number" && c.kind === "money") return v.toFixed(2);
              if (typeof v === "number" && c.kind === "percent") return (v * 100).toFixed(2);
              if (typeof v === "number" && c.decimals !== undefined) return v.toFixed(c.decimals);
              return String(v);
            }),
          ),
        );
      }
    });

    it("XLSX: a workbook whose money cells are numbers with a currency format, text never a formula", async () => {
      const file = await rep.call("POST", "/api/variance/Report/ExportReport", {
        reportID: "mrr-by-client",
        dateFrom: may,
        dateTo: june,
        format: "xlsx",
      });
      expect(file.status).toBe(200);
      expect(file.headers.get("content-type")).toBe(
        "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
      );
      expect(file.headers.get("content-disposition")).toBe(
        'attachment; filename="varia-mrr-by-client-2025-05_to_2025-06.xlsx"',
      );
      const parts = unzipSync(file.body);
      expect(Object.keys(parts).sort()).toEqual([
        "[Content_Types].xml",
        "_rels/.rels",
        "xl/_rels/workbook.xml.rels",
        "xl/styles.xml",
        "xl/workbook.xml",
        "xl/worksheets/sheet1.xml",
      ]);
      const sheet = strFromU8(parts["xl/worksheets/sheet1.xml"]!);
      const styles = strFromU8(parts["xl/styles.xml"]!);
      // Money: style 2 is number format 164, the organisation's currency (USD).
      expect(styles).toContain('<numFmt numFmtId="164" formatCode="[$$]#,##0.00;-[$$]#,##0.00"/>');
      expect(styles).toMatch(/<cellXfs count="12">(?:\s*<xf[^>]*\/>){2}\s*<xf numFmtId="164"/);
      const cells = new Map(
        [...sheet.matchAll(/<c r="([A-Z]+\d+)"([^>]*)>(.*?)<\/c>/g)].map((m) => [
          m[1],
          { attrs: m[2], inner: m[3] },
        ]),
      );
      expect(cells.get("A1")?.inner).toBe("<is><t>Client code</t></is>");
      expect(cells.get("E2")).toEqual({ attrs: ' s="2"', inner: "<v>700</v>" });
      expect(cells.get("F2")).toEqual({ attrs: ' s="2"', inner: "<v>920</v>" });
      expect(cells.get("H3")).toEqual({ attrs: ' s="3"', inner: "<v>0.26</v>" });
      expect(cells.get("G5")).toEqual({ attrs: ' s="2"', inner: "<v>-300</v>" });
      expect(cells.get("B3")).toEqual({
        attrs: ' t="inlineStr"',
        inner: '<is><t xml:space="preserve">=cmd</t></is>',
      });
      expect(cells.has("H4"), "an empty percent is an empty cell").toBe(false);
      // The totals, bold, after the four clients: 'Total' under the first header, the MRRs (style
      // 5, money in bold) and the change, as on screen; a column without a total stays empty.
      expect(cells.get("A6")).toEqual({
        attrs: ' t="inlineStr" s="1"',
        inner: '<is><t xml:space="preserve">Total</t></is>',
      });
      expect(cells.get("E6")).toEqual({ attrs: ' s="5"', inner: "<v>1400</v>" });
      expect(cells.get("F6")).toEqual({ attrs: ' s="5"', inner: "<v>1544</v>" });
      expect(cells.get("G6")).toEqual({ attrs: ' s="5"', inner: "<v>144</v>" });
      expect(cells.has("C6")).toBe(false);
      expect(cells.has("A7")).toBe(false);
      expect(sheet).not.toContain("<f>");
      expect(strFromU8(parts["xl/workbook.xml"]!)).toContain(
        '<sheet name="MRR by client" sheetId="1" r:id="rId1"/>',
      );
    });
  });

  it("a margin export says so in its file name and its sheet's, a revenue one as before", async () => {
    const exported = (format: string, dataType: string) =>
      rep.call("POST", "/api/variance/Report/ExportReport", {
        reportID: "salesperson-performance",
        dateFrom: may,
        dateTo: june,
        dataType,
        format,
      });
    const csv = await exported("csv", "Margin");
    expect(csv.headers.get("content-disposition")).toBe(
      'attachment; filename="varia-salesperson-performance-margin-2025-05_to_2025-06.csv"',
    );
    const xlsx = await exported("xlsx", "Margin");
    expect(xlsx.headers.get("content-disposition")).toBe(
      'attachment; filename="varia-salesperson-performance-margin-2025-05_to_2025-06.xlsx"',
    );
    const ExcelJS = (await import("exceljs")).default;
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(xlsx.body as unknown as ArrayBuffer);
    // Excel's 31 characters, to the last.
    expect(workbook.worksheets[0]!.name).toBe("Salesperson performance, margin");
    expect((await exported("csv", "Revenue")).headers.get("content-disposition")).toBe(
      'attachment; filename="varia-salesperson-performance-2025-05_to_2025-06.csv"',
    );
  });

  it("a report whose name says revenue says margin in a Margin view: its run, its file and its sheet", async () => {
    const cases = [
      { reportID: "revenue-by-segment", revenue: "Revenue by segment", margin: "Margin by segment" },
      { reportID: "adhoc-revenue", revenue: "Ad-hoc revenue", margin: "Ad-hoc margin" },
    ];
    const ExcelJS = (await import("exceljs")).default;
    for (const { reportID, revenue, margin } of cases) {
      const body = { reportID, dateFrom: may, dateTo: june };
      const runs = {
        Revenue: await rep.call("POST", "/api/variance/Report/Run", { ...body, dataType: "Revenue" }),
        Margin: await rep.call("POST", "/api/variance/Report/Run", { ...body, dataType: "Margin" }),
      };
      expect(runs.Revenue.json.name).toBe(revenue);
      expect(runs.Margin.json.name).toBe(margin);
      const file = await rep.call("POST", "/api/variance/Report/ExportReport", {
        ...body,
        dataType: "Margin",
        format: "xlsx",
      });
      const disposition = file.headers.get("content-disposition")!;
      expect(disposition).toContain("margin");
      expect(disposition.toLowerCase()).not.toContain("revenue");
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load(file.body as unknown as ArrayBuffer);
      expect(workbook.worksheets[0]!.name).toBe(margin);
    }
    const segments = await rep.call("POST", "/api/variance/Report/ExportReport", {
      reportID: "revenue-by-segment",
      dateTo: june,
      dataType: "Margin",
      format: "csv",
    });
    expect(segments.headers.get("content-disposition")).toBe(
      'attachment; filename="varia-margin-by-segment-2025-06.csv"',
    );
  });

  it("XLSX: a month is a date a spreadsheet writes 'May 2025' and can chart, not the text 2025-05", async () => {
    const file = await rep.call("POST", "/api/variance/Report/ExportReport", {
      reportID: "mrr-movements",
      dateTo: june,
      format: "xlsx",
    });
    expect(file.status).toBe(200);
    const ExcelJS = (await import("exceljs")).default;
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(file.body as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0]!;
    expect(sheet.getCell("A1").value).toBe("Month");
    for (const [ref, day] of [
      ["A2", Date.UTC(2025, 4, 1)],
      ["A3", Date.UTC(2025, 5, 1)],
    ] as const) {
      const cell = sheet.getCell(ref);
      expect(cell.value, ref).toEqual(new Date(day));
      expect(cell.numFmt, ref).toBe("mmm yyyy");
    }
    // The header filters the rows, the totals row outside the filter's range.
    expect(sheet.autoFilter).toBe(`A1:${String.fromCharCode(64 + sheet.getRow(1).cellCount)}3`);
    // The totals row keeps its word, in bold.
    expect(sheet.getCell("A4").value).toBe("Total");
    expect(sheet.getCell("A4").font?.bold).toBe(true);
    // The quick ratio, a number of two decimals: 0.00, so that 1.6 is written 1.60 under 1.29.
    const quick = sheet.getRow(1).values as unknown[];
    const column = quick.indexOf("Quick ratio");
    expect(column).toBeGreaterThan(0);
    const ratio = sheet.getRow(3).getCell(column);
    expect(typeof ratio.value).toBe("number");
    expect(ratio.numFmt).toBe("0.00");
  });

  describe("Report/getReportFilter", () => {
    it("names the second month 'To' beside From, and alone 'Month' or 'Up to' as the report reads it", async () => {
      const labels = async (reportID: string) => {
        const answer = await rep.call("GET", `/api/variance/Report/getReportFilter?reportID=${reportID}`);
        expect(answer.status).toBe(200);
        const dates = answer.json.filters.filter((f: { kind: string }) => f.kind === "period");
        // A report of one month does not speak of a second period it has no first for.
        if (dates.length === 1) expect(answer.json.description, reportID).not.toMatch(/second period/);
        return dates.map((f: { label: string }) => f.label);
      };
      expect(await labels("mrr-by-client")).toEqual(["From", "To"]);
      expect(await labels("revenue-by-segment")).toEqual(["Month"]);
      for (const reportID of ["mrr-movements", "cohort-retention", "forecast"])
        expect(await labels(reportID), reportID).toEqual(["Up to"]);
    });

    it("lists the report's filters with the actual months and the salespeople as options", async () => {
      const answer = await rep.call(
        "GET",
        "/api/variance/Report/getReportFilter?reportID=salesperson-performance",
      );
      expect(answer.status).toBe(200);
      const people = await rep.call("POST", "/api/variance/Lookup/GetSalespersonList", {});
      const filters = Object.fromEntries(answer.json.filters.map((f: { name: string }) => [f.name, f]));
      expect(Object.keys(filters)).toEqual([
        "dataType",
        "dateFrom",
        "dateTo",
        "stockType",
        "clientID",
        "stockItemID",
        "salespersonID",
      ]);
      const months = [
        { label: "Jun 2025", value: "2025-06" },
        { label: "May 2025", value: "2025-05" },
      ];
      expect(filters.dateTo).toMatchObject({ kind: "period", default: june, options: months });
      expect(filters.dateFrom).toMatchObject({ kind: "period", default: may, options: months });
      expect(filters.stockType.options.map((o: { value: string }) => o.value)).toEqual([
        "Subscription",
        "Product",
        "Hourly",
      ]);
      expect(filters.clientID).toMatchObject({ kind: "lookup", lookup: "Lookup/GetClientList" });
      expect(filters.salespersonID.options).toEqual(
        people.json.rows.map((p: { salespersonID: string; name: string }) => ({
          label: p.name,
          value: p.salespersonID,
        })),
      );
      expect(filters.salespersonID.options.map((o: { label: string }) => o.label)).toEqual(["Jane", "Raj"]);
      const segment = await rep.call(
        "GET",
        "/api/variance/Report/getReportFilter?reportID=revenue-by-segment",
      );
      expect(segment.json.filters.map((f: { name: string }) => f.name)).toContain("segment");
    });
  });

  describe("bad parameters answer 400 naming them", () => {
    const cases: [string, Record<string, unknown>, string][] = [
      ["an unknown report", { reportID: "no-such-report" }, "reportID"],
      ["a month that does not exist", { reportID: "mrr-by-client", dateTo: "2025-13" }, "dateTo"],
      ["periods the wrong way round", { reportID: "mrr-by-client", dateFrom: june, dateTo: may }, "dateFrom"],
      ["a sort field that is not a column", { reportID: "mrr-by-client", sortField: "bogus" }, "sortField"],
      ["a client id that is not a number", { reportID: "mrr-by-client", clientID: "C001" }, "clientID"],
      ["a page size over the limit", { reportID: "mrr-by-client", rowLimit: 1_000_000 }, "rowLimit"],
      [
        "a retention that is neither mrr nor clients",
        { reportID: "cohort-retention", retention: "logos" },
        "retention",
      ],
    ];
    for (const [what, body, field] of cases) {
      it(`Run with ${what}`, async () => {
        const answer = await rep.call("POST", "/api/variance/Report/Run", body);
        expect(answer.status).toBe(400);
        expect(answer.json.message).toContain(field);
        expect(answer.json.errors.map((e: { field: string }) => e.field)).toContain(field);
      });
    }

    it("ExportReport with an unknown format, getReportFilter without a report", async () => {
      const format = await rep.call("POST", "/api/variance/Report/ExportReport", {
        reportID: "mrr-by-client",
        format: "pdf",
      });
      expect(format.status).toBe(400);
      expect(format.json.message).toContain("format");
      const filter = await rep.call("GET", "/api/variance/Report/getReportFilter");
      expect(filter.status).toBe(400);
      expect(filter.json.message).toContain("reportID");
    });
  });

  describe("tenant isolation", () => {
    it("never shows another organisation's clients, items, salespeople or money", async () => {
      const all = await Promise.all(
        ["mrr-by-client", "mrr-by-service", "salesperson-performance", "revenue-by-segment"].map((reportID) =>
          run({ reportID }),
        ),
      );
      for (const answer of all) {
        expect(answer.text).not.toMatch(/C900|Other Corp|Other plan|Olga|999/);
      }
      const theirs = await run({ reportID: "mrr-by-client" }, other);
      expect(theirs.json.rows).toEqual([
        {
          clientCode: "C900",
          clientName: "Other Corp",
          salesperson: "Olga",
          status: "existing",
          mrrFrom: 999,
          mrrTo: 999,
          change: 0,
          changePercent: 0,
        },
      ]);
      // Their client's id names nothing in this organisation.
      const theirClients = await other.call("POST", "/api/variance/Lookup/GetClientList", {});
      const foreign = await run({ reportID: "mrr-by-client", clientID: theirClients.json.rows[0].clientID });
      expect(foreign.json.rows).toEqual([]);
      expect(foreign.json.totals).toMatchObject({ mrrFrom: 0, mrrTo: 0 });
    });
  });
});
