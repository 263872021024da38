import { readFileSync } from "node:fs";
import { join } from "node:path";
import AxeBuilder from "@axe-core/playwright";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTenant, launchChromium, startE2eServer } from "./browser";
import { comparedMonths, expectLevel1Matches } from "./level-1-checks";
import {
  adminToken,
  card,
  cardsDrawn,
  chartTable,
  drawnCount,
  loadDemoData,
  parseMoney,
  screenshotWholePage,
  shownDollars,
  signIn,
  testOutput,
  variaVariance,
} from "./workspace";

describe("level 1 in the browser, on the demo data", () => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let env: Awaited<ReturnType<typeof startE2eServer>>;
  let origin: string;
  let token: string;
  let account: { email: string; password: string };

  beforeAll(async () => {
    env = await startE2eServer();
    account = await createTenant(env.server, "demo", "the demo admin's e2e password");
    await loadDemoData(env.server, env.dataDir, "demo");
    token = await adminToken(env.server, "demo", account.email);
    origin = `http://demo.localhost:${env.port}`;
    browser = await launchChromium();
    context = await browser.newContext({ viewport: { width: 1440, height: 900 }, acceptDownloads: true });
    page = await context.newPage();
    await signIn(page, origin, account.email, account.password);
    await cardsDrawn(page);
  }, 240_000);
  afterAll(async () => {
    await browser?.close();
    await env?.stop();
  });

  it("shows the numbers of `varia variance --json` for the default months, in revenue and in margin", async () => {
    expect(new URL(page.url()).pathname).toBe("/variance/dashboard/stockTypeOverview");
    expect(await page.title()).toBe("Stock Type Overview | Varia");
    const { from, to } = await comparedMonths(page);
    // The default months: the latest actual month and the one before it.
    const periods = (await (
      await fetch(`${env.server.url}/api/variance/VarianceOverview/ActualPeriods`, {
        headers: { authorization: `Bearer ${token}` },
      })
    ).json()) as { yearNo: number; monthNo: number }[];
    const key = (p: { yearNo: number; monthNo: number }) =>
      `${p.yearNo}-${String(p.monthNo).padStart(2, "0")}`;
    expect([from, to]).toEqual([key(periods[1]!), key(periods[0]!)]);
    const revenue = await variaVariance(env.server.url, token, { from, to, dataType: "Revenue" });
    await expectLevel1Matches(page, revenue);
    await screenshotWholePage(page, "level-1-revenue.png");

    const revenueMrr = await card(page, "mrr").locator(".kpi__value").innerText();
    let drawn = await drawnCount(page);
    await page.locator(".page__actions").getByRole("radio", { name: "Margin" }).click();
    await page.waitForURL(/dataType=Margin/);
    await cardsDrawn(page, drawn);
    const margin = await variaVariance(env.server.url, token, { from, to, dataType: "Margin" });
    expect(margin.totalTo).not.toBe(revenue.totalTo);
    expect(await card(page, "mrr").locator(".kpi__value").innerText()).not.toBe(revenueMrr);
    await expectLevel1Matches(page, margin);
    await screenshotWholePage(page, "level-1-margin.png");
    drawn = await drawnCount(page);
    await page.goBack();
    await page.waitForURL((url) => !url.search.includes("Margin"));
    await cardsDrawn(page, drawn);
    expect(await card(page, "mrr").locator(".kpi__value").innerText()).toBe(revenueMrr);
  }, 120_000);

  it("expands a card to 12 months and shrinks it to 8, records both, and downloads its screenshot as a PNG", async () => {
    const trend = card(page, "trend");
    expect((await chartTable(trend.locator("figure"))).size).toBe(8);
    await trend.getByRole("button", { name: "Expand Trend" }).click();
    const dialog = page.getByRole("dialog", { name: "Trend" });
    await expect.poll(async () => (await chartTable(dialog.locator("figure"))).size).toBe(12);
    await dialog.locator(".main-svg").first().waitFor();
    await page.screenshot({ path: join(testOutput, "level-1-expanded-card.png") });
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "detached" });
    await expect.poll(async () => (await chartTable(trend.locator("figure"))).size).toBe(8);

    // The feature-usage records reach the server together, a second after the last.
    await expect
      .poll(
        async () =>
          (
            await env.server.database.db
              .selectFrom("usage_records")
              .select(["record_type", "key1", "key2"])
              .where("key1", "=", "Trend")
              .orderBy("id")
              .execute()
          ).map((r) => `${r.record_type} ${r.key1} ${r.key2}`),
        { timeout: 10_000 },
      )
      .toEqual(["FeatureUsage Trend Expand", "FeatureUsage Trend Shrink"]);

    const download = page.waitForEvent("download");
    await card(page, "waterfall").getByRole("button", { name: "Download a screenshot of Waterfall" }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(
      /^Sep 2026 - Oct 2026 Waterfall \d{4}-\d\d-\d\d \d\d-\d\d-\d\d\.png$/,
    );
    const png = readFileSync((await file.path())!);
    expect(png.subarray(0, 8).toString("hex")).toBe("89504e470d0a1a0a");
    const width = png.readUInt32BE(16);
    const height = png.readUInt32BE(20);
    expect(width).toBeGreaterThan(400);
    expect(height).toBeGreaterThan(200);
    expect(Math.max(width, height)).toBeLessThanOrEqual(16384);
  }, 120_000);

  it("shows the card's error when its call fails while the other cards render, and tries again", async () => {
    await page.route("**/api/variance/VarianceOverview/WaterfallChart**", (route) =>
      route.fulfill({ status: 500, contentType: "application/json", body: '{"message":"boom"}' }),
    );
    await page.reload();
    await cardsDrawn(page);
    const waterfall = card(page, "waterfall");
    expect(await waterfall.getAttribute("data-card-state")).toBe("error");
    expect(await waterfall.getByRole("alert").innerText()).toContain(
      "An error occurred while displaying this card.",
    );
    expect(await page.locator('section[data-card][data-card-state="content"]').count()).toBe(13);
    await page.unroute("**/api/variance/VarianceOverview/WaterfallChart**");
    await waterfall.getByRole("button", { name: "Try again" }).click();
    await expect.poll(() => waterfall.getAttribute("data-card-state")).toBe("content");
  }, 60_000);

  it("keeps a filtered view in its address: the same numbers in a fresh page, and the CLI's", async () => {
    await page
      .locator(".page__actions")
      .getByRole("button", { name: /^Filter/ })
      .click();
    const panel = page.getByRole("dialog", { name: "Filter" });
    await panel.getByRole("button", { name: /Stock type/ }).click();
    await page.getByRole("option", { name: "Subscription" }).click();
    const salesperson = panel.getByRole("combobox", { name: "Salesperson" });
    await salesperson.fill("zzz-nobody");
    await page.getByRole("listbox").getByText("No results").waitFor();
    await salesperson.fill("ella");
    await page.getByRole("option", { name: "Ella Fischer" }).click();
    await page.screenshot({ path: join(testOutput, "level-1-filter-panel.png") });
    const drawn = await drawnCount(page);
    await panel.getByRole("button", { name: "Apply" }).click();
    await page.waitForURL(/salespersonID=\d+/);
    expect(page.url()).toMatch(/stockType=Subscription/);
    await cardsDrawn(page, drawn);
    const mrr = await card(page, "mrr").locator(".kpi__value").innerText();
    const steps = await chartTable(card(page, "waterfall").locator("figure"));
    const activity = await card(page, "activity").locator(".activity__summary p").innerText();

    const fresh = await context.newPage();
    await fresh.goto(page.url());
    await cardsDrawn(fresh);
    expect(await card(fresh, "mrr").locator(".kpi__value").innerText()).toBe(mrr);
    expect(await chartTable(card(fresh, "waterfall").locator("figure"))).toEqual(steps);
    expect(await card(fresh, "activity").locator(".activity__summary p").innerText()).toBe(activity);
    await fresh.close();

    const { from, to } = await comparedMonths(page);
    const cli = await variaVariance(env.server.url, token, {
      from,
      to,
      dataType: "Revenue",
      extra: ["--stock-type", "Subscription", "--salesperson", "Ella Fischer"],
    });
    expect(parseMoney(mrr)).toBe(shownDollars(cli.totalTo));
    const filtered = await drawnCount(page);
    await page.getByRole("button", { name: "Clear all" }).click();
    await cardsDrawn(page, filtered);
  }, 90_000);

  it("pages, sorts and searches the activity table on the server", async () => {
    const activity = card(page, "activity");
    await activity.locator(".ag-row").first().waitFor();
    const total = Number((await activity.locator(".activity__summary strong").innerText()).replace(/,/g, ""));
    expect(total).toBeGreaterThan(25);
    await expect
      .poll(() => activity.locator(".ag-paging-row-summary-panel").innerText())
      .toMatch(/1 to 25 of/);
    await activity.getByRole("radio", { name: "Lost", exact: true }).click();
    await expect.poll(() => activity.getAttribute("data-card-state")).toBe("content");
    await expect
      .poll(async () =>
        (await activity.locator(".ag-center-cols-container .badge").allInnerTexts()).every(
          (t) => t === "LOST",
        ),
      )
      .toBe(true);
    const download = page.waitForEvent("download");
    await activity.getByRole("button", { name: "Download CSV" }).click();
    const csv = readFileSync((await (await download).path())!, "utf8");
    const lines = csv.trim().split(/\r\n/);
    expect(lines[0]).toMatch(/^\uFEFF?Client,Service,Salesperson,Status,MRR /);
    const lostRows = Number(
      (await activity.locator(".activity__summary strong").innerText()).replace(/,/g, ""),
    );
    expect(lines.length - 1).toBe(lostRows);
    expect(lines.slice(1).every((l) => l.includes(",lost,"))).toBe(true);
    await activity.getByRole("radio", { name: "All", exact: true }).click();
    await expect.poll(() => activity.getAttribute("data-card-state")).toBe("content");
  }, 60_000);

  it("finds a client with the search modal and leads to its level-3 address", async () => {
    await page.keyboard.press("Control+k");
    const search = page.getByRole("dialog", { name: "Search" });
    await search.getByPlaceholder("Search for...").fill("willow dental");
    const result = search.getByRole("menuitem", { name: /Willow Dental Group/ });
    await result.waitFor();
    await page.keyboard.press("Enter");
    await page.waitForURL(/\/variance\/dashboard\/specific\?.*thirdClientID=\d+/);
    await page.getByRole("heading", { name: "This screen is not built yet" }).waitFor();
    const drawn = await drawnCount(page);
    await page.getByRole("link", { name: "Back to the overview" }).click();
    await page.waitForURL(
      (url) => url.pathname === "/variance/dashboard/stockTypeOverview" && !url.search.includes("third"),
    );
    await cardsDrawn(page, drawn);
  }, 60_000);

  it("has no serious or critical accessibility violations on level 1 and its dialogs", async () => {
    const violations = async (where: string) => {
      const result = await new AxeBuilder({ page }).analyze();
      return result.violations
        .filter((v) => v.impact === "serious" || v.impact === "critical")
        .map((v) => `${where}: ${v.id} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`);
    };
    const found = [...(await violations("level 1"))];
    await page
      .locator(".page__actions")
      .getByRole("button", { name: /^Filter/ })
      .click();
    await page.getByRole("dialog", { name: "Filter" }).waitFor();
    found.push(...(await violations("filter panel")));
    await page.keyboard.press("Escape");
    await card(page, "waterfall").getByRole("button", { name: "Expand Waterfall" }).click();
    await page.getByRole("dialog", { name: "Waterfall" }).locator(".main-svg").first().waitFor();
    found.push(...(await violations("expanded card")));
    await page.keyboard.press("Escape");
    await page.keyboard.press("Control+k");
    await page.getByRole("dialog", { name: "Search" }).waitFor();
    found.push(...(await violations("search")));
    await page.keyboard.press("Escape");
    await page.getByRole("button", { name: /^Account of/ }).click();
    await page.getByRole("menuitem", { name: "Profile" }).click();
    await page.getByRole("dialog", { name: "Profile" }).waitFor();
    found.push(...(await violations("profile")));
    await page.keyboard.press("Escape");
    expect(found).toEqual([]);
  }, 90_000);

  it("shows a user without the dashboard ability the no-permission dashboard instead of signing them out", async () => {
    const viewer = await createTenant(env.server, "viewer", "the viewer's e2e password");
    await env.server.database.db
      .updateTable("users")
      .set({ is_admin: false })
      .where("email", "=", viewer.email)
      .execute();
    const other = await browser.newPage();
    await signIn(other, `http://viewer.localhost:${env.port}`, viewer.email, viewer.password);
    await other.goto(`http://viewer.localhost:${env.port}/variance/dashboard/stockTypeOverview`);
    await other.getByRole("heading", { name: "You do not have access to the variance dashboards" }).waitFor();
    expect(await other.getByLabel("Email").count()).toBe(0);
    await other.close();
  }, 60_000);
});
