import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cliBin, type RunningServer, serverBin, startServer, tenantFetch, tenantUrl } from "./running-server";

/**
 * Issue 4's cross-check: on the demo data and on the QuickBooks sample, the same numbers, to the
 * cent, come from the dashboards' calls (WaterfallChart, OverviewKpi, ActivityTable), the reports
 * (MRR by client, acquired and lost clients), the raw export (month totals recomputed here from the
 * exported lines by docs/methodology.md#spreading, independently of the engine) and `varia variance --json`.
 */
describe("the same numbers everywhere (docs/methodology.md#the-same-numbers-everywhere)", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "varia-cross-check-"));
  const work = mkdtempSync(join(tmpdir(), "varia-cross-check-files-"));
  const serverEnv = { ...process.env, VARIA_DATA_DIR: dataDir, LOG_LEVEL: "silent", DATABASE_URL: "" };
  let server: RunningServer;
  const tokens: Record<string, string> = {};

  const admin = (args: string[]) => {
    const result = spawnSync(process.execPath, [serverBin, ...args], { env: serverEnv, encoding: "utf8" });
    expect(result.status, result.stderr).toBe(0);
    return result.stdout;
  };
  const tokenFor = (tenant: string, email: string) =>
    /varia_\S+/.exec(
      admin(["token", "create", "--tenant", tenant, "--email", email, "--name", "cross-check"]),
    )![0];
  const varia = (tenant: string, args: string[]) => {
    const result = spawnSync(process.execPath, [cliBin, ...args], {
      env: {
        ...process.env,
        VARIA_CONFIG_DIR: work,
        VARIA_PROFILE: "",
        VARIA_HOST: tenantUrl(server, tenant),
        VARIA_TOKEN: tokens[tenant]!,
      },
      encoding: "utf8",
      timeout: 120_000,
    });
    expect(result.status, result.stderr).toBe(0);
    return result.stdout;
  };
  const call = async (tenant: string, method: string, path: string, body?: unknown) => {
    // Each token on its own tenant's host, as the server asks of API tokens.
    const response = await tenantFetch(`${tenantUrl(server, tenant)}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${tokens[tenant]}`,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    expect(response.status, `${path}: ${text}`).toBe(200);
    return text;
  };
  const json = async (tenant: string, method: string, path: string, body?: unknown) =>
    // biome-ignore lint/suspicious/noExplicitAny: answers are checked field by field below
    JSON.parse(await call(tenant, method, path, body)) as any;

  beforeAll(async () => {
    server = await startServer(serverEnv);
    tokens.demo = tokenFor("demo", "admin@demo.example.com");
    // The demo data loads as an import job on first start: wait until its months are there.
    for (let attempt = 0; ; attempt++) {
      const periods = await json("demo", "GET", "/api/variance/VarianceOverview/ActualPeriods");
      if (periods.length >= 24) break;
      if (attempt > 600) throw new Error("the demo data did not load");
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    admin([
      "org",
      "create",
      "--tenant",
      "qb",
      "--name",
      "QuickBooks sample",
      "--admin-email",
      "a@qb.example.com",
    ]);
    tokens.qb = tokenFor("qb", "a@qb.example.com");
    const csv = join(work, "quickbooks.csv");
    admin([
      "quickbooks-convert",
      "--dir",
      join(import.meta.dirname, "..", "..", "server", "test", "fixtures", "quickbooks-sample"),
      "-o",
      csv,
    ]);
    const uploaded = JSON.parse(
      varia("qb", ["import", "upload", csv, "--wait", "--poll-interval", "0.2", "--json"]),
    );
    expect(uploaded.status).toBe("Completed");
  }, 240_000);

  afterAll(() => {
    server?.child.kill();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(work, { recursive: true, force: true });
  });

  /**
   * Month totals of Recurring Actual lines (revenue and cost), spread as docs/methodology.md#spreading says.
   */
  function monthTotalsFromExport(csv: string) {
    const [header, ...lines] = csv.trimEnd().split("\n");
    const columns = header!.split(",");
    const at = (name: string) => columns.indexOf(name);
    const totals = new Map<string, { revenue: number; cost: number }>();
    for (const line of lines) {
      // The exported test data has no quoted commas in the columns read here.
      const cells = parseCsvLine(line);
      if (cells[at("Category")] !== "Recurring" || cells[at("RecordType")] !== "Actual") continue;
      const amount = Math.round(Number(cells[at("Amount")]) * 100);
      const cost = Math.round(Number(cells[at("Cost")] || "0") * 100);
      const from = cells[at("ServiceFrom")] || cells[at("InvoiceDate")]!;
      const to = cells[at("ServiceTo")] || cells[at("InvoiceDate")]!;
      const first = Number(from.slice(0, 4)) * 12 + Number(from.slice(5, 7)) - 1;
      const n = Number(to.slice(0, 4)) * 12 + Number(to.slice(5, 7)) - 1 - first + 1;
      const share = (value: number, k: number) => {
        const q = Math.trunc(value / n);
        const r = value - q * n;
        return q + (k < Math.abs(r) ? Math.sign(value) : 0);
      };
      for (let k = 0; k < n; k++) {
        const m = first + k;
        const key = `${Math.floor(m / 12)}-${String((m % 12) + 1).padStart(2, "0")}`;
        const entry = totals.get(key) ?? { revenue: 0, cost: 0 };
        entry.revenue += share(amount, k);
        entry.cost += share(cost, k);
        totals.set(key, entry);
      }
    }
    return totals;
  }

  const cases = [
    ["demo", "2026-05", "2026-06"],
    ["demo", "2025-12", "2026-01"],
    ["demo", "2024-06", "2025-06"],
    ["qb", "2025-03", "2025-04"],
    ["qb", "2025-06", "2025-12"],
  ] as const;

  for (const [tenant, from, to] of cases) {
    for (const dataType of ["Revenue", "Margin"] as const) {
      it(`${tenant} ${from} -> ${to}, ${dataType}`, async () => {
        const cents = (major: number) => Math.round(major * 100);
        const cli = JSON.parse(
          varia(tenant, ["variance", "--from", from, "--to", to, "--data-type", dataType, "--json"]),
        );
        const totalFrom = cents(cli.totalFrom);
        const totalTo = cents(cli.totalTo);
        // The engine's own sum rule holds in what the CLI printed.
        const byTypeSum = Object.values(
          cli.byType as Record<string, { positive: number; negative: number }>,
        ).reduce((s, t) => s + cents(t.positive) + cents(t.negative), 0);
        expect(byTypeSum).toBe(totalTo - totalFrom);

        // The raw export, spread by month here.
        const months = monthTotalsFromExport(await call(tenant, "GET", "/api/variance/Data/ExportRawData"));
        const measure = (m: string) => {
          const t = months.get(m) ?? { revenue: 0, cost: 0 };
          return dataType === "Revenue" ? t.revenue : t.revenue - t.cost;
        };
        expect([measure(from), measure(to)]).toEqual([totalFrom, totalTo]);

        // The dashboards.
        const chart = `DataType=${dataType}&DateFrom=${from}&DateTo=${to}&RecordTypeFrom=Actual&RecordTypeTo=Actual&StockType=&PeriodFrom=${from}&PeriodTo=${to}&RecordType=Actual`;
        const waterfall = await json(tenant, "GET", `/api/variance/VarianceOverview/WaterfallChart?${chart}`);
        const steps = waterfall.steps as { kind: string; type?: string; sign?: string; valueCents: number }[];
        expect(steps[0]!.valueCents).toBe(totalFrom);
        expect(steps.at(-1)!.valueCents).toBe(totalTo);
        for (const step of steps.filter((s) => s.kind === "step")) {
          const side = step.sign === "Positive" ? "positive" : "negative";
          expect(step.valueCents, `${step.type} ${step.sign}`).toBe(cents(cli.byType[step.type!][side]));
        }
        const months2 = `dataType=${dataType}&dateFrom=${from}&dateTo=${to}`;
        const overview = await json(tenant, "GET", `/api/variance/VarianceOverview/OverviewKpi?${months2}`);
        expect([overview.mrrFromCents, overview.mrrCents]).toEqual([totalFrom, totalTo]);
        expect([overview.newMrrCents, overview.churnedMrrCents]).toEqual([
          cents(cli.byType.Client.positive),
          cents(cli.byType.Client.negative),
        ]);
        const activity = await json(
          tenant,
          "GET",
          `/api/variance/VarianceOverview/ActivityTable?${months2}&startRow=0&rowLimit=5`,
        );
        expect([activity.totals.valueFromCents, activity.totals.valueCents]).toEqual([totalFrom, totalTo]);

        // The reports (money in major units).
        const report = (reportID: string) =>
          json(tenant, "POST", "/api/variance/Report/Run", {
            reportID,
            dataType,
            dateFrom: from,
            dateTo: to,
            rowLimit: 10_000,
          });
        const byClient = await report("mrr-by-client");
        const sum = (rows: Record<string, number>[], field: string) =>
          rows.reduce((s, r) => s + cents(r[field] ?? 0), 0);
        const moneyFields = (byClient.columns as { field: string; kind: string }[])
          .filter((c) => c.kind === "money")
          .map((c) => c.field);
        expect([sum(byClient.rows, moneyFields[0]!), sum(byClient.rows, moneyFields[1]!)]).toEqual([
          totalFrom,
          totalTo,
        ]);
        for (const [reportID, list] of [
          ["acquired-clients", cli.acquiredClients],
          ["lost-clients", cli.lostClients],
        ] as const) {
          const rows = (await report(reportID)).rows as Record<string, string | number>[];
          const money = (r: Record<string, string | number>) =>
            cents(Object.values(r).find((v) => typeof v === "number") as number);
          expect(rows.map((r) => [r.clientCode, money(r)]).sort()).toEqual(
            (list as { clientCode: string; value: number }[])
              .map((c) => [c.clientCode, cents(c.value)])
              .sort(),
          );
        }
      });
    }
  }

  it("varia report list, run and export agree", () => {
    const list = JSON.parse(varia("demo", ["report", "list", "--json"])) as { reportID: string }[];
    expect(list.map((r) => r.reportID)).toContain("salesperson-performance");
    const run = JSON.parse(
      varia("demo", ["report", "run", "lost-clients", "--from", "2026-05", "--to", "2026-06", "--json"]),
    );
    const file = join(work, "lost.csv");
    varia("demo", ["report", "export", "lost-clients", "--from", "2026-05", "--to", "2026-06", "-o", file]);
    const csvLines = readFileSync(file, "utf8").trimEnd().split("\n");
    expect(csvLines).toHaveLength(run.rows.length + 1);
    const table = varia("demo", ["report", "run", "lost-clients", "--from", "2026-05", "--to", "2026-06"]);
    expect(table).toContain("Lost clients");
    // A file named *.xlsx is a workbook (a zip) unless --format says otherwise.
    const workbook = join(work, "lost.xlsx");
    varia("demo", [
      "report",
      "export",
      "lost-clients",
      "--from",
      "2026-05",
      "--to",
      "2026-06",
      "-o",
      workbook,
    ]);
    expect(readFileSync(workbook).subarray(0, 2).toString("latin1")).toBe("PK");
  });

  it("varia variance prints a readable table, and refuses bad input naming it", () => {
    const json = JSON.parse(varia("demo", ["variance", "--from", "2026-05", "--to", "2026-06", "--json"]));
    const table = varia("demo", ["variance", "--from", "2026-05", "--to", "2026-06"]);
    // Money in the organisation's currency, to the cent.
    const currency = JSON.parse(varia("demo", ["whoami", "--json"])).organisation.currency as string;
    const money = (v: number) =>
      new Intl.NumberFormat("en-US", {
        style: "currency",
        currency,
        currencyDisplay: "narrowSymbol",
        minimumFractionDigits: 2,
      })
        .format(v)
        .replace(/[$.]/g, "\\$&");
    expect(table).toMatch(new RegExp(`^Revenue 2026-05\\s+${money(json.totalFrom)}$`, "m"));
    expect(table).toMatch(new RegExp(`^Revenue 2026-06\\s+${money(json.totalTo)}$`, "m"));
    expect(table).toContain(`Acquired clients (${json.acquiredClients.length})`);
    const run = (args: string[]) =>
      spawnSync(process.execPath, [cliBin, ...args], {
        env: {
          ...process.env,
          VARIA_CONFIG_DIR: work,
          VARIA_PROFILE: "",
          VARIA_HOST: tenantUrl(server, "demo"),
          VARIA_TOKEN: tokens.demo!,
        },
        encoding: "utf8",
      });
    const badMonth = run(["variance", "--from", "May", "--to", "2026-06"]);
    expect(badMonth.status).not.toBe(0);
    expect(badMonth.stderr).toContain("option '--from <month>' argument 'May' is invalid");
    const unknown = run(["variance", "--from", "2026-05", "--to", "2026-06", "--client", "NO-SUCH"]);
    expect(unknown.status).not.toBe(0);
    expect(unknown.stderr).toContain("client");
  });
});

/** One CSV line into cells (quotes and doubled quotes). */
function parseCsvLine(line: string): string[] {
  const cells: string[] = [];
  let cell = "";
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (quoted) {
      if (ch === '"' && line[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ",") {
      cells.push(cell);
      cell = "";
    } else cell += ch;
  }
  cells.push(cell);
  return cells;
}
