import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { card, cardsDrawn, chartTable, isFocused, openDemoLevel1, testOutput } from "./workspace";

/*
 * A chart's table of numbers (for screen readers, apps/web/README.md "Heavy libraries behind one
 * door each"): a point that leads to what explains it when clicked is a link the keyboard reaches
 * (the table one Tab stop, the arrows moving in it: keyboard.test.ts), the table showing under the
 * chart while the focus is in it; a band is written as the range it is.
 */
describe("a chart's table of numbers, on the demo data", () => {
  let browser: Browser;
  let page: Page;
  let env: Awaited<ReturnType<typeof openDemoLevel1>>["env"];

  beforeAll(async () => {
    ({ env, browser, page } = await openDemoLevel1());
  }, 240_000);
  afterAll(async () => {
    await browser?.close();
    await env?.stop();
  });

  it("goes from a waterfall step to its level 2 with Tab, the arrows and Enter, the step in sight while focused", async () => {
    const waterfall = card(page, "waterfall");
    const table = waterfall.locator(".chart__data");
    // Hidden from sight until the keyboard is in it.
    expect((await table.boundingBox())!.height).toBeLessThanOrEqual(1);
    await waterfall.getByRole("button", { name: "Expand Waterfall" }).focus();
    await page.keyboard.press("Tab");
    const first = waterfall.getByRole("link", { name: "New clients" });
    expect(await first.evaluate(isFocused)).toBe(true);
    const box = await first.boundingBox();
    expect(box!.height).toBeGreaterThan(8);
    expect(box!.width).toBeGreaterThan(30);
    await page.screenshot({ path: join(testOutput, "waterfall-keyboard.png") });

    // Down the steps to Services removed.
    const removed = waterfall.getByRole("link", { name: "Services removed" });
    for (let i = 0; i < 3 && !(await removed.evaluate(isFocused)); i++)
      await page.keyboard.press("ArrowDown");
    expect(await removed.evaluate(isFocused)).toBe(true);
    await page.keyboard.press("Enter");
    await page.waitForURL(/positiveOrNegative\?/);
    const params = new URL(page.url()).searchParams;
    expect([params.get("varType"), params.get("sign")]).toEqual(["Service", "Negative"]);
    await page.getByRole("heading", { name: "Services removed", level: 1 }).waitFor();
    await page.goBack();
    await page.getByRole("heading", { name: "Stock Type Overview", level: 1 }).waitFor();
  }, 60_000);

  it("links each bar of Variance by type, whose increase and decrease lead to different lists", async () => {
    await cardsDrawn(page);
    const byType = card(page, "varianceByType");
    const links = byType.locator(".chart__data a");
    // Client, Service, Price, Volume and Usage, each with an increase and a decrease.
    expect(await links.count()).toBe(10);
    const hrefs = await links.evaluateAll((as) => as.map((a) => a.getAttribute("href") ?? ""));
    const steps = hrefs.map((h) => {
      const q = new URL(h, "http://x").searchParams;
      return `${q.get("varType")} ${q.get("sign")}`;
    });
    expect(steps).toEqual([
      "Client Positive",
      "Client Negative",
      "Service Positive",
      "Service Negative",
      "Price Positive",
      "Price Negative",
      "Volume Positive",
      "Volume Negative",
      "Usage Positive",
      "Usage Negative",
    ]);
  }, 60_000);

  it("writes the forecast's 80% interval as its range, as the table of the forecast has it", async () => {
    await page.getByRole("link", { name: "Forecast" }).click();
    await page.getByRole("heading", { name: "Forecast", level: 1 }).waitFor();
    await page.locator('.card-grid[data-all-drawn="true"]').waitFor();
    const figure = card(page, "forecastChart").locator("figure");
    const columns = await figure.locator("thead th").allInnerTexts();
    const interval = columns.indexOf("80% interval") - 1;
    expect(interval).toBeGreaterThanOrEqual(0);
    const rows = await chartTable(figure);
    // The grid beside it: each forecast month with its lower and upper bound, to the cent.
    const grid = card(page, "forecastTable");
    const first = grid.locator(".ag-row").first();
    await first.waitFor();
    const [month, , , lower, upper] = await first.locator(".ag-cell").allInnerTexts();
    const whole = (text: string) =>
      `$${Math.round(Number(text!.replace(/[$,]/g, ""))).toLocaleString("en-US")}`;
    expect(rows.get(month!)?.[interval]).toBe(`${whole(lower!)} – ${whole(upper!)}`);
  }, 60_000);
});
