import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { card, cardsDrawn, drawnCount, openDemoLevel1, testOutput } from "./workspace";

/*
 * What an analyst chose on a screen, as the screen says it and as the address keeps it: the choices
 * whose value is "everything" ('All stock types', 'Any stock type') named in their fields, and a
 * card's own choice (Revenue by segment's segment, a detail's dimension, the trend's period, level
 * 1's tabs) kept by a reload and by the browser's Back, without the other cards loading again. And level 4's lines with what they are
 * worth in sight on a laptop's screen.
 */
describe("an analyst's view of the dashboards, on the demo data", () => {
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

  it("names 'All stock types' in the filter panel when no stock type is chosen, and after choosing it again", async () => {
    const open = async () => {
      await page
        .locator(".page__actions")
        .getByRole("button", { name: /^Filter/ })
        .click();
      return page.getByRole("dialog", { name: "Filter" });
    };
    let panel = await open();
    const stockType = panel.getByRole("button", { name: /Stock type/ });
    expect(await stockType.innerText()).toContain("All stock types");
    await stockType.click();
    await page.getByRole("listbox").getByRole("option", { name: "Hourly" }).click();
    expect(await stockType.innerText()).toContain("Hourly");
    await stockType.click();
    await page.getByRole("listbox").getByRole("option", { name: "All stock types" }).click();
    expect(await stockType.innerText()).toContain("All stock types");
    await page.screenshot({ path: join(testOutput, "filter-panel-all-stock-types.png") });
    await page.keyboard.press("Escape");
    await panel.waitFor({ state: "detached" });

    // A view of one stock type, then every stock type again through the panel.
    let drawn = await drawnCount(page);
    await page.goto(`${origin}${level1}?stockType=Hourly`);
    await cardsDrawn(page);
    panel = await open();
    expect(await stockType.innerText()).toContain("Hourly");
    await stockType.click();
    await page.getByRole("listbox").getByRole("option", { name: "All stock types" }).click();
    drawn = await drawnCount(page);
    await panel.getByRole("button", { name: "Apply" }).click();
    await page.waitForURL((url) => !url.search.includes("stockType"));
    await cardsDrawn(page, drawn);
  }, 90_000);

  it("names 'Any stock type' and 'Any salesperson' in a report's filters and runs the report of every one", async () => {
    await page.goto(`${origin}/variance/reports/types/salesperson-performance`);
    await page.getByRole("heading", { name: "Salesperson performance", level: 1 }).waitFor();
    const stockType = page.getByRole("button", { name: /Stock type/ });
    const salesperson = page.getByRole("button", { name: /Salesperson/ });
    await stockType.waitFor();
    expect(await stockType.innerText()).toContain("Any stock type");
    expect(await salesperson.innerText()).toContain("Any salesperson");
    await stockType.click();
    await page.getByRole("listbox").getByRole("option", { name: "Subscription" }).click();
    expect(await stockType.innerText()).toContain("Subscription");
    await stockType.click();
    await page.getByRole("listbox").getByRole("option", { name: "Any stock type" }).click();
    expect(await stockType.innerText()).toContain("Any stock type");
    await page.getByRole("button", { name: "Run" }).click();
    await page.waitForURL(/run=1/);
    expect(new URL(page.url()).searchParams.get("stockType")).toBeNull();
  }, 60_000);

  it("keeps Revenue by segment's choice in the address: through a reload and Back from a segment, without the other cards loading again", async () => {
    await page.goto(`${origin}${level1}`);
    await cardsDrawn(page);
    const segments = card(page, "revenueBySegment");
    const segment = segments.getByRole("combobox", { name: "Segment" });
    // The segment's row (its slice is a link too, in the chart's table of numbers, out of sight).
    const ella = segments.locator("table.data-table").getByRole("link", { name: "Ella Fischer" });
    expect(await segment.inputValue()).toBe("stockType");
    const waterfallCalls: string[] = [];
    page.on("request", (r) => {
      if (r.url().includes("/VarianceOverview/WaterfallChart")) waterfallCalls.push(r.url());
    });
    await segment.selectOption({ label: "Salesperson" });
    await page.waitForURL(/segment=salesperson/);
    await ella.waitFor();
    expect(await page.locator(".card-grid").getAttribute("data-all-drawn")).toBe("true");
    expect(waterfallCalls).toEqual([]);
    // The choice replaced the address: Back leaves level 1 instead of undoing it.
    const chosen = page.url();

    await page.reload();
    await cardsDrawn(page);
    expect(await segment.inputValue()).toBe("salesperson");
    await ella.waitFor();

    // A salesperson's segment opens level 1 of that salesperson; Back comes to the same choice.
    await ella.click();
    await page.waitForURL(/salespersonID=\d+/);
    expect(new URL(page.url()).searchParams.get("segment")).toBeNull();
    await cardsDrawn(page);
    expect(await segment.inputValue()).toBe("stockType");
    const drawn = await drawnCount(page);
    await page.goBack();
    await page.waitForURL(chosen);
    await cardsDrawn(page, drawn);
    expect(await segment.inputValue()).toBe("salesperson");
    await ella.waitFor();
  }, 90_000);

  it("keeps the trend's period and level 1's tabs in the address: through a reload, without the other cards loading again", async () => {
    await page.goto(`${origin}${level1}`);
    await cardsDrawn(page);
    const start = page.url();
    const waterfallCalls: string[] = [];
    const onRequest = (r: { url(): string }) => {
      if (r.url().includes("/VarianceOverview/WaterfallChart")) waterfallCalls.push(r.url());
    };
    page.on("request", onRequest);
    const trend = card(page, "trend");
    const periods = trend.getByRole("combobox", { name: "Periods" });
    expect(await periods.inputValue()).toBe("8");
    await periods.selectOption({ label: "2 Years" });
    await page.waitForURL(/trendPeriodCount=24/);
    await trend.getByText(/^2 years to /).waitFor();
    const tab = async (id: string, group: string, name: string) => {
      const option = card(page, id).getByRole("radiogroup", { name: group }).getByRole("radio", { name });
      await option.click();
      return option;
    };
    await tab("trend", "Include", "With ad hoc");
    await page.waitForURL(/trendInclude=adhoc/);
    await tab("varianceByType", "Show", "Top contributors");
    await page.waitForURL(/typesView=contributors/);
    await tab("lostClients", "Order by", "Rank");
    await page.waitForURL(/lostOrder=Rank/);
    const lostRows = page.waitForResponse(
      (r) => r.url().includes("/VarianceOverview/ActivityTable") && r.url().includes("badgeVariant=lost"),
    );
    await tab("activity", "Status", "Lost");
    await page.waitForURL(/activityStatus=lost/);
    await lostRows;
    expect(waterfallCalls).toEqual([]);
    page.off("request", onRequest);
    const chosen = page.url();

    await page.reload();
    await cardsDrawn(page);
    expect(await periods.inputValue()).toBe("24");
    await trend.getByText(/^2 years to /).waitFor();
    const checked = (id: string, group: string, name: string) =>
      card(page, id).getByRole("radiogroup", { name: group }).getByRole("radio", { name }).isChecked();
    expect(await checked("trend", "Include", "With ad hoc")).toBe(true);
    expect(await checked("varianceByType", "Show", "Top contributors")).toBe(true);
    expect(await checked("lostClients", "Order by", "Rank")).toBe(true);
    expect(await checked("activity", "Status", "Lost")).toBe(true);
    // Every row the activity card lists is a lost client's.
    const badges = await card(page, "activity").locator(".badge").allInnerTexts();
    expect(badges.length).toBeGreaterThan(0);
    expect(new Set(badges.map((b) => b.trim().toUpperCase()))).toEqual(new Set(["LOST"]));
    await page.screenshot({ path: join(testOutput, "level-1-card-choices-kept.png"), fullPage: true });

    expect(page.url()).toBe(chosen);
    // Level 1's own address, without the choices: every card at its first option again.
    await page.goto(start);
    await cardsDrawn(page);
    expect(await periods.inputValue()).toBe("8");
    expect(await checked("activity", "Status", "All")).toBe(true);
  }, 120_000);

  it("says nothing about costs in Margin when the demo's lines carry costs", async () => {
    await page.goto(`${origin}${level1}`);
    await cardsDrawn(page);
    const answer = page.waitForResponse((r) => r.url().includes("/VarianceOverview/CostsImported"));
    await page.locator(".page__actions").getByRole("radio", { name: "Margin" }).click();
    await page.waitForURL(/dataType=Margin/);
    expect(await (await answer).json()).toEqual({ costsImported: true, recurringCostsImported: true });
    await cardsDrawn(page);
    expect(await page.getByText(/margin equals revenue/).count()).toBe(0);
  }, 60_000);

  it("keeps a detail's dimension in the address through a reload", async () => {
    await page.goto(`${origin}${level1}`);
    await cardsDrawn(page);
    await card(page, "acquiredClients").getByRole("link").first().click();
    await page.waitForURL(/thirdClientID=\d+/);
    await cardsDrawn(page);
    const donut = card(page, "subjectDonut");
    const dimension = donut.getByRole("combobox", { name: "Dimension" });
    expect(await dimension.inputValue()).toBe("item");
    await dimension.selectOption({ label: "Salesperson" });
    await page.waitForURL(/dimension=salesperson/);
    await page.reload();
    // (Level 3's cards: the grid says when all are drawn; cardsDrawn waits for level 1's mark.)
    await page.locator('.card-grid[data-all-drawn="true"]').waitFor();
    expect(await dimension.inputValue()).toBe("salesperson");
    await donut.getByText("MRR by salesperson").waitFor({ state: "attached" });
  }, 60_000);

  it("shows level 4's amount, cost and margin without scrolling sideways at 1440 px", async () => {
    await page.goto(`${origin}${level1}`);
    await cardsDrawn(page);
    await card(page, "acquiredClients").getByRole("link").first().click();
    await page.waitForURL(/thirdClientID=\d+/);
    await page.getByRole("link", { name: "Invoice Data" }).click();
    await page.waitForURL(/\/invoice\?/);
    const lines = card(page, "invoiceLines");
    const grid = lines.locator(".ag-root-wrapper");
    await grid.locator(".ag-row").first().waitFor();
    const frame = (await grid.boundingBox())!;
    for (const name of ["Invoice date", "Client", "Service", "Quantity", "Amount", "Cost", "Margin"]) {
      const header = (await lines.getByRole("columnheader", { name, exact: true }).boundingBox())!;
      expect(header.x, name).toBeGreaterThanOrEqual(frame.x);
      expect(header.x + header.width, name).toBeLessThanOrEqual(frame.x + frame.width);
    }
    await page.screenshot({ path: join(testOutput, "level-4-lines.png") });
  }, 60_000);

  it("names the client a list is filtered by when the address has its id only, on the way from its detail", async () => {
    await page.goto(`${origin}${level1}`);
    await cardsDrawn(page);
    await card(page, "acquiredClients").getByRole("link").first().click();
    await page.waitForURL(/thirdClientID=\d+/);
    // The heading once the client's name is known ('Client #18' until then), and not level 1's,
    // which can still be on screen just after the address has changed.
    const heading = page
      .getByRole("heading", { level: 1 })
      .filter({ hasNotText: /^(Client #|Stock Type Overview$)/ });
    await heading.waitFor();
    const name = await heading.innerText();
    // A step of the client's waterfall, by keyboard: the list of that step for that client.
    const step = card(page, "waterfall").locator(".chart__data a").first();
    await step.focus();
    await page.keyboard.press("Enter");
    await page.waitForURL(/positiveOrNegative\?/);
    const params = new URL(page.url()).searchParams;
    expect(params.get("clientID")).toMatch(/^\d+$/);
    expect(params.get("client")).toBeNull();
    const chips = page.getByRole("list", { name: "Filters in force" });
    await chips.getByText(`Client: ${name}`).waitFor();
    expect(await chips.innerText()).not.toContain("#");
    // The filter panel's client field says the same.
    await page
      .locator(".page__actions")
      .getByRole("button", { name: /^Filter/ })
      .click();
    const panel = page.getByRole("dialog", { name: "Filter" });
    expect(await panel.getByRole("combobox", { name: "Client" }).inputValue()).toBe(name);
    await page.keyboard.press("Escape");
    await panel.waitFor({ state: "detached" });
  }, 60_000);

  it("says so when a detail's address names a client the data has not got, instead of a page of zeros", async () => {
    await page.goto(`${origin}/variance/dashboard/specific?thirdClientID=999999`);
    await page
      .getByRole("status")
      .filter({ hasText: "There is no client #999999 in this organisation's data" })
      .waitFor();
    expect(await page.getByRole("heading", { level: 1 }).innerText()).toBe("Client #999999");
    expect(await page.locator("section[data-card]").count()).toBe(0);
    expect(await page.getByRole("link", { name: "Invoice Data" }).count()).toBe(0);
    await page.getByRole("link", { name: "Go to level 1" }).click();
    await page.getByRole("heading", { name: "Stock Type Overview", level: 1 }).waitFor();
  }, 60_000);

  it("writes each slice of Revenue by segment with the share its row says, in the first drawing and in Plotly's", async () => {
    await page.goto(`${origin}${level1}?segment=salesperson`);
    await cardsDrawn(page);
    const segments = card(page, "revenueBySegment");
    const rows = await segments.locator(".segments__share").allInnerTexts();
    expect(rows.length).toBeGreaterThan(1);
    const sketch = segments.locator("[data-chart-sketch]");
    if (await sketch.count()) {
      const drawn = await sketch.locator("text").allTextContents();
      expect(rows.every((share) => drawn.includes(share))).toBe(true);
      await sketch.waitFor({ state: "detached" });
    }
    const slices = [...new Set(await segments.locator(".slicetext").allTextContents())];
    expect(slices).toEqual([...new Set(rows)]);
  }, 60_000);
});
