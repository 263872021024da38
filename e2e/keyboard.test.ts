import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accessibilityViolations } from "./drill-workspace";
import { card, cardsDrawn, drawnCount, holdChunk, isFocused, openDemoLevel1 } from "./workspace";

/*
 * The analyst's workspace with the keyboard alone (docs/behaviour.md, "Keyboard"): the Tab stops of
 * level 1, a chart's table of numbers and a grid moved through with the arrows, Enter following a
 * drill-down, the focus on the new page's heading, the skip link, and a menu's focused item in sight.
 */

/** One Tab stop: where it is (the card, a chart's table, a grid) and what it is called. */
interface Stop {
  card: string;
  /** The index among the page's chart tables of the one holding it, or -1. */
  chartTable: number;
  inGrid: boolean;
  name: string;
}

/** What the tests read of an element in the page (the e2e project has no DOM types). */
interface PageElement {
  tagName: string;
  textContent: string | null;
  getAttribute(name: string): string | null;
  closest(selector: string): PageElement | null;
}

/** The focused element, described (run in the page). */
function focusedStop(): Stop | null {
  const document = (
    globalThis as unknown as {
      document: {
        activeElement: PageElement | null;
        body: PageElement;
        querySelectorAll(s: string): ArrayLike<PageElement>;
      };
    }
  ).document;
  const e = document.activeElement;
  if (!e || e === document.body) return null;
  const table = e.closest(".chart__data");
  return {
    card: e.closest("section[data-card]")?.getAttribute("data-card") ?? "",
    chartTable: table ? Array.from(document.querySelectorAll(".chart__data")).indexOf(table) : -1,
    inGrid: e.closest(".ag-root, [data-first-page]") !== null,
    name: `${e.tagName.toLowerCase()} ${(e.getAttribute("aria-label") ?? e.textContent ?? "").trim().slice(0, 40)}`,
  };
}

/** Every Tab stop of the page, from the skip link (the first element of the document) to the end. */
async function tabStops(page: Page): Promise<Stop[]> {
  await page.getByRole("link", { name: "Skip to content" }).focus();
  const stops: Stop[] = [(await page.evaluate(focusedStop))!];
  for (;;) {
    await page.keyboard.press("Tab");
    const stop = await page.evaluate(focusedStop);
    if (stop === null) return stops;
    stops.push(stop);
    if (stops.length > 500) throw new Error("more than 500 Tab stops: the keyboard is kept in a loop");
  }
}

const focusedName = async (page: Page) => (await page.evaluate(focusedStop))?.name ?? "";

