import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium } from "./browser";
import {
  cardsDrawn,
  centsOf,
  downloadText,
  openPage,
  parseCsv,
  signIn,
  startDemoWorkspace,
} from "./workspace";

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

    // The step's bar of the Plotly waterfall, clicked where it is drawn.
    const bar = await page.locator('[data-card="waterfall"] .point').nth(step.index).boundingBox();
    await page.mouse.move(bar!.x + bar!.width / 2, bar!.y + bar!.height / 2);
    // Plotly has taken the pointer over the step when it shows the step's hover label.
    await page.locator('[data-card="waterfall"] .hoverlayer .hovertext').waitFor();
    await page.mouse.down();
    await page.mouse.up();
    await page.waitForURL(`**${level2}?**`);
    const level2Address = here(page);
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
    await page.goBack();
    expect(here(page)).toBe(level3Address);
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
});
