import { abilities } from "@varia/contracts";
import { beforeAll, describe, expect, it } from "vitest";
import { createApiToken } from "../src/auth/api-tokens";
import { describeWithServer } from "./harness";
import { otherCsv, reportCsv, tenantWithData } from "./report-fixture";

type Tenant = Awaited<ReturnType<typeof tenantWithData>>;

describeWithServer("lookups", (ctx) => {
  let rep: Tenant;

  beforeAll(async () => {
    rep = await tenantWithData(ctx(), "look", reportCsv);
    await tenantWithData(ctx(), "look-other", otherCsv);
  });

  const lookup = (list: string, body: unknown) => rep.call("POST", `/api/variance/Lookup/${list}`, body);
  const names = (answer: { json: { rows: { name: string }[] } }) => answer.json.rows.map((r) => r.name);

  describe("Lookup/GetClientList", () => {
    it("lists the organisation's clients by name (code point order), never another organisation's", async () => {
      const all = await lookup("GetClientList", {});
      expect(all.status).toBe(200);
      expect(all.json.rowCount).toBe(4);
      expect(all.json.rows.map((r: { code: string; name: string }) => `${r.code} ${r.name}`)).toEqual([
        "C004 =cmd",
        "C001 Acme Ltd",
        "C002 Globex",
        "C003 Initech",
      ]);
      for (const row of all.json.rows) expect(row.clientID).toMatch(/^\d+$/);
    });

    it("searches code and name case-insensitively, pattern characters literally", async () => {
      expect(names(await lookup("GetClientList", { search: "GLO" }))).toEqual(["Globex"]);
      expect(names(await lookup("GetClientList", { search: "c003" }))).toEqual(["Initech"]);
      expect(names(await lookup("GetClientList", { search: "  ltd " }))).toEqual(["Acme Ltd"]);
      const none = await lookup("GetClientList", { search: "%" });
      expect(none.json).toEqual({ rows: [], rowCount: 0 });
      expect((await lookup("GetClientList", { search: "Other" })).json.rowCount).toBe(0);
    });

    it("pages from startRow 1 with rowLimit, counting every match", async () => {
      const page = await lookup("GetClientList", { search: "c00", startRow: 2, rowLimit: 2 });
      expect(page.json.rowCount).toBe(4);
      expect(names(page)).toEqual(["Acme Ltd", "Globex"]);
      const last = await lookup("GetClientList", { search: "c00", startRow: 4, rowLimit: 2 });
      expect(names(last)).toEqual(["Initech"]);
    });
  });

  it("Lookup/GetSkuList: items with their stock type, searched over code and name", async () => {
    const all = await lookup("GetSkuList", {});
    expect(all.json.rows.map((r: { code: string; name: string; stockType: string }) => r)).toEqual([
      expect.objectContaining({ code: "PRO", name: "Pro plan", stockType: "Subscription" }),
      expect.objectContaining({ code: "HW", name: "Router", stockType: "Product" }),
      expect.objectContaining({ code: "SEAT", name: "Seats", stockType: "Subscription" }),
      expect.objectContaining({ code: "SUP", name: "Support", stockType: "Hourly" }),
    ]);
    expect(all.json.rowCount).toBe(4);
    expect(names(await lookup("GetSkuList", { search: "s" }))).toEqual(["Seats", "Support"]);
    expect(names(await lookup("GetSkuList", { search: "hw" }))).toEqual(["Router"]);
  });

  it("Lookup/GetSalespersonList: salespeople by name", async () => {
    const all = await lookup("GetSalespersonList", { search: null });
    expect(all.json.rows.map((r: { name: string }) => r.name)).toEqual(["Jane", "Raj"]);
    expect(names(await lookup("GetSalespersonList", { search: "AJ" }))).toEqual(["Raj"]);
    expect((await lookup("GetSalespersonList", { search: "Olga" })).json.rowCount).toBe(0);
  });

  it("answers every screen that filters by them: dashboards, forecast, reports, data export; no other", async () => {
    const db = ctx().database.db;
    const as = async (ability: (typeof abilities)[keyof typeof abilities]) => {
      const { token } = await createApiToken(db, {
        organisationId: rep.organisationId,
        userId: rep.userId,
        name: `lookup ${ability.featureSystemName}`,
        abilities: [ability],
      });
      const answers = [];
      for (const list of ["GetClientList", "GetSkuList", "GetSalespersonList"]) {
        const answer = await rep.call(
          "POST",
          `/api/variance/Lookup/${list}`,
          {},
          {
            headers: { authorization: `Bearer ${token}` },
          },
        );
        answers.push(answer.status === 200 ? answer.json.rowCount : answer.status);
      }
      return answers;
    };
    for (const ability of [
      abilities.varianceDashboardView,
      abilities.varianceForecastView,
      abilities.varianceReportsView,
      abilities.varianceExportData,
    ])
      expect(await as(ability), ability.featureSystemName).toEqual([4, 4, 2]);
    expect(await as(abilities.settingsListsManage)).toEqual([403, 403, 403]);
  });

  it("answers 400 naming a bad search parameter", async () => {
    for (const [body, field] of [
      [{ rowLimit: 0 }, "rowLimit"],
      [{ startRow: 0 }, "startRow"],
      [{ search: "x".repeat(201) }, "search"],
      [{ rowLimit: "ten" }, "rowLimit"],
    ] as const) {
      const answer = await lookup("GetClientList", body);
      expect(answer.status).toBe(400);
      expect(answer.json.errors.map((e: { field: string }) => e.field)).toEqual([field]);
    }
  });

  describe("Lookup/GetReportList", () => {
    it("lists the report catalogue", async () => {
      const all = await rep.call("GET", "/api/variance/Lookup/GetReportList");
      expect(all.status).toBe(200);
      expect(all.json.map((r: { reportID: string }) => r.reportID)).toEqual([
        "mrr-by-client",
        "mrr-by-service",
        "mrr-movements",
        "acquired-clients",
        "lost-clients",
        "price-changes",
        "salesperson-performance",
        "revenue-by-segment",
        "adhoc-revenue",
        "cohort-retention",
        "forecast",
      ]);
      expect(all.json[0]).toEqual({
        reportID: "mrr-by-client",
        reportType: "MrrByClient",
        name: "MRR by client",
        description: "Each client's MRR in the two periods and the change, with its salesperson.",
      });
    });

    it("narrows to one system name, or to reports whose name or description has the value", async () => {
      const one = await rep.call("GET", "/api/variance/Lookup/GetReportList?systemName=lostclients");
      expect(one.json.map((r: { reportID: string }) => r.reportID)).toEqual(["lost-clients"]);
      const text = await rep.call("GET", "/api/variance/Lookup/GetReportList?value=TRANSFER");
      expect(text.json.map((r: { reportID: string }) => r.reportID)).toEqual(["salesperson-performance"]);
      const none = await rep.call("GET", "/api/variance/Lookup/GetReportList?systemName=Nope");
      expect(none.json).toEqual([]);
    });

    it("finds a report by the words other subscription tools use: customers, churn, ARR, margin", async () => {
      const found = async (value: string) =>
        (
          await rep.call("GET", `/api/variance/Lookup/GetReportList?value=${encodeURIComponent(value)}`)
        ).json.map((r: { reportID: string }) => r.reportID);
      expect(await found("churn")).toEqual(["mrr-movements", "lost-clients", "cohort-retention"]);
      expect(await found("new customers")).toEqual(["acquired-clients"]);
      expect(await found("ARR")).toEqual(["mrr-movements", "forecast"]);
      // Every report runs in a Margin view too.
      expect(await found("margin")).toHaveLength(11);
    });
  });
});