describe("the workspace with the keyboard alone, on the demo data", () => {
  let browser: Browser;
  let page: Page;
  let env: Awaited<ReturnType<typeof openDemoLevel1>>["env"];
  let origin: string;

  beforeAll(async () => {
    ({ env, browser, page, origin } = await openDemoLevel1());
  }, 240_000);
  afterAll(async () => {
    await browser?.close();
    await env?.stop();
  });

  it("gives each chart's table of numbers one Tab stop and the activity grid one, level 1 a few dozen in all", async () => {
    const stops = await tabStops(page);
    // Every chart table with drill-down links (a grid) is one stop, whatever its rows: 42 stops, one
    // per link, before they were grids.
    const grids = await page.locator('.chart__data table[role="grid"]').count();
    expect(grids).toBeGreaterThanOrEqual(5);
    const inTables = stops.filter((s) => s.chartTable >= 0);
    expect(inTables.length).toBe(grids);
    expect(new Set(inTables.map((s) => s.chartTable)).size).toBe(grids);
    // The activity grid is one stop too (its header), not one per cell: Tab went through each of
    // its cells before, more than 300 stops.
    // (AG Grid's header cell, or the first page's drawn before it: docs/behaviour.md, "Keyboard".)
    const inGrid = stops.filter((s) => s.inGrid && s.card === "activity").map((s) => s.name);
    expect(inGrid).toHaveLength(1);
    expect(inGrid[0]).toMatch(/^(div|th) Client$/);
    // Level 1 in all: 86 stops on the demo data, from the skip link to the activity grid's pager.
    expect(stops[0]!.name).toBe("a Skip to content");
    expect(stops.length).toBeLessThanOrEqual(90);
  }, 120_000);

  it("moves through a chart's table with the arrows and follows a step with Enter to its level 2, whose heading takes the focus", async () => {
    const waterfall = card(page, "waterfall");
    const table = waterfall.getByRole("grid", { name: /^MRR from .+, step by step$/ });
    await waterfall.getByRole("button", { name: "Expand Waterfall" }).focus();
    await page.keyboard.press("Tab");
    expect(await waterfall.getByRole("link", { name: "New clients" }).evaluate(isFocused)).toBe(true);
    // Shown while the focus is in it.
    expect((await table.boundingBox())!.height).toBeGreaterThan(100);
    // The steps' rows down, a number to the right (a cell without a link takes the focus itself).
    await page.keyboard.press("ArrowDown");
    expect(await focusedName(page)).toBe("a Lost clients");
    await page.keyboard.press("ArrowRight");
    expect(await focusedName(page)).toMatch(/^td -\$[\d,]+$/);
    await page.keyboard.press("ArrowUp");
    await page.keyboard.press("Home");
    expect(await focusedName(page)).toBe("a New clients");
    await page.keyboard.press("ArrowUp");
    expect(await focusedName(page)).toMatch(/^th [A-Z][a-z]{2} \d{4}$/);
    await page.keyboard.press("ArrowUp");
    expect(await focusedName(page)).toBe("th Category");
    await page.keyboard.press("ArrowUp");
    expect(await focusedName(page)).toBe("th Category");
    await page.keyboard.press("Control+End");
    expect(await focusedName(page)).toMatch(/^td \$[\d,]+$/);
    await page.keyboard.press("ArrowUp");
    await page.keyboard.press("Home");
    expect(await focusedName(page)).toBe("a Usage down");
    // Tab leaves the table for the next card; Shift+Tab comes back to the cell last focused.
    await page.keyboard.press("Tab");
    expect(await focusedName(page)).toBe("button About Variance by type");
    await page.keyboard.press("Shift+Tab");
    expect(await focusedName(page)).toBe("a Usage down");

    for (let i = 0; i < 6; i++) await page.keyboard.press("ArrowUp");
    expect(await focusedName(page)).toBe("a Services removed");
    await page.keyboard.press("Enter");
    await page.waitForURL(/positiveOrNegative\?/);
    const params = new URL(page.url()).searchParams;
    expect([params.get("varType"), params.get("sign")]).toEqual(["Service", "Negative"]);
    const heading = page.getByRole("heading", { name: "Services removed", level: 1 });
    await heading.waitFor();
    await expect.poll(() => heading.evaluate(isFocused)).toBe(true);
    // Back: level 1's heading has the focus again.
    await page.goBack();
    const level1 = page.getByRole("heading", { name: "Stock Type Overview", level: 1 });
    await level1.waitFor();
    await expect.poll(() => level1.evaluate(isFocused)).toBe(true);
    await cardsDrawn(page);
  }, 60_000);

  it("reaches each bar's increase and decrease of Variance by type with the arrows", async () => {
    const byType = card(page, "varianceByType");
    await byType.getByRole("radio", { name: "Types" }).focus();
    await page.keyboard.press("Tab");
    expect(await focusedName(page)).toMatch(/^a \$[\d,]+$/);
    await page.keyboard.press("ArrowRight");
    await page.keyboard.press("ArrowDown");
    await page.keyboard.press("ArrowDown");
    const focused = byType.locator(".chart__data a:focus");
    const query = new URL((await focused.getAttribute("href"))!, "http://x").searchParams;
    expect([query.get("varType"), query.get("sign")]).toEqual(["Price", "Negative"]);
    await page.keyboard.press("ArrowLeft");
    await page.keyboard.press("ArrowLeft");
    expect(await focusedName(page)).toBe("th Price");
  }, 60_000);

  it("leaves the activity grid with Tab after its header, and follows a client's link in it with Enter", async () => {
    const activity = card(page, "activity");
    await activity.getByRole("button", { name: "Download CSV" }).focus();
    await page.keyboard.press("Tab");
    expect(await focusedName(page)).toBe("div Client");
    await page.keyboard.press("Tab");
    expect((await page.evaluate(focusedStop))?.inGrid).toBe(false);
    await activity.getByRole("button", { name: "Download CSV" }).focus();
    await page.keyboard.press("Tab");
    await page.keyboard.press("ArrowDown");
    const client = (await page.locator(":focus a").textContent()) ?? "";
    expect(client).not.toBe("");
    await page.keyboard.press("Enter");
    await page.waitForURL(/thirdClientID=/);
    const heading = page.getByRole("heading", { name: client, level: 1 });
    await heading.waitFor();
    await expect.poll(() => heading.evaluate(isFocused)).toBe(true);
    await page.goBack();
    await page.getByRole("heading", { name: "Stock Type Overview", level: 1 }).waitFor();
    await cardsDrawn(page);
  }, 60_000);

  it("makes the activity grid's first page, drawn before AG Grid, one Tab stop too, and hands its focus on to AG Grid", async () => {
    const early = await page.context().newPage();
    const release = await holdChunk(early, "grid-view");
    await early.goto(page.url());
    const activity = card(early, "activity");
    await activity.locator("[data-first-page] tbody a").first().waitFor();
    await activity.getByRole("button", { name: "Download CSV" }).focus();
    await early.keyboard.press("Tab");
    expect(await focusedName(early)).toBe("th Client");
    await early.keyboard.press("Tab");
    expect(await activity.locator("[data-first-page] :focus").count()).toBe(0);
    await early.keyboard.press("Shift+Tab");
    expect(await focusedName(early)).toBe("th Client");
    release();
    await activity.locator("[data-first-page]").waitFor({ state: "detached" });
    await expect.poll(() => focusedName(early)).toBe("div Client");
    expect((await early.evaluate(focusedStop))?.inGrid).toBe(true);
    await early.close();
  }, 60_000);

  it("starts with a skip link that takes the focus to the page", async () => {
    await page.reload();
    await cardsDrawn(page);
    await page.keyboard.press("Tab");
    const skip = page.getByRole("link", { name: "Skip to content" });
    expect(await skip.evaluate(isFocused)).toBe(true);
    expect((await skip.boundingBox())!.y).toBeGreaterThanOrEqual(0);
    await page.keyboard.press("Enter");
    expect(await page.locator("main#main-content").evaluate(isFocused)).toBe(true);
  }, 60_000);

  it("gives the focus back to a card's Expand button when its dialog closes, though shrinking reloads the card", async () => {
    for (const [id, heading, close] of [
      ["trend", "Trend", "Escape"],
      ["activity", "Activity", "Close"],
      ["acquiredClients", "Acquired clients", "Escape"],
    ] as const) {
      const expand = card(page, id).getByRole("button", { name: `Expand ${heading}` });
      await expand.focus();
      await page.keyboard.press("Enter");
      const dialog = page.getByRole("dialog", { name: heading });
      await dialog.waitFor();
      await expect.poll(() => dialog.evaluate((d) => d.contains(d.ownerDocument.activeElement))).toBe(true);
      if (close === "Close") await dialog.getByRole("button", { name: "Close" }).focus();
      await page.keyboard.press(close === "Close" ? "Enter" : "Escape");
      await dialog.waitFor({ state: "detached" });
      // Focused at once and still once the card has loaded again.
      await expect
        .poll(() => expand.evaluate(isFocused), { message: `${heading} closed with ${close}` })
        .toBe(true);
      await card(page, id).and(page.locator('[data-card-state="content"]')).waitFor();
      expect(await expand.evaluate(isFocused), heading).toBe(true);
    }
    await cardsDrawn(page);
  }, 90_000);

  it("chooses Margin with the right arrow on the Revenue/Margin switch, as a group of radio buttons does", async () => {
    const switcher = page.locator(".page__actions").getByRole("radiogroup");
    const revenue = switcher.getByRole("radio", { name: "Revenue" });
    const margin = switcher.getByRole("radio", { name: "Margin" });
    const drawn = await drawnCount(page);
    await revenue.focus();
    await page.keyboard.press("ArrowRight");
    await page.waitForURL(/dataType=Margin/);
    expect(await margin.evaluate(isFocused)).toBe(true);
    // The address changes first; the switch follows it when the page renders again.
    await expect.poll(() => margin.getAttribute("aria-checked")).toBe("true");
    await cardsDrawn(page, drawn);
    // And back with the left arrow.
    const again = await drawnCount(page);
    await page.keyboard.press("ArrowLeft");
    await expect.poll(() => new URL(page.url()).searchParams.get("dataType") ?? "Revenue").toBe("Revenue");
    await expect.poll(() => revenue.getAttribute("aria-checked")).toBe("true");
    await cardsDrawn(page, again);
  }, 60_000);

  it("shows which item of a menu has the keyboard's focus with an outline", async () => {
    await page.getByRole("button", { name: /^Account of/ }).focus();
    await page.keyboard.press("Enter");
    const item = page.getByRole("menuitem", { name: "Profile" });
    await expect.poll(() => item.evaluate(isFocused)).toBe(true);
    expect(
      await item.evaluate(
        (e) =>
          (
            globalThis as unknown as { getComputedStyle(e: unknown): { outlineStyle: string } }
          ).getComputedStyle(e).outlineStyle,
      ),
    ).toBe("solid");
    await page.keyboard.press("Escape");
    await expect.poll(() => page.getByRole("button", { name: /^Account of/ }).evaluate(isFocused)).toBe(true);
  }, 60_000);

  it("moves the focus into the navigation map when it opens and back to its button when it closes, on a phone too", async () => {
    const button = page.getByRole("button", { name: "Navigation map" });
    const map = page.locator("#navigation-map");
    const heading = map.getByRole("heading", { name: "Navigation map" });
    for (const size of [
      { width: 1440, height: 900 },
      { width: 390, height: 844 },
    ]) {
      await page.setViewportSize(size);
      // Opened from the keyboard: its heading has the focus, so its links are the next Tab stops
      // (it comes after the page in the document).
      await button.focus();
      await page.keyboard.press("Enter");
      await expect.poll(() => heading.evaluate(isFocused)).toBe(true);
      await page.keyboard.press("Tab");
      expect(await map.locator(":focus").count()).toBe(1);
      if (size.width === 390) {
        expect(await accessibilityViolations(page), "the navigation map at 390 px").toEqual([]);
      }
      // Escape, with the focus in it: closed, the focus back on its button.
      await page.keyboard.press("Escape");
      await map.waitFor({ state: "detached" });
      expect(await button.evaluate(isFocused)).toBe(true);
      // Its close button likewise.
      await page.keyboard.press("Enter");
      await map.getByRole("button", { name: "Close the navigation map" }).focus();
      await page.keyboard.press("Enter");
      await map.waitFor({ state: "detached" });
      expect(await button.evaluate(isFocused)).toBe(true);
    }
    // On a phone, following one of its links closes it over the page it leads to, whose heading
    // takes the focus.
    await page.keyboard.press("Enter");
    await map.getByRole("link", { name: "Reports" }).focus();
    await page.keyboard.press("Enter");
    const reports = page.getByRole("heading", { name: "Reports", level: 1 });
    await reports.waitFor();
    await map.waitFor({ state: "detached" });
    await expect.poll(() => reports.evaluate(isFocused)).toBe(true);
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goBack();
    await cardsDrawn(page);
  }, 90_000);

  it("says a report's count of rows in a status line once it has run, the focus staying on Run", async () => {
    const level1 = page.url();
    await page.goto(`${origin}/variance/reports/types/price-changes`);
    await page.getByTestId("loading-overlay").waitFor({ state: "detached" });
    const run = page.getByRole("button", { name: "Run" });
    await run.focus();
    await page.keyboard.press("Enter");
    const count = page.getByRole("heading", { name: /^\d+ rows?$/, level: 2 });
    await count.waitFor();
    // A screen reader hears the count (a status line is read out when its text changes).
    expect(
      await page
        .getByRole("status")
        .filter({ hasText: /rows?$/ })
        .innerText(),
    ).toBe(await count.innerText());
    expect(await run.evaluate(isFocused)).toBe(true);
    await page.goto(level1);
    await page.getByTestId("loading-overlay").waitFor({ state: "detached" });
    await cardsDrawn(page);
  }, 60_000);

  it("closes the filter panel with Escape, the focus back on its button, and passes axe-core on a phone", async () => {
    const filter = page.locator(".page__actions").getByRole("button", { name: /^Filter/ });
    for (const size of [
      { width: 1440, height: 900 },
      { width: 390, height: 844 },
    ]) {
      await page.setViewportSize(size);
      await filter.focus();
      await page.keyboard.press("Enter");
      await page.getByRole("dialog", { name: "Filter" }).waitFor();
      expect(await accessibilityViolations(page), `filter panel at ${size.width} px`).toEqual([]);
      await page.keyboard.press("Escape");
      await page.getByRole("dialog", { name: "Filter" }).waitFor({ state: "detached" });
      await expect.poll(() => filter.evaluate(isFocused)).toBe(true);
    }
    await page.setViewportSize({ width: 1440, height: 900 });
  }, 90_000);
});
