import { randomUUID } from "node:crypto";
import { analyticsContracts, type Contract, contractPath } from "@varia/contracts";
import { sql } from "kysely";
import { beforeAll, describe, expect, it, vi } from "vitest";
import "../src/db/settings-schema";
import { analyticsMatrix } from "./authorization-matrix-analytics";
import { describeWithServer } from "./harness";
import { otherCsv, parseCsv, reportCsv, tenantWithData } from "./report-fixture";

/**
 * Exclusion lists against the data of report-fixture.ts (May and June 2025): Acme (C001, expansion
 * and an Adhoc router), Globex (C002, lost), Initech (C003, acquired) and =cmd (C004, handed from
 * Jane to Raj). Every expected number is taken from the same calls before any list existed: the
 * whole organisation, and each excluded client alone (a client filter narrows what is summed,
 * never what counts as active, so a client's own view holds exactly what it adds to the whole).
 */
describeWithServer("exclusion lists", (ctx) => {
  let org: Awaited<ReturnType<typeof tenantWithData>>;
  let other: Awaited<ReturnType<typeof tenantWithData>>;
  const months = "dateFrom=2025-05&dateTo=2025-06";
  const chart =
    "DataType=Revenue&DateFrom=2025-05&DateTo=2025-06&RecordTypeFrom=Actual&RecordTypeTo=Actual&StockType=&PeriodFrom=2025-06&PeriodTo=2025-06&RecordType=Actual";
  const v = "/api/variance";

  const clientId = async (code: string) =>
    (
      await ctx()
        .database.db.selectFrom("clients")
        .select("id")
        .where("organisation_id", "=", org.organisationId)
        .where("code", "=", code)
        .executeTakeFirstOrThrow()
    ).id;

  /** The figures these tests compare, for the whole organisation or one client (`&client=CODE`). */
  async function figures(filter = "") {
    const get = async (path: string) => {
      const answer = await org.call("GET", `${v}/${path}${filter}`);
      expect(answer.status, `${path}: ${answer.text}`).toBe(200);
      return answer.json;
    };
    const report = await org.call("POST", `${v}/Report/Run`, {
      reportID: "mrr-by-client",
      dateFrom: "2025-05",
      dateTo: "2025-06",
      ...(filter ? { clientID: await clientId(filter.replace("&client=", "")) } : {}),
    });
    return {
      kpi: await get(`VarianceOverview/OverviewKpi?${months}`),
      waterfall: await get(`VarianceOverview/WaterfallChart?${chart}`),
      variance: await get(`DashboardAlpha/GetVariance?${months}`),
      trend: await get(
        `VarianceOverview/TrendChart?${chart.replace("PeriodFrom=2025-06", "PeriodFrom=2025-05")}&PeriodMode=Monthly&ShowAdhoc=false&PeriodCount=2`,
      ),
      invoices: await get(`VarianceOverview/TableInvoiceData?${months}&rowLimit=1000`),
      report: report.json,
    };
  }
  type Figures = Awaited<ReturnType<typeof figures>>;

  const kpiFields = [
    "mrrCents",
    "mrrFromCents",
    "arrCents",
    "mrrCentsVariance",
    "newMrrCents",
    "churnedMrrCents",
    "expansionMrrCents",
    "contractionMrrCents",
    "clientsSubscribed",
    "clientsSubscribedFrom",
  ] as const;
  const steps = (w: Figures["waterfall"]) =>
    Object.fromEntries(w.steps.map((s: { label: string; valueCents: number }) => [s.label, s.valueCents]));
  const cents = (major: number) => Math.round(major * 100);

  let all: Figures;
  let acme: Figures;
  let globex: Figures;

  beforeAll(async () => {
    org = await tenantWithData(ctx(), "excl", reportCsv);
    other = await tenantWithData(ctx(), "excl-other", otherCsv);
    all = await figures();
    acme = await figures("&client=C001");
    globex = await figures("&client=C002");
  });

  const save = (body: Record<string, unknown>) => org.call("POST", `${v}/Exclusion/UpsertExclusion`, body);

  /** Checks every figure of `after` is the whole less `removed`, to the cent. */
  function expectWithout(after: Figures, removed: Figures[]) {
    for (const field of kpiFields) {
      expect(after.kpi[field], field).toBe(all.kpi[field] - removed.reduce((s, r) => s + r.kpi[field], 0));
    }
    const before = steps(all.waterfall);
    const gone = removed.map((r) => steps(r.waterfall));
    const expected = Object.fromEntries(
      Object.entries(before)
        .map(([label, value]) => [label, value - gone.reduce((s, g) => s + (g[label] ?? 0), 0)] as const)
        .filter(([label, value]) => value !== 0 || label === "Start" || label === "End"),
    );
    expect(steps(after.waterfall)).toEqual(expected);

    expect(cents(after.variance.totalFrom)).toBe(
      cents(all.variance.totalFrom) - removed.reduce((s, r) => s + cents(r.variance.totalFrom), 0),
    );
    expect(cents(after.variance.totalTo)).toBe(
      cents(all.variance.totalTo) - removed.reduce((s, r) => s + cents(r.variance.totalTo), 0),
    );
    for (const type of ["Client", "Service", "Price", "Volume", "Usage", "Transfer"]) {
      for (const sign of ["positive", "negative"]) {
        expect(cents(after.variance.byType[type][sign]), `${type} ${sign}`).toBe(
          cents(all.variance.byType[type][sign]) -
            removed.reduce((s, r) => s + cents(r.variance.byType[type][sign]), 0),
        );
      }
    }
    const codes = (list: { clientCode: string }[]) => list.map((c) => c.clientCode);
    const removedCodes = new Set(removed.flatMap((r) => codes(r.report.rows)));
    expect(after.variance.acquiredClients).toEqual(
      all.variance.acquiredClients.filter((c: { clientCode: string }) => !removedCodes.has(c.clientCode)),
    );
    expect(after.variance.lostClients).toEqual(
      all.variance.lostClients.filter((c: { clientCode: string }) => !removedCodes.has(c.clientCode)),
    );

    after.trend.points.forEach((point: { period: string; totalCents: number }, i: number) => {
      expect(point.totalCents).toBe(
        all.trend.points[i].totalCents - removed.reduce((s, r) => s + r.trend.points[i].totalCents, 0),
      );
    });

    // The report lists the other clients exactly as before; its totals drop by the removed ones.
    expect(after.report.rows).toEqual(
      all.report.rows.filter((row: { clientCode: string }) => !removedCodes.has(row.clientCode)),
    );
    for (const field of ["mrrFrom", "mrrTo", "change"]) {
      expect(cents(after.report.totals[field]), field).toBe(
        cents(all.report.totals[field]) - removed.reduce((s, r) => s + cents(r.report.totals[field]), 0),
      );
    }

    // The invoice lines behind the figures leave the removed clients' lines out.
    expect(after.invoices.rowCount).toBe(
      all.invoices.rowCount - removed.reduce((s, r) => s + r.invoices.rowCount, 0),
    );
    expect(after.invoices.rows).toEqual(
      all.invoices.rows.filter((row: { clientCode: string }) => !removedCodes.has(row.clientCode)),
    );
  }

  it("the figures before any list: each client's own view is part of the whole", () => {
    // The fixture is what these tests need: both clients hold money in both figures.
    expect(acme.kpi.mrrCents).toBeGreaterThan(0);
    expect(globex.kpi.mrrFromCents).toBeGreaterThan(0);
    expect(all.variance.lostClients).toEqual([{ clientCode: "C002", clientName: "Globex", value: -300 }]);
    expect(all.report.rows).toHaveLength(4);
    expect(acme.report.rows.map((r: { clientCode: string }) => r.clientCode)).toEqual(["C001"]);
  });

  it("a list of two clients takes exactly their values out of every figure; deactivating and deleting it restores them", async () => {
    const created = await save({ name: "Internal clients", clientCodes: ["C001", "C002"] });
    expect(created.status).toBe(200);
    const list = created.json;
    expect(list).toMatchObject({
      name: "Internal clients",
      active: true,
      clients: [
        { code: "C001", name: "Acme Ltd", clientID: expect.stringMatching(/^\d+$/) },
        { code: "C002", name: "Globex", clientID: expect.stringMatching(/^\d+$/) },
      ],
      items: [],
    });
    expectWithout(await figures(), [acme, globex]);

    // Every report, CSV export included, leaves them out.
    const csv = await org.call("POST", `${v}/Report/ExportReport`, {
      reportID: "mrr-by-client",
      dateFrom: "2025-05",
      dateTo: "2025-06",
      format: "csv",
    });
    expect(parseCsv(csv.text).map((row) => row[0])).toEqual(["Client code", "C004", "C003"]);

    // Inactive: the list is kept, every figure is as before.
    const off = await save({
      ...list,
      exclusionHeaderID: list.exclusionHeaderID,
      active: false,
      clientCodes: ["C001", "C002"],
    });
    expect(off.status).toBe(200);
    expect(await figures()).toEqual(all);
    const on = await save({
      exclusionHeaderID: list.exclusionHeaderID,
      name: "Internal clients",
      clientCodes: ["C001", "C002"],
    });
    expect(on.json.active).toBe(true);
    expectWithout(await figures(), [acme, globex]);

    const deleted = await org.call(
      "DELETE",
      `${v}/Exclusion/DeleteExclusion?exclusionID=${list.exclusionHeaderID}`,
    );
    expect(deleted.status).toBe(200);
    expect(await figures()).toEqual(all);
    expect(
      (await org.call("GET", `${v}/Exclusion/GetExclusionByID?exclusionID=${list.exclusionHeaderID}`)).status,
    ).toBe(404);
  });

  it("an item on a list takes its revenue out of MRR in both months", async () => {
    const seats = (await org.call("GET", `${v}/VarianceOverview/OverviewKpi?${months}&stockItem=SEAT`)).json;
    const list = (await save({ name: "No seats", itemCodes: ["SEAT"] })).json;
    expect(list.items).toEqual([
      { code: "SEAT", name: "Seats", stockType: "Subscription", stockItemID: expect.stringMatching(/^\d+$/) },
    ]);
    const kpi = (await org.call("GET", `${v}/VarianceOverview/OverviewKpi?${months}`)).json;
    expect(kpi.mrrCents).toBe(all.kpi.mrrCents - seats.mrrCents);
    expect(kpi.mrrFromCents).toBe(all.kpi.mrrFromCents - seats.mrrFromCents);
    const detail = (
      await org.call("GET", `${v}/Sku/SkuDetail?${months}&stockItemID=${list.items[0].stockItemID}`)
    ).json;
    expect([detail.mrrCents, detail.clients]).toEqual([0, 0]);
    await org.call("DELETE", `${v}/Exclusion/DeleteExclusion?exclusionID=${list.exclusionHeaderID}`);
    expect((await org.call("GET", `${v}/VarianceOverview/OverviewKpi?${months}`)).json).toEqual(all.kpi);
  });

  it("lists two active lists' clients together, and a client on both counts once", async () => {
    const a = (await save({ name: "List A", clientCodes: ["C001"] })).json;
    const b = (await save({ name: "List B", clientCodes: ["C001", "C002"] })).json;
    expectWithout(await figures(), [acme, globex]);
    const summaries = (await org.call("GET", `${v}/Exclusion/GetExclusionList`)).json;
    expect(
      summaries.map((s: { name: string; clientCount: number; itemCount: number; active: boolean }) => [
        s.name,
        s.clientCount,
        s.itemCount,
        s.active,
      ]),
    ).toEqual([
      ["List A", 1, 0, true],
      ["List B", 2, 0, true],
    ]);
    // The pickers say which lists hold a client already.
    const picked = (
      await org.call("POST", `${v}/Exclusion/GetClientList`, { search: "c00", startRow: 1, rowLimit: 10 })
    ).json;
    expect(
      Object.fromEntries(
        picked.rows.map((r: { code: string; exclusionHeaderIDs: string[] }) => [
          r.code,
          r.exclusionHeaderIDs.sort(),
        ]),
      ),
    ).toEqual({
      C001: [a.exclusionHeaderID, b.exclusionHeaderID].sort(),
      C002: [b.exclusionHeaderID],
      C003: [],
      C004: [],
    });
    expect(picked.rowCount).toBe(4);
    const items = (await org.call("POST", `${v}/Exclusion/GetSkuList`, { search: "sea" })).json;
    expect(items).toEqual({
      rows: [
        {
          stockItemID: expect.stringMatching(/^\d+$/),
          code: "SEAT",
          name: "Seats",
          stockType: "Subscription",
          exclusionHeaderIDs: [],
        },
      ],
      rowCount: 1,
    });
    for (const list of [a, b])
      await org.call("DELETE", `${v}/Exclusion/DeleteExclusion?exclusionID=${list.exclusionHeaderID}`);
    expect(await figures()).toEqual(all);
  });

  it("leaves no money in any analytics call when every client is on an active list", async () => {
    /** The money (`...Cents`) and client counts of an answer, wherever they are in it. */
    const counted = (value: unknown, key = ""): number[] => {
      if (typeof value === "number")
        return /Cents$|^clients|^acquired$|^lost$|^lostClients$|^clientCount$|^rowCount$/.test(key)
          ? [value]
          : [];
      if (Array.isArray(value)) return value.flatMap((v) => counted(v, key));
      if (value && typeof value === "object") return Object.entries(value).flatMap(([k, v]) => counted(v, k));
      return [];
    };
    const answers = async () => {
      const out: Record<string, number[]> = {};
      for (const [name, contract] of Object.entries(analyticsContracts) as [string, Contract][]) {
        const input = analyticsMatrix[name as keyof typeof analyticsMatrix]!.input as {
          query?: Record<string, string>;
          body?: unknown;
        };
        const query = input.query ? `?${new URLSearchParams(input.query)}` : "";
        const answer = await org.call(contract.method, contractPath(contract) + query, input.body);
        expect(answer.status, `${name}: ${answer.text}`).toBe(200);
        out[name] = counted(answer.json);
      }
      return out;
    };
    const before = await answers();
    // Every call shows some money or some clients before (else this test would prove nothing).
    for (const [name, values] of Object.entries(before))
      expect(
        values.some((x) => x !== 0),
        name,
      ).toBe(true);
    const list = (await save({ name: "Everyone", clientCodes: ["C001", "C002", "C003", "C004"] })).json;
    for (const [name, values] of Object.entries(await answers()))
      expect(
        values.every((x) => x === 0),
        `${name}: ${values}`,
      ).toBe(true);
    await org.call("DELETE", `${v}/Exclusion/DeleteExclusion?exclusionID=${list.exclusionHeaderID}`);
    expect(await answers()).toEqual(before);
  });

  describe("bad input changes nothing", () => {
    it("names every unknown code, refuses a code twice, an empty or taken name", async () => {
      const unknown = await save({
        name: "Bad",
        clientCodes: ["C001", "NOPE"],
        itemCodes: ["PRO", "GONE", "C001"],
      });
      expect(unknown.status).toBe(400);
      expect(unknown.json.errors).toEqual([
        { field: "clientCodes.1", message: "no client 'NOPE'" },
        { field: "itemCodes.1", message: "no item 'GONE'" },
        { field: "itemCodes.2", message: "no item 'C001'" },
      ]);
      expect((await org.call("GET", `${v}/Exclusion/GetExclusionList`)).json).toEqual([]);

      const twice = await save({ name: "Twice", clientCodes: ["C001", "C001"] });
      expect(twice.status).toBe(400);
      expect(twice.json.errors.map((e: { field: string }) => e.field)).toEqual(["clientCodes"]);
      const empty = await save({ name: "  ", clientCodes: [] });
      expect(empty.status).toBe(400);
      expect(empty.json.errors.map((e: { field: string }) => e.field)).toEqual(["name"]);

      const first = (await save({ name: "Taken", clientCodes: ["C003"] })).json;
      const clash = await save({ name: "TAKEN", clientCodes: ["C001"] });
      expect(clash.status).toBe(409);
      expect(clash.json.errors).toEqual([
        { field: "name", message: "An exclusion list with this name exists" },
      ]);
      // A failed replacement leaves the list as it was.
      const bad = await save({
        exclusionHeaderID: first.exclusionHeaderID,
        name: "Renamed",
        clientCodes: ["NOPE"],
      });
      expect(bad.status).toBe(400);
      const kept = await org.call(
        "GET",
        `${v}/Exclusion/GetExclusionByID?exclusionID=${first.exclusionHeaderID}`,
      );
      expect([kept.json.name, kept.json.clients.map((c: { code: string }) => c.code)]).toEqual([
        "Taken",
        ["C003"],
      ]);
      const missing = await save({ exclusionHeaderID: randomUUID(), name: "Nobody's" });
      expect(missing.status).toBe(404);
      await org.call("DELETE", `${v}/Exclusion/DeleteExclusion?exclusionID=${first.exclusionHeaderID}`);
    });

    it("keeps a code the list holds after its client is gone (a restore), shown without an id", async () => {
      const list = (await save({ name: "Keeps codes", clientCodes: ["C003"] })).json;
      // As if a restore had brought back data without this client: the entry's code names none now.
      await ctx()
        .database.db.updateTable("exclusion_list_clients")
        .set({ client_code: "C-RESTORED-AWAY" })
        .where("list_id", "=", list.exclusionHeaderID)
        .execute();
      const renamed = await save({
        exclusionHeaderID: list.exclusionHeaderID,
        name: "Kept codes",
        clientCodes: ["C-RESTORED-AWAY", "C004"],
      });
      expect(renamed.status).toBe(200);
      expect(renamed.json.clients).toEqual([
        { code: "C-RESTORED-AWAY", clientID: null, name: "" },
        { code: "C004", clientID: expect.stringMatching(/^\d+$/), name: "=cmd" },
      ]);
      await org.call("DELETE", `${v}/Exclusion/DeleteExclusion?exclusionID=${list.exclusionHeaderID}`);
    });
  });

  it("keeps each organisation's lists to itself", async () => {
    const list = (await save({ name: "Private", clientCodes: ["C001"] })).json;
    const theirs = (k: string) => other.call("GET", `${v}/${k}`);
    expect((await theirs("Exclusion/GetExclusionList")).json).toEqual([]);
    expect((await theirs(`Exclusion/GetExclusionByID?exclusionID=${list.exclusionHeaderID}`)).status).toBe(
      404,
    );
    expect(
      (await other.call("DELETE", `${v}/Exclusion/DeleteExclusion?exclusionID=${list.exclusionHeaderID}`))
        .status,
    ).toBe(404);
    const overwrite = await other.call("POST", `${v}/Exclusion/UpsertExclusion`, {
      exclusionHeaderID: list.exclusionHeaderID,
      name: "Mine now",
    });
    expect(overwrite.status).toBe(404);
    // Another organisation's client codes are unknown here.
    const foreign = await other.call("POST", `${v}/Exclusion/UpsertExclusion`, {
      name: "X",
      clientCodes: ["C001"],
    });
    expect(foreign.json.errors).toEqual([{ field: "clientCodes.0", message: "no client 'C001'" }]);
    // Their numbers are their own: C900 is untouched by this organisation's list.
    const kpi = (await other.call("GET", `${v}/VarianceOverview/OverviewKpi?${months}`)).json;
    expect(kpi.mrrCents).toBe(99_900);
    await org.call("DELETE", `${v}/Exclusion/DeleteExclusion?exclusionID=${list.exclusionHeaderID}`);
  });

  it("a list saved by another server process counts here once the cache checks its version again", async () => {
    const db = ctx().database.db;
    const listId = randomUUID();
    // What another process's UpsertExclusion commits; this process is not told.
    await db.transaction().execute(async (tx) => {
      await tx
        .insertInto("exclusion_lists")
        .values({
          organisation_id: org.organisationId,
          id: listId,
          name: "Elsewhere",
          created_at: new Date(),
          updated_at: new Date(),
        })
        .execute();
      await tx
        .insertInto("exclusion_list_clients")
        .values({ organisation_id: org.organisationId, list_id: listId, client_code: "C001" })
        .execute();
      await sql`insert into organisation_settings (organisation_id, exclusions_version) values (${org.organisationId}, 1)
        on conflict (organisation_id) do update set exclusions_version = organisation_settings.exclusions_version + 1`.execute(
        tx,
      );
    });
    await vi.waitFor(
      async () => {
        const kpi = (await org.call("GET", `${v}/VarianceOverview/OverviewKpi?${months}`)).json;
        expect(kpi.mrrCents).toBe(all.kpi.mrrCents - acme.kpi.mrrCents);
      },
      { timeout: 5000, interval: 100 },
    );
    await org.call("DELETE", `${v}/Exclusion/DeleteExclusion?exclusionID=${listId}`);
    expect((await org.call("GET", `${v}/VarianceOverview/OverviewKpi?${months}`)).json).toEqual(all.kpi);
  });
});
