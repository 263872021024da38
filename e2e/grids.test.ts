import { readFileSync } from "node:fs";
import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { comparedMonths } from "./level-1-checks";
import { card, cardsDrawn, openDemoLevel1, uncut } from "./workspace";

/*
 * The grids as an analyst reads them, on the demo data: level 4's totals under the lines, a name
 * cut off that names itself when pointed at, the widest tables (Price changes, a price step's
 * contributors) without scrolling sideways on a laptop's screen, a pager that fits a phone, and the
 * months of the cards of changes month by month kept in the address.
 */
/** What the page's check of a cut-off cell reads (the e2e project has no DOM types). */
interface Sized {
  scrollWidth: number;
  clientWidth: number;
  querySelectorAll(selector: string): ArrayLike<Sized>;
}

describe("the grids of the dashboards and reports, on the demo data", () => {
  let browser: Browser;
  let page: Page;
  let env: Awaited<ReturnType<typeof openDemoLevel1>>["env"];
  let origin: string;
  const level1 = "/variance/dashboard/stockTypeOverview";

  beforeAll(async () => {
    ({ env, origin, browser, page } = await openDemoLevel1());
  }, 240_000);
  afterAll(async () => {
    await browser?.close();
    await env?.stop();
  });

  /** Money as a cell writes it ('$1,234.56', '-$5.00') in cents. */
  const cents = (text: string) => Math.round(Number(text.replace(/[^0-9.-]/g, "")) * 100);

  /** Level 4 of the first acquired client, through its detail's Invoice Data. */
  async function openLevel4() {
    await page.goto(`${origin}${level1}`);
    await cardsDrawn(page);
    await card(page, "acquiredClients").getByRole("link").first().click();
    await page.waitForURL(/thirdClientID=\d+/);
    await page.getByRole("link", { name: "Invoice Data" }).click();
    await page.waitForURL(/\/invoice\?/);
    const lines = card(page, "invoiceLines");
    await lines.locator(".ag-row:not(.ag-row-pinned)").first().waitFor();
    return lines;
  }

  it("totals level 4's lines in a row pinned under them: the amount, cost and margin of every line", async () => {
    const lines = await openLevel4();
    const count = Number((await lines.locator(".activity__summary strong").innerText()).replace(/\D/g, ""));
    const rows = lines.locator(".ag-row:not(.ag-row-pinned)");
    expect(await rows.count()).toBe(count);
    const total = lines.locator(".ag-row-pinned");
    await total.waitFor();
    const cell = (row: Locator, column: string) => row.locator(`[col-id="${column}"]`);
    expect(await cell(total, "invoiceDate").innerText()).toBe("Total");
    for (const column of ["amountCents", "costCents", "marginCents"]) {
      const values = await rows.locator(`[col-id="${column}"]`).allInnerTexts();
      const sum = values.reduce((all, v) => all + cents(v), 0);
      expect(cents(await cell(total, column).innerText()), column).toBe(sum);
    }
    // Sorted otherwise, the totals stay under the rows, the same.
    const amount = await cell(total, "amountCents").innerText();
    const header = lines.getByRole("columnheader", { name: "Amount" });
    await header.click();
    await expect.poll(() => header.getAttribute("aria-sort")).toBe("descending");
    await rows.first().waitFor();
    expect(await cell(total, "amountCents").innerText()).toBe(amount);
    // The last line is in sight above the totals, not under them: the lines need no scrolling.
    const vertical = lines.locator(".ag-body-vertical-scroll-viewport");
    expect(
      await vertical.evaluate(
        (e: { scrollHeight: number; clientHeight: number }) => e.scrollHeight <= e.clientHeight,
      ),
    ).toBe(true);
    const box = (await rows.last().boundingBox())!;
    const totalBox = (await total.boundingBox())!;
    expect(box.y + box.height).toBeLessThanOrEqual(totalBox.y + 1);
  }, 90_000);

  it("sorts level 4's lines by client and by service name on the server, as the API orders them", async () => {
    await page.goto(`${origin}/variance/dashboard/invoice`);
    const lines = card(page, "invoiceLines");
    const rows = lines.locator(".ag-row:not(.ag-row-pinned)");
    await rows.first().waitFor();
    for (const [header, sortBy, column] of [
      ["Client", "clientName", "clientName"],
      ["Service", "itemName", "itemName"],
    ] as const) {
      const sorted = page.waitForResponse((r) => r.url().includes(`sortBy=${sortBy}`) && r.ok());
      const heading = lines.getByRole("columnheader", { name: header, exact: true });
      await heading.click();
      // A name column sorts A to Z first.
      await expect.poll(() => heading.getAttribute("aria-sort")).toBe("ascending");
      const answer = (await (await sorted).json()) as { rows: Record<string, string>[] };
      expect(new URL((await sorted).url()).searchParams.get("sortDir")).toBe("asc");
      const names = answer.rows.slice(0, 10).map((r) => r[column]);
      // The server's order (apps/server/test/analytics.test.ts checks it), as the grid shows it.
      await expect
        .poll(async () => (await rows.locator(`[col-id="${column}"]`).allInnerTexts()).slice(0, 10))
        .toEqual(names);
    }
  }, 90_000);

  it("heads Revenue by segment 'Margin by segment' in a Margin view: the card, its help and the report", async () => {
    const heading = card(page, "revenueBySegment").getByRole("heading", { level: 2 });
    await page.goto(`${origin}${level1}?dataType=Margin`);
    await cardsDrawn(page);
    expect(await heading.innerText()).toBe("Margin by segment");
    // Its help text is headed as the card is.
    // A pointer that moves onto the button, as a person's does (React Aria's hover needs the move).
    await page.mouse.move(700, 500);
    await page.mouse.move(710, 510);
    await card(page, "revenueBySegment").getByRole("button", { name: "About Margin by segment" }).hover();
    const tooltip = page.getByRole("tooltip");
    await expect.poll(() => tooltip.locator(".help-text__title").innerText()).toBe("Margin by segment");
    await page.mouse.move(5, 5);
    await tooltip.waitFor({ state: "detached" });
    await page.goto(`${origin}${level1}`);
    await cardsDrawn(page);
    expect(await heading.innerText()).toBe("Revenue by segment");
    // The report: its page's heading and its results' follow the view run.
    const report = `${origin}/variance/reports/types/revenue-by-segment`;
    const title = page.getByRole("heading", { level: 1 });
    await page.goto(`${report}?dataType=Margin&run=1`);
    await page.getByRole("heading", { name: /rows?$/ }).waitFor();
    expect(await title.innerText()).toBe("Margin by segment");
    expect(await page.getByRole("group", { name: "Margin by segment rows" }).count()).toBe(1);
    await page.goto(`${report}?run=1`);
    await page.getByRole("heading", { name: /rows?$/ }).waitFor();
    expect(await title.innerText()).toBe("Revenue by segment");
    // Ad-hoc revenue is Ad-hoc margin there, and says what it lists in the same words.
    await page.goto(`${origin}/variance/reports/types/adhoc-revenue?dataType=Margin&run=1`);
    await page.getByRole("heading", { name: /rows?$/ }).waitFor();
    expect(await title.innerText()).toBe("Ad-hoc margin");
    expect(await page.locator(".page__subtitle").first().innerText()).toMatch(/^Margin of Adhoc items/);
  }, 60_000);

  it("names a grid's CSV for what it measures: margin in a Margin view, as a report's export is", async () => {
    const name = async (cardId: string) => {
      const download = page.waitForEvent("download");
      await card(page, cardId).getByRole("button", { name: "Download CSV" }).click();
      return (await download).suggestedFilename();
    };
    await page.goto(`${origin}${level1}?dataType=Margin`);
    await cardsDrawn(page);
    const { from, to } = await comparedMonths(page);
    const months = `${from} to ${to}`;
    expect(await name("activity")).toBe(`Activity (margin) ${months}.csv`);
    await page.goto(
      `${origin}/variance/dashboard/positiveOrNegative?dataType=Margin&varType=Client&sign=Positive`,
    );
    await page.locator('.card-grid[data-all-drawn="true"]').waitFor();
    expect(await name("stepClients")).toBe(`New clients (margin) ${months}.csv`);
    await page.goto(`${origin}${level1}`);
    await cardsDrawn(page);
    expect(await name("activity")).toBe(`Activity ${months}.csv`);
  }, 60_000);

  /** Runs the Price changes report at the window's size. */
  async function runPriceChanges() {
    await page.goto(`${origin}/variance/reports/types/price-changes`);
    await page.getByRole("button", { name: "Run" }).click();
    const grid = page.getByRole("group", { name: "Price changes rows" });
    await grid.locator(".ag-row:not(.ag-row-pinned)").first().waitFor();
    return grid;
  }

  it("shows every column of Price changes and of a price step's contributors at 1440 px without scrolling sideways", async () => {
    const report = await runPriceChanges();
    const viewport = report.locator(".ag-body-horizontal-scroll-viewport");
    const fits = (element: { scrollWidth: number; clientWidth: number }) =>
      element.scrollWidth <= element.clientWidth;
    expect(await viewport.evaluate(fits)).toBe(true);
    for (const header of await report.getByRole("columnheader").all())
      expect(await header.evaluate(uncut), await header.innerText()).toBe(true);

    await page.goto(`${origin}/variance/dashboard/positiveOrNegative?varType=Price&sign=Positive`);
    await page.locator('.card-grid[data-all-drawn="true"]').waitFor();
    const contributors = card(page, "stepLines");
    await contributors.locator(".ag-row:not(.ag-row-pinned)").first().waitFor();
    expect(await contributors.locator(".ag-body-horizontal-scroll-viewport").evaluate(fits)).toBe(true);
    for (const header of await contributors.getByRole("columnheader").all())
      expect(await header.evaluate(uncut), await header.innerText()).toBe(true);
  }, 90_000);

  it("shows every column of level 1's activity table at 1440 px without scrolling sideways, the CSV a column per type", async () => {
    await page.goto(`${origin}${level1}`);
    await cardsDrawn(page);
    const activity = card(page, "activity");
    // AG Grid's own table, not the first page drawn before it.
    await activity.hover();
    await activity.locator(".ag-row").first().waitFor();
    const fits = (element: { scrollWidth: number; clientWidth: number }) =>
      element.scrollWidth <= element.clientWidth;
    expect(await activity.locator(".ag-body-horizontal-scroll-viewport").evaluate(fits)).toBe(true);
    const headers = await activity.getByRole("columnheader").all();
    expect(headers.length).toBeGreaterThanOrEqual(8);
    for (const header of headers) expect(await header.evaluate(uncut), await header.innerText()).toBe(true);
    // A line's change named by type, as the CSV's columns per type hold it.
    const byType = await activity.locator(".ag-row [col-id='parts']").allInnerTexts();
    expect(byType.some((t) => /^(Client|Service|Price|Volume|Usage) [+-]\$[\d,]+\.\d\d/.test(t))).toBe(true);
    const download = page.waitForEvent("download");
    await activity.getByRole("button", { name: "Download CSV" }).click();
    const header = readFileSync((await (await download).path())!, "utf8").split(/\r\n/)[0]!;
    expect(header).toMatch(/,Change,Client,Service,Price,Volume,Usage$/);
  }, 90_000);

  it("names a value cut off in a cell when it is pointed at, and leaves a whole one without a title", async () => {
    const report = await runPriceChanges();
    const cells = report.locator(".ag-row:not(.ag-row-pinned) .ag-cell");
    // Whether a cell or a part of it holds more than it shows (run in the page).
    const states = await cells.evaluateAll((all: Sized[]) =>
      all.map((cell) =>
        [cell, ...Array.from(cell.querySelectorAll("*"))].some(
          (part) => part.clientWidth > 0 && part.scrollWidth > part.clientWidth + 1,
        ),
      ),
    );
    const cutIndex = states.indexOf(true);
    const wholeIndex = states.indexOf(false);
    expect(cutIndex).toBeGreaterThanOrEqual(0);
    const cutCell = cells.nth(cutIndex);
    await cutCell.hover();
    const full = (await cutCell.textContent())!.trim();
    await expect.poll(() => cutCell.getAttribute("title")).toBe(full);
    const wholeCell = cells.nth(wholeIndex);
    await wholeCell.hover();
    expect(await wholeCell.getAttribute("title")).toBeNull();
  }, 90_000);

  it("fits a grid's pager into a phone's screen, with three Tab stops", async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    try {
      // Level 1's activity grid (level 4's lines are blocks on a phone).
      await page.goto(`${origin}${level1}`);
      await cardsDrawn(page);
      const activity = card(page, "activity");
      await activity.hover();
      const pager = activity.locator(".ag-paging-panel");
      await pager.waitFor();
      const stops = pager.locator('[tabindex="0"]:not(.ag-tab-guard)');
      const visible: Locator[] = [];
      for (const stop of await stops.all()) if (await stop.isVisible()) visible.push(stop);
      expect(visible.length).toBe(3);
      for (const stop of visible) expect(await stop.evaluate(uncut)).toBe(true);
      expect(await activity.locator(".ag-paging-description").evaluate(uncut)).toBe(true);
    } finally {
      await page.setViewportSize({ width: 1440, height: 900 });
    }
  }, 90_000);

  it("lists level 4's lines as blocks on a phone, the money in sight, ordered with Sort by on the server and paged", async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    try {
      await page.goto(`${origin}/variance/dashboard/invoice`);
      const lines = card(page, "invoiceLines");
      const blocks = lines.locator(".stacked-rows__row:not(.stacked-rows__row--total)");
      await blocks.first().waitFor();
      expect(await page.evaluate("document.documentElement.scrollWidth")).toBe(390);
      const value = (block: Locator, term: string) =>
        block.locator(`.stacked-rows__field:has(> dt:text-is("${term}")) dd`);
      for (const term of ["Amount", "Cost", "Margin"])
        expect(await value(blocks.first(), term).evaluate(uncut), term).toBe(true);
      const total = lines.locator(".stacked-rows__row--total");
      expect(await total.locator(".stacked-rows__title").innerText()).toBe("Total");
      expect(await value(total, "Amount").evaluate(uncut)).toBe(true);

      // Sort by: the server's order, largest amount first.
      const amounts = async () => (await value(blocks, "Amount").allInnerTexts()).map(cents);
      const descending = (values: number[]) => values.every((v, i) => i === 0 || values[i - 1]! >= v);
      expect(descending(await amounts())).toBe(false);
      const sortBy = lines.getByRole("combobox", { name: "Sort by" });
      expect(await sortBy.evaluate(uncut)).toBe(true);
      const asked = page.waitForRequest(
        (r) =>
          r.url().includes("TableInvoiceData") &&
          new URL(r.url()).searchParams.get("sortBy") === "amountCents" &&
          new URL(r.url()).searchParams.get("sortDir") === "desc",
      );
      await sortBy.selectOption({ label: "Amount, largest first" });
      await asked;
      await expect.poll(async () => descending(await amounts())).toBe(true);
      const firstPage = await amounts();
      expect(firstPage.length).toBe(100);

      // The next page goes on in the same order.
      const pages = lines.getByRole("navigation", { name: "Pages" });
      expect(await pages.getByText(/^Page 1 of \d+$/).evaluate(uncut)).toBe(true);
      await pages.getByRole("button", { name: "Next" }).click();
      await pages.getByText(/^Page 2 of \d+$/).waitFor();
      await expect.poll(async () => (await amounts())[0]! <= firstPage.at(-1)!).toBe(true);
      expect(descending(await amounts())).toBe(true);
      for (const button of await pages.getByRole("button").all())
        expect(await button.evaluate(uncut)).toBe(true);
    } finally {
      await page.setViewportSize({ width: 1440, height: 900 });
    }
  }, 90_000);

  it("lists a step's contributors on level 2 as blocks on a phone, their money in sight, with Sort by", async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    try {
      for (const step of ["varType=Price&sign=Positive", "varType=Client&sign=Positive"]) {
        await page.goto(`${origin}/variance/dashboard/positiveOrNegative?${step}`);
        await page.locator('.card-grid[data-all-drawn="true"]').waitFor();
        const blocks = page.locator("section[data-card] .stacked-rows__row");
        await blocks.first().waitFor();
        expect(await page.locator("section[data-card] .ag-root").count(), step).toBe(0);
        const money = blocks.first().locator(".stacked-rows__field dd");
        expect(await money.count()).toBeGreaterThan(1);
        for (const value of await money.all()) expect(await value.evaluate(uncut), step).toBe(true);
        const sortBy = page.locator("section[data-card]").getByRole("combobox", { name: "Sort by" }).first();
        expect(await sortBy.evaluate(uncut), step).toBe(true);
        expect(await page.evaluate("document.documentElement.scrollWidth")).toBe(390);
      }
    } finally {
      await page.setViewportSize({ width: 1440, height: 900 });
    }
  }, 90_000);

  it("shows a client's History on a phone as a block a month, its change and MRR after in sight", async () => {
    await page.goto(`${origin}${level1}`);
    await cardsDrawn(page);
    const client = await card(page, "acquiredClients").getByRole("link").first().getAttribute("href");
    await page.setViewportSize({ width: 390, height: 844 });
    try {
      await page.goto(`${origin}${client}`);
      await page.locator('.card-grid[data-all-drawn="true"]').waitFor();
      const history = card(page, "subjectHistory").locator(".history");
      const cells = history.locator("tbody td");
      expect(await cells.count()).toBeGreaterThanOrEqual(3);
      for (const cell of await cells.all())
        expect(await cell.evaluate(uncut), await cell.innerText()).toBe(true);
      // Each value named by its column.
      expect(await cells.nth(2).getAttribute("data-label")).toMatch(/^MRR after$/);
      expect(await page.evaluate("document.documentElement.scrollWidth")).toBe(390);
    } finally {
      await page.setViewportSize({ width: 1440, height: 900 });
    }
  }, 90_000);

  it("keeps the months of the cards of changes month by month in the address, and links from cards carry them", async () => {
    await page.goto(`${origin}${level1}`);
    await cardsDrawn(page);
    const periods = card(page, "christmas").getByRole("combobox", { name: "Periods" });
    expect(await periods.inputValue()).toBe("12");
    await periods.selectOption({ label: "2 Years" });
    await page.waitForURL(/historyPeriodCount=24/);
    await page.reload();
    await cardsDrawn(page);
    expect(await periods.inputValue()).toBe("24");

    // A client of a card opens its detail with the same months for its history.
    await card(page, "acquiredClients").getByRole("link").first().click();
    await page.waitForURL(/thirdClientID=\d+/);
    expect(new URL(page.url()).searchParams.get("historyPeriodCount")).toBe("24");
    await page.locator('.card-grid[data-all-drawn="true"]').waitFor();
    const history = card(page, "subjectHistory").getByRole("combobox", { name: "Periods" });
    expect(await history.inputValue()).toBe("24");
    await history.selectOption({ label: "3 Years" });
    await page.waitForURL(/historyPeriodCount=36/);

    // Level 2's step month by month reads the same parameter, and keeps its own choice.
    await page.goto(
      `${origin}/variance/dashboard/positiveOrNegative?varType=Price&sign=Positive&historyPeriodCount=36`,
    );
    await page.locator('.card-grid[data-all-drawn="true"]').waitFor();
    const step = card(page, "stepHistory").getByRole("combobox", { name: "Periods" });
    expect(await step.inputValue()).toBe("36");
    await step.selectOption({ label: "2 Years" });
    await page.waitForURL(/historyPeriodCount=24/);
    await page.reload();
    await page.locator('.card-grid[data-all-drawn="true"]').waitFor();
    expect(await step.inputValue()).toBe("24");
  }, 120_000);
});
