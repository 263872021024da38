import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium } from "./browser";
import {
  accessibilityViolations,
  cardsDrawn,
  centsOf,
  downloadBytes,
  downloadText,
  keepScreenshot,
  openPage,
  parseCsv,
  signIn,
  startDemoWorkspace,
} from "./drill-workspace";

type Workspace = Awaited<ReturnType<typeof startDemoWorkspace>>;
type Step = { label: string; kind: string; type?: string; sign?: string; valueCents: number };

const level1 = "/variance/dashboard/stockTypeOverview";
const level2 = "/variance/dashboard/positiveOrNegative";
const level3 = "/variance/dashboard/specific";
const level4 = "/variance/dashboard/invoice";

/** A path and query as the page shows it. */
const here = (page: Page) => {
  const url = new URL(page.url());
  return `${url.pathname}${url.search}`;
};
const params = (page: Page) => new URL(page.url()).searchParams;

/** A month's key ('2026-10') as the pages write it ('Oct 2026'). */
const monthName = (key: string) =>
  new Date(`${key}-01T00:00:00Z`).toLocaleString("en-US", {
    month: "short",
    year: "numeric",
    timeZone: "UTC",
  });

describe("the drill-down from level 1 to the invoice lines and back, on the demo data", () => {
  let browser: Browser;
  let workspace: Workspace;
  let page: Page;
  let months: { dateFrom: string; dateTo: string };

  beforeAll(async () => {
    workspace = await startDemoWorkspace();
    browser = await launchChromium();
    page = await signIn(browser, workspace.origin, workspace.account);
    page.setDefaultTimeout(15_000);
    const periods = (await (
      await page.request.get(`${workspace.origin}/api/variance/VarianceOverview/ActualPeriods`)
    ).json()) as { yearNo: number; monthNo: number }[];
    const key = (p: { yearNo: number; monthNo: number }) =>
      `${p.yearNo}-${String(p.monthNo).padStart(2, "0")}`;
    months = { dateFrom: key(periods[1]!), dateTo: key(periods[0]!) };
  });
  afterAll(async () => {
    await browser?.close();
    await workspace?.env.stop();
  });

  it("clicks the largest positive Price step, lists its contributors, opens one, downloads its lines, and goes back up", async () => {
    // Level 1, as a bookmarked address names it.
    const start = `${level1}?dateFrom=${months.dateFrom}&dateTo=${months.dateTo}`;
    const waterfallAnswer = page.waitForResponse((r) => r.url().includes("/VarianceOverview/WaterfallChart"));
    await openPage(page, `${workspace.origin}${start}`);
    const steps = ((await (await waterfallAnswer).json()) as { steps: Step[] }).steps;
    await page.locator('[data-card="waterfall"][data-drawn="true"]').waitFor();
    const priceSteps = steps
      .map((s, i) => ({ ...s, index: i }))
      .filter((s) => s.type === "Price" && s.sign === "Positive" && s.valueCents > 0);
    expect(priceSteps.length).toBeGreaterThan(0);
    const step = priceSteps.reduce((a, b) => (b.valueCents > a.valueCents ? b : a));

    // The step's bar of the Plotly waterfall, clicked where it is drawn (once Plotly has taken the
    // place of the chart's first drawing).
    await page.locator('[data-card="waterfall"] [data-chart-sketch]').waitFor({ state: "detached" });
    const bar = await page.locator('[data-card="waterfall"] .point').nth(step.index).boundingBox();
    await page.mouse.move(bar!.x + bar!.width / 2, bar!.y + bar!.height / 2);
    // Plotly has taken the pointer over the step when it shows the step's hover label.
    await page.locator('[data-card="waterfall"] .hoverlayer .hovertext').waitFor();
    await page.mouse.down();
    await page.mouse.up();
    await page.waitForURL(`**${level2}?**`);
    const level2Address = here(page);
    // A deeper level comes in from below (its route's position).
    await page.locator('.page-transition[data-transition="up"]').waitFor();
    expect(params(page).get("varType")).toBe("Price");
    expect(params(page).get("sign")).toBe("Positive");
    await page.getByRole("heading", { name: "Price increases", level: 1 }).waitFor();
    await cardsDrawn(page);
    // The page's total is the step.
    expect(centsOf(await page.locator('[data-card="stepTotal"] [data-kpi-value]').innerText())).toBe(
      Math.round(step.valueCents / 100) * 100,
    );
    // Every contributor, downloaded: they add up to the step, to the cent.
    const contributors = parseCsv(
      (
        await downloadText(page, () =>
          page.locator('[data-card="stepLines"]').getByRole("button", { name: "Download CSV" }).click(),
        )
      ).text,
    );
    expect(contributors.length).toBeGreaterThan(0);
    const sum = contributors.reduce((s, r) => s + Math.round(Number(r["Price increases"]) * 100), 0);
    expect(sum).toBe(step.valueCents);
    // The list says the step in all, as the server sums it: level 1's step, to the cent.
    const inAll = page.locator('[data-card="stepLines"] [data-step-total]');
    expect(Number(await inAll.getAttribute("data-cents"))).toBe(step.valueCents);
    expect(centsOf(await inAll.innerText())).toBe(Math.round(step.valueCents / 100) * 100);

    // Open the largest: its service of that client (level 3).
    const first = contributors[0]!;
    await page.locator('[data-card="stepLines"]').getByRole("link", { name: first.Service }).first().click();
    await page.waitForURL(`**${level3}?**`);
    const clientID = params(page).get("thirdClientID")!;
    const stockItemID = params(page).get("thirdStockItemID")!;
    expect(clientID).toMatch(/^\d+$/);
    expect(stockItemID).toMatch(/^\d+$/);
    const level3Address = here(page);
    await cardsDrawn(page);
    // Its MRR in both months, as the API has it.
    const mrr = (await (
      await page.request.get(
        `${workspace.origin}/api/variance/VarianceOverview/SpecificMRRKpi?dateFrom=${months.dateFrom}&dateTo=${months.dateTo}&clientID=${clientID}&stockItemID=${stockItemID}`,
      )
    ).json()) as { mrrCents: number; mrrFromCents: number };
    const shown = page.locator('[data-card="subjectMrr"]');
    expect(Number(await shown.locator('[data-month="from"]').getAttribute("data-cents"))).toBe(
      mrr.mrrFromCents,
    );
    expect(Number(await shown.locator('[data-month="to"]').getAttribute("data-cents"))).toBe(mrr.mrrCents);
    // The card names the two months it compares, as the other cards of the level do.
    expect(await shown.locator(".card__subtitle").innerText()).toBe(
      `${monthName(months.dateFrom)} → ${monthName(months.dateTo)}`,
    );
    expect(centsOf(await shown.locator('[data-month="to"]').innerText())).toBe(
      Math.round(mrr.mrrCents / 100) * 100,
    );

    // Invoice Data: level 4, and its download.
    await page.getByRole("link", { name: "Invoice Data" }).click();
    await page.waitForURL(`**${level4}?**`);
    await cardsDrawn(page);
    const lines = parseCsv(
      (await downloadText(page, () => page.getByRole("button", { name: "Download", exact: true }).click()))
        .text,
    );
    expect(lines.length).toBeGreaterThan(0);
    // The raw export of that client and service, every date: level 4 has exactly its lines placed in
    // the two months (dated there, or with a service period reaching into them), with the same amounts.
    const raw = parseCsv(
      await (
        await page.request.get(
          `${workspace.origin}/api/variance/Data/ExportRawData?clientID=${clientID}&stockItemID=${stockItemID}`,
        )
      ).text(),
    );
    const monthIndex = (key: string) => Number(key.slice(0, 4)) * 12 + Number(key.slice(5, 7)) - 1;
    const afterLast = monthIndex(months.dateTo) + 1;
    const firstDay = `${months.dateFrom}-01`;
    const afterLastDay = `${Math.floor(afterLast / 12)}-${String((afterLast % 12) + 1).padStart(2, "0")}-01`;
    const placed = raw.filter((r) => {
      const from = r.ServiceFrom || r.InvoiceDate!;
      const to = r.ServiceTo || r.InvoiceDate!;
      return from < afterLastDay && to >= firstDay;
    });
    expect(placed.length).toBeGreaterThan(0);
    const key = (invoice: string | undefined, line: string | undefined) => `${invoice}/${line}`;
    expect(lines.map((l) => key(l["Invoice number"], l.Line)).sort()).toEqual(
      placed.map((r) => key(r.InvoiceNumber, r.LineNumber)).sort(),
    );
    const rawAmounts = new Map(placed.map((r) => [key(r.InvoiceNumber, r.LineNumber), r.Amount]));
    for (const line of lines) {
      expect(line.Amount).toBe(rawAmounts.get(key(line["Invoice number"], line.Line)));
      expect(line["Client code"]).toBe(placed[0]!.ClientCode);
      expect(line["Service code"]).toBe(placed[0]!.ItemCode);
    }
    const level4Address = here(page);

    // The crumbs name the path; Back walks it up, Forward down again.
    const crumbs = page.getByRole("navigation", { name: "Breadcrumbs" }).getByRole("link");
    expect(await crumbs.allInnerTexts()).toEqual([
      "Level 1",
      "Price increases",
      `${first.Client} · ${first.Service}`,
      "Invoice lines",
    ]);
    // The crumb of the page shown leads to the same location: nothing happens, no history entry.
    const entries = await page.evaluate("history.length");
    await crumbs.last().click();
    expect(here(page)).toBe(level4Address);
    expect(await page.evaluate("history.length")).toBe(entries);
    await page.goBack();
    expect(here(page)).toBe(level3Address);
    await page.locator('.page-transition[data-transition="down"]').waitFor();
    await page.goBack();
    expect(here(page)).toBe(level2Address);
    await page.goBack();
    expect(here(page)).toBe(start);
    await page.getByRole("heading", { name: "Stock Type Overview" }).waitFor();
    for (const address of [level2Address, level3Address, level4Address]) {
      await page.goForward();
      expect(here(page)).toBe(address);
    }

    // Up-navigation by the crumbs: level 3 keeps the subject; level 2 removes thirdClientID and
    // thirdStockItemID; level 1 also varType and sign. Each is the address the drill went through.
    await crumbs.nth(2).click();
    await page.waitForURL(`**${level3}?**`);
    expect(here(page)).toBe(level3Address);
    await page
      .getByRole("navigation", { name: "Breadcrumbs" })
      .getByRole("link", { name: "Price increases" })
      .click();
    await page.waitForURL(`**${level2}?**`);
    expect(here(page)).toBe(level2Address);
    expect(params(page).has("thirdClientID")).toBe(false);
    expect(params(page).has("thirdStockItemID")).toBe(false);
    expect(params(page).get("varType")).toBe("Price");
    await page
      .getByRole("navigation", { name: "Breadcrumbs" })
      .getByRole("link", { name: "Level 1" })
      .click();
    await page.waitForURL(`**${level1}?**`);
    expect(here(page)).toBe(start);
    expect(params(page).has("varType")).toBe(false);
    expect(params(page).has("sign")).toBe(false);
    await page.getByRole("heading", { name: "Stock Type Overview" }).waitFor();
  }, 120_000);

  it("renders every route of the variance, forecast and reports sections for real, accessible at 1440 and 390 px, in revenue and margin", async () => {
    const dates = `dateFrom=${months.dateFrom}&dateTo=${months.dateTo}`;
    // A client of the demo data with its largest service, for the detail pages.
    const top = (await (
      await page.request.get(
        `${workspace.origin}/api/variance/VarianceOverview/ActivityTable?${dates}&sortBy=valueCents&sortDir=desc&rowLimit=1`,
      )
    ).json()) as { rows: { clientID: number; stockItemID: number; clientName: string; itemName: string }[] };
    const { clientID, stockItemID, clientName, itemName } = top.rows[0]!;
    const screens: { name: string; path: string; heading: string; cards: boolean }[] = [
      { name: "level-1", path: `${level1}?${dates}`, heading: "Stock Type Overview", cards: true },
      {
        name: "level-2",
        path: `${level2}?${dates}&stockType=All&varType=Price&sign=Positive`,
        heading: "Price increases",
        cards: true,
      },
      { name: "level-2-default", path: `${level2}?${dates}`, heading: "New clients", cards: true },
      {
        name: "level-2-services-removed",
        path: `${level2}?${dates}&stockType=All&varType=Service&sign=Negative`,
        heading: "Services removed",
        cards: true,
      },
      {
        name: "level-3-client",
        path: `${level3}?${dates}&thirdClientID=${clientID}`,
        heading: clientName,
        cards: true,
      },
      {
        name: "level-3-service",
        path: `${level3}?${dates}&thirdStockItemID=${stockItemID}`,
        heading: itemName,
        cards: true,
      },
      {
        name: "level-3-client-service",
        path: `${level3}?${dates}&thirdClientID=${clientID}&thirdStockItemID=${stockItemID}`,
        heading: `${clientName} · ${itemName}`,
        cards: true,
      },
      { name: "level-3-choose", path: `${level3}?${dates}`, heading: "Specific", cards: false },
      {
        name: "level-4",
        path: `${level4}?${dates}&thirdClientID=${clientID}`,
        heading: `Invoice lines of ${clientName}`,
        cards: true,
      },
      { name: "forecast", path: `/variance/forecast?${dates}`, heading: "Forecast", cards: true },
      { name: "reports", path: "/variance/reports/types", heading: "Reports", cards: false },
      {
        name: "report",
        path: "/variance/reports/types/price-changes",
        heading: "Price changes",
        cards: false,
      },
      { name: "data-export", path: "/variance/settings/export", heading: "Data Export", cards: false },
    ];
    const failures: string[] = [];
    for (const screen of screens) {
      for (const dataType of screen.cards ? ["Revenue", "Margin"] : ["Revenue"]) {
        const margin = dataType === "Margin";
        const path = margin
          ? `${screen.path}${screen.path.includes("?") ? "&" : "?"}dataType=Margin`
          : screen.path;
        await openPage(page, `${workspace.origin}${path}`);
        await page.getByRole("heading", { name: screen.heading, level: 1, exact: true }).waitFor();
        if (screen.cards) {
          await cardsDrawn(page);
          // Every card shows its content: none failed, none is empty on the demo data.
          expect(
            await page.locator('[data-card-state="error"]').count(),
            `${screen.name}: cards in error`,
          ).toBe(0);
        }
        expect(
          await page.getByText("This screen is not built yet").count(),
          `${screen.name}: a placeholder`,
        ).toBe(0);
        if (!margin) {
          failures.push(...(await accessibilityViolations(page)).map((v) => `${screen.name}: ${v}`));
          // And on a phone, where the menu, the filter and the cards are laid out otherwise.
          await page.setViewportSize({ width: 390, height: 844 });
          failures.push(
            ...(await accessibilityViolations(page)).map((v) => `${screen.name} at 390 px: ${v}`),
          );
          await page.setViewportSize({ width: 1440, height: 900 });
        }
        await keepScreenshot(page, `${screen.name}${margin ? "-margin" : ""}`);
      }
    }
    expect(failures).toEqual([]);
  }, 360_000);

  it("shows the navigation map beside the page, on its own, with the level shown marked", async () => {
    await openPage(
      page,
      `${workspace.origin}${level2}?dateFrom=${months.dateFrom}&dateTo=${months.dateTo}&stockType=All&varType=Price&sign=Positive`,
    );
    const map = page.getByRole("complementary", { name: "Navigation map" });
    expect(await map.count()).toBe(0);
    await page.getByRole("button", { name: "Navigation map" }).click();
    await map.waitFor();
    expect(await map.locator('[aria-current="page"]').innerText()).toContain("Price increases");
    // The page narrows beside it: its charts are drawn again at their cards' new width.
    const chartsFit = () =>
      page.evaluate(`[...document.querySelectorAll("section[data-card] .js-plotly-plot .main-svg")].every(
        (plot) => plot.getBoundingClientRect().right <= plot.closest("section[data-card]").getBoundingClientRect().right + 1)`);
    await expect.poll(chartsFit).toBe(true);
    // The side menu toggles on its own: the map stays.
    await page.getByRole("button", { name: "Collapse the menu" }).click();
    await map.waitFor();
    await page.getByRole("button", { name: "Expand the menu" }).click();
    expect(await accessibilityViolations(page)).toEqual([]);
    await keepScreenshot(page, "navigation-map");
    await map.getByRole("link", { name: "Level 1" }).first().click();
    await page.waitForURL(`**${level1}?**`);
    // Beside the page, the map stays open on the page its link led to (over it, on a phone, it closes).
    await page.locator('main [data-card="waterfall"]').waitFor();
    expect(await map.count()).toBe(1);
    await page.keyboard.press("Escape");
    await map.waitFor({ state: "detached" });
  }, 60_000);

  it("runs a report in the browser with the rows of `varia report run --json`, and its XLSX opens with the same numbers", async () => {
    await openPage(page, `${workspace.origin}/variance/reports/types`);
    await page.getByRole("link", { name: /MRR by client/ }).click();
    await page.getByRole("heading", { name: "MRR by client", level: 1 }).waitFor();
    const ran = page.waitForResponse(
      (r) => r.url().endsWith("/Report/Run") && r.request().method() === "POST",
    );
    await page.getByRole("button", { name: "Run" }).click();
    const browserRun = (await (await ran).json()) as {
      rows: Record<string, unknown>[];
      rowCount: number;
      dateFrom: string;
      dateTo: string;
      columns: { field: string; kind: string }[];
      totals: Record<string, unknown>;
    };
    await page
      .getByRole("heading", { name: `${browserRun.rowCount.toLocaleString("en-US")} rows` })
      .waitFor();
    const cli = JSON.parse(
      await workspace.varia([
        "report",
        "run",
        "mrr-by-client",
        "--from",
        browserRun.dateFrom,
        "--to",
        browserRun.dateTo,
        "--json",
      ]),
    ) as { rows: Record<string, unknown>[]; rowCount: number };
    expect(cli.rowCount).toBe(browserRun.rowCount);
    expect(browserRun.rows).toEqual(cli.rows.slice(0, browserRun.rows.length));
    // The grid shows them: the first row's client in its first row.
    const firstName = String(cli.rows[0]!.clientName);
    await keepScreenshot(page, "report-run");
    await page.locator('.ag-row[row-index="0"]').getByText(firstName, { exact: true }).waitFor();

    const bytes = await downloadBytes(page, () =>
      page.getByRole("button", { name: "Download XLSX" }).click(),
    );
    const ExcelJS = (await import("exceljs")).default;
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0]!;
    const header = (sheet.getRow(1).values as unknown[]).slice(1).map(String);
    const money = browserRun.columns.filter((c) => c.kind === "money").map((c) => c.field);
    // The header, every row, and the totals in bold as the screen shows them.
    expect(sheet.rowCount - 2).toBe(cli.rowCount);
    const totalRow = sheet.getRow(cli.rowCount + 2);
    expect(totalRow.getCell(1).value).toBe("Total");
    expect(totalRow.getCell(1).font?.bold).toBe(true);
    for (const [index, column] of browserRun.columns.entries())
      if (column.kind === "money" && typeof browserRun.totals[column.field] === "number")
        expect(totalRow.getCell(index + 1).value, `the total of ${column.field}`).toBe(
          browserRun.totals[column.field],
        );
    const headers = Object.fromEntries(browserRun.columns.map((c, i) => [c.field, header[i]]));
    for (let i = 0; i < cli.rows.length; i++) {
      const cells = (sheet.getRow(i + 2).values as unknown[]).slice(1);
      for (const [index, column] of browserRun.columns.entries()) {
        const expected = cli.rows[i]![column.field];
        if (money.includes(column.field))
          expect(cells[index], `${headers[column.field]} of row ${i + 1}`).toBe(expected);
      }
    }
    expect(await accessibilityViolations(page)).toEqual([]);
    await keepScreenshot(page, "report-run");
  }, 120_000);
  it("tints the cohort report's months by the share kept, with every number still written, and no accessibility violation", async () => {
    await openPage(page, `${workspace.origin}/variance/reports/types`);
    await page.getByRole("link", { name: /Cohort retention/ }).click();
    await page.getByRole("heading", { name: "Cohort retention", level: 1 }).waitFor();
    const ran = page.waitForResponse(
      (r) => r.url().endsWith("/Report/Run") && r.request().method() === "POST",
    );
    await page.getByRole("button", { name: "Run" }).click();
    const run = (await (await ran).json()) as { rows: Record<string, number | string | null>[] };
    const first = run.rows[0]!;
    expect(typeof first.month1).toBe("number");
    const cell = page.locator('.ag-row[row-index="0"] [col-id="month1"] .retention');
    await cell.waitFor();
    // The cohort's month is written as the app writes months ('Nov 2025'); the CSV keeps '2025-11'.
    const [year, month] = String(first.cohort).split("-").map(Number);
    const written = new Date(Date.UTC(year!, month! - 1)).toLocaleString("en-US", {
      month: "short",
      year: "numeric",
      timeZone: "UTC",
    });
    expect(await page.locator('.ag-row[row-index="0"] [col-id="cohort"]').textContent()).toBe(written);
    const share = first.month1 as number;
    const band = share >= 1 ? "full" : share >= 0.9 ? "most" : share >= 0.75 ? "part" : "low";
    expect(await cell.getAttribute("class")).toBe(`retention retention--${band}`);
    expect(await cell.textContent()).toBe(`${(share * 100).toFixed(2)}%`);
    // The latest cohort has no month after its first: no tint, no number.
    const last = run.rows.length - 1;
    expect(run.rows[last]!.month1).toBeNull();
    expect(await page.locator(`.ag-row[row-index="${last}"] [col-id="month1"] .retention`).count()).toBe(0);
    expect(await accessibilityViolations(page)).toEqual([]);
    await keepScreenshot(page, "report-cohorts");

    // Followed by clients instead of MRR: the months are shares of the cohort's clients.
    await page.getByLabel("Retention of").click();
    await page.getByRole("option", { name: "Clients" }).click();
    const byClients = page.waitForResponse(
      (r) => r.url().endsWith("/Report/Run") && r.request().method() === "POST",
    );
    await page.getByRole("button", { name: "Run" }).click();
    const counted = (await (await byClients).json()) as { rows: Record<string, number | string | null>[] };
    expect(new URL(page.url()).searchParams.get("retention")).toBe("clients");
    await page.getByText("how many of its clients are active then, as a share of its clients").waitFor();
    const kept = counted.rows[0]!.month1 as number;
    expect(kept).toBeLessThanOrEqual(1);
    await page
      .locator('.ag-row[row-index="0"] [col-id="month1"] .retention')
      .getByText(`${(kept * 100).toFixed(2)}%`, { exact: true })
      .waitFor();
  }, 120_000);
  it("shows a report's totals in a row under their columns, every column in view at 1440 px, and says so when no row matches", async () => {
    const ran = page.waitForResponse(
      (r) => r.url().endsWith("/Report/Run") && r.request().method() === "POST",
    );
    await openPage(page, `${workspace.origin}/variance/reports/types/mrr-by-client?run=1`);
    const run = (await (await ran).json()) as {
      rowCount: number;
      dateFrom: string;
      dateTo: string;
      totals: Record<string, number | null>;
    };
    const totalRow = page.locator(`.ag-row-pinned[row-index="b-0"]`);
    await totalRow.waitFor();
    // What the rows are, beside their count, whatever the form above says until it is run again.
    expect(await page.locator(".report-results__ran").textContent()).toBe(
      `Revenue, ${monthName(run.dateFrom)} to ${monthName(run.dateTo)}`,
    );
    expect(await totalRow.locator('[col-id="clientCode"]').textContent()).toBe("Total");
    for (const field of ["mrrFrom", "mrrTo", "change"]) {
      const cell = totalRow.locator(`[col-id="${field}"]`);
      // The server's total to the cent, under its own column's header.
      expect(centsOf((await cell.textContent()) ?? ""), field).toBe(Math.round(run.totals[field]! * 100));
      const header = page.locator(`.ag-header-cell[col-id="${field}"]`);
      const [under, over] = [await cell.boundingBox(), await header.boundingBox()];
      expect(Math.round(under!.x), field).toBe(Math.round(over!.x));
    }
    expect(await totalRow.locator('[col-id="changePercent"]').textContent()).toBe(
      `${((run.totals.changePercent ?? 0) * 100).toFixed(2)}%`,
    );
    // The last column, Change %, in view beside the others: no sideways scrolling at 1440 px.
    const body = await page.locator(".report-results .ag-root").boundingBox();
    const last = await page.locator('.ag-header-cell[col-id="changePercent"]').boundingBox();
    expect(last!.x + last!.width).toBeLessThanOrEqual(body!.x + body!.width + 1);
    // Sorted by another column, the totals stay: they are the run's, not the page's.
    const sorted = page.waitForResponse((r) => r.url().endsWith("/Report/Run"));
    await page.locator('.ag-header-cell[col-id="clientName"]').click();
    await sorted;
    expect(centsOf((await totalRow.locator('[col-id="mrrTo"]').textContent()) ?? "")).toBe(
      Math.round(run.totals.mrrTo! * 100),
    );
    await keepScreenshot(page, "report-totals");

    // The quick ratio is written with two decimals in every month and the total (1.60, not 1.6).
    const movements = page.waitForResponse(
      (r) => r.url().endsWith("/Report/Run") && r.request().method() === "POST",
    );
    await openPage(page, `${workspace.origin}/variance/reports/types/mrr-movements?run=1`);
    const ratios = (await (await movements).json()) as {
      rows: { quickRatio: number | null }[];
      totals: { quickRatio: number | null };
    };
    await page.locator(`.ag-row-pinned[row-index="b-0"]`).waitFor();
    await page
      .locator(".report-results .ag-body-horizontal-scroll-viewport")
      .evaluate((e) => e.scrollTo({ left: e.scrollWidth }));
    const written = (value: number | null) => (value === null ? "" : value.toFixed(2));
    await page.locator('.ag-row[row-index="0"] [col-id="quickRatio"]').waitFor();
    for (const [index, row] of ratios.rows.entries())
      expect(await page.locator(`.ag-row[row-index="${index}"] [col-id="quickRatio"]`).textContent()).toBe(
        written(row.quickRatio),
      );
    expect(await page.locator(`.ag-row-pinned[row-index="b-0"] [col-id="quickRatio"]`).textContent()).toBe(
      written(ratios.totals.quickRatio),
    );

    // A month against itself acquires no client: the report says that nothing matches.
    await openPage(
      page,
      `${workspace.origin}/variance/reports/types/acquired-clients?dateFrom=${months.dateTo}&dateTo=${months.dateTo}&run=1`,
    );
    await page.getByRole("heading", { name: "0 rows" }).waitFor();
    await page
      .getByRole("status")
      .getByText("No rows match these months and filters: change them and run the report again.")
      .waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
  }, 120_000);
  it("lists a client's months of change on level 3 as `varia report run mrr-movements` has them, and a month opens that month", async () => {
    // The client with the largest MRR in the latest month, by its code, as a user types it.
    const clients = JSON.parse(
      await workspace.varia(["report", "run", "mrr-by-client", "--to", months.dateTo, "--json"]),
    ) as { rows: { clientCode: string; clientName: string }[] };
    const client = clients.rows[0]!;
    const movements = JSON.parse(
      await workspace.varia([
        "report",
        "run",
        "mrr-movements",
        "--to",
        months.dateTo,
        "--client",
        client.clientCode,
        "--json",
      ]),
    ) as { rows: { month: string; newMrr: number; churnedMrr: number; netChange: number; endMrr: number }[] };
    const changed = movements.rows.filter((r) => r.netChange !== 0);
    expect(changed.length).toBeGreaterThan(0);

    // Level 3's chooser, as a user picks a client by typing its code.
    await openPage(page, `${workspace.origin}${level3}?dateFrom=${months.dateFrom}&dateTo=${months.dateTo}`);
    const picker = page.getByRole("combobox", { name: "Client" });
    await picker.fill(client.clientCode);
    await page.getByRole("option", { name: client.clientName }).first().click();
    await page.waitForURL((url) => url.searchParams.has("thirdClientID"));
    const clientID = params(page).get("thirdClientID");
    await cardsDrawn(page);
    const history = page.locator('section[data-card="subjectHistory"]');
    await history.getByRole("button", { name: "Expand" }).click();
    const dialog = page.getByRole("dialog");
    const rows = dialog.getByRole("table").locator("tbody tr");
    await rows.first().waitFor();
    const shown = await rows.evaluateAll((trs) =>
      trs.map((tr) =>
        [...tr.querySelectorAll("th, td")].map((cell) =>
          (cell as unknown as { innerText: string }).innerText.trim(),
        ),
      ),
    );
    // Newest first, one row for each month the report has a net change in, with the same change
    // and MRR after, to the cent.
    const written = (key: string) =>
      new Date(`${key}-01T00:00:00Z`).toLocaleString("en-US", {
        month: "short",
        year: "numeric",
        timeZone: "UTC",
      });
    expect(shown.map((cells) => cells[0])).toEqual(changed.map((r) => written(r.month)).reverse());
    for (const [index, report] of [...changed].reverse().entries()) {
      const [, what, change, after] = shown[index]!;
      expect(centsOf(change!), `the change of ${report.month}`).toBe(Math.round(report.netChange * 100));
      expect(centsOf(after!), `the MRR after ${report.month}`).toBe(Math.round(report.endMrr * 100));
      if (report.newMrr !== 0) expect(what).toContain("New client");
      if (report.churnedMrr !== 0) expect(what).toContain("Lost client");
    }
    expect(await accessibilityViolations(page)).toEqual([]);
    await keepScreenshot(page, "level-3-history");

    // The oldest month listed opens level 3 for that month against the one before.
    const oldest = [...changed][0]!;
    await dialog
      .getByRole("link", { name: `${written(oldest.month)}: compare with the month before` })
      .click();
    await dialog.waitFor({ state: "detached" });
    await page.waitForURL((url) => url.searchParams.get("dateTo") === oldest.month);
    const [year, month] = oldest.month.split("-").map(Number);
    const before = new Date(Date.UTC(year!, month! - 2, 1)).toISOString().slice(0, 7);
    expect(params(page).get("dateFrom")).toBe(before);
    expect(params(page).get("thirdClientID")).toBe(clientID);
    await cardsDrawn(page);
    const mrr = page.locator('section[data-card="subjectMrr"]');
    await mrr.locator(".two-months__label", { hasText: written(oldest.month) }).waitFor();
  }, 120_000);
});
