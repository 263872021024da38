import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTenant, launchChromium, startE2eServer } from "./browser";
import { accessibilityViolations } from "./drill-workspace";
import { comparedMonths, expectLevel1Matches } from "./level-1-checks";
import {
  adminToken,
  card,
  cardsDrawn,
  chartTable,
  drawnCount,
  holdChunk,
  loadDemoData,
  parseMoney,
  screenshotWholePage,
  shownDollars,
  signIn,
  testOutput,
  variaVariance,
  watchAnalytics,
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
    const analytics = watchAnalytics(page);
    await trend.getByRole("button", { name: "Expand Trend" }).click();
    const dialog = page.getByRole("dialog", { name: "Trend" });
    await expect.poll(async () => (await chartTable(dialog.locator("figure"))).size).toBe(12);
    await dialog.locator(".main-svg").first().waitFor();
    await page.screenshot({ path: join(testOutput, "level-1-expanded-card.png") });
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "detached" });
    await expect.poll(async () => (await chartTable(trend.locator("figure"))).size).toBe(8);

    // The feature-usage records reach the server, sent a second after the last, and are taken.
    await expect
      .poll(() => analytics.records.filter((r) => r.includes("Trend")), { timeout: 10_000 })
      .toEqual(["FeatureUsage Trend: Expand", "FeatureUsage Trend: Shrink"]);
    expect(analytics.statuses.every((status) => status === 200)).toBe(true);

    const download = page.waitForEvent("download");
    await card(page, "waterfall").getByRole("button", { name: "Download a screenshot of Waterfall" }).click();
    const file = await download;
    const { fromShown, toShown } = await comparedMonths(page);
    expect(file.suggestedFilename()).toMatch(
      new RegExp(`^${fromShown} - ${toShown} Waterfall \\d{4}-\\d\\d-\\d\\d \\d\\d-\\d\\d-\\d\\d\\.png$`),
    );
    const png = readFileSync((await file.path())!);
    expect(png.subarray(0, 8).toString("hex")).toBe("89504e470d0a1a0a");
    const width = png.readUInt32BE(16);
    const height = png.readUInt32BE(20);
    expect(width).toBeGreaterThan(400);
    expect(height).toBeGreaterThan(200);
    expect(Math.max(width, height)).toBeLessThanOrEqual(16384);
  }, 120_000);

  it("shows a card's help text in a tooltip on hover and on focus, and records it shown and hidden", async () => {
    const analytics = watchAnalytics(page);
    const help = card(page, "mrr").getByRole("button", { name: "About MRR" });
    // A pointer that moves onto the button, as a person's does (React Aria's hover needs the move).
    await page.mouse.move(700, 500);
    await page.mouse.move(710, 510);
    await help.hover();
    const tooltip = page.getByRole("tooltip");
    await expect.poll(() => tooltip.innerText()).toContain("Monthly recurring revenue");
    const { fromShown, toShown } = await comparedMonths(page);
    expect(await tooltip.innerText()).toContain(`Shown for ${toShown} against ${fromShown}.`);
    await page.mouse.move(5, 5);
    await tooltip.waitFor({ state: "detached" });
    await page.keyboard.press("Escape");
    await help.focus();
    await tooltip.waitFor();
    await page.keyboard.press("Escape");
    await tooltip.waitFor({ state: "detached" });
    await expect
      .poll(() => analytics.records.filter((r) => r.startsWith("FeatureUsage MRR")), { timeout: 10_000 })
      .toEqual([
        "FeatureUsage MRR: Help shown",
        "FeatureUsage MRR: Help hidden",
        "FeatureUsage MRR: Help shown",
        "FeatureUsage MRR: Help hidden",
      ]);
  }, 60_000);

  it("alerts 'Error occurred while downloading screenshot of card' when the screenshot cannot be made", async () => {
    const other = await context.newPage();
    // The screenshot's library cannot be loaded: the download fails as a whole.
    await other.route("**/assets/render-png-*.js", (route) => route.abort());
    await other.goto(page.url());
    await cardsDrawn(other);
    await card(other, "trend").getByRole("button", { name: "Download a screenshot of Trend" }).click();
    const alert = other.getByRole("alertdialog", {
      name: "Error occurred while downloading screenshot of card",
    });
    await alert.waitFor();
    await alert.getByRole("button", { name: "Ok" }).click();
    await alert.waitFor({ state: "detached" });
    await other.close();
  }, 60_000);

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
    await page.getByRole("listbox").getByRole("option", { name: "Subscription" }).click();
    const salesperson = panel.getByRole("combobox", { name: "Salesperson" });
    await salesperson.fill("zzz-nobody");
    await page.getByRole("listbox").getByText("No results").waitFor();
    await salesperson.fill("ella");
    await page.getByRole("listbox").getByRole("option", { name: "Ella Fischer" }).click();
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

  it("pages, sorts and searches the activity table on the server, and downloads every row of a filter", async () => {
    const activity = card(page, "activity");
    const summary = activity.locator(".ag-paging-row-summary-panel");
    const rowCount = async () =>
      Number((await activity.locator(".activity__summary strong").innerText()).replace(/,/g, ""));
    const firstClient = () => activity.locator(".ag-row[row-index='0'] [col-id='clientName'] a").innerText();
    const asked = (test: (url: URL) => boolean) =>
      page.waitForRequest(
        (r) => r.url().includes("/VarianceOverview/ActivityTable") && test(new URL(r.url())),
      );
    await activity.locator(".ag-row").first().waitFor();
    const total = await rowCount();
    expect(total).toBeGreaterThan(50);
    await expect
      .poll(() => summary.innerText())
      .toMatch(new RegExp(`1\\s+to\\s+25\\s+of\\s+${total.toLocaleString("en-US")}`));

    // The next page is the server's rows 25 to 49.
    const nextPage = asked(
      (u) => u.searchParams.get("startRow") === "25" && u.searchParams.get("rowLimit") === "25",
    );
    await activity.getByRole("button", { name: "Next Page" }).click();
    await nextPage;
    await expect.poll(() => summary.innerText()).toMatch(/26\s+to\s+50/);
    await activity.getByRole("button", { name: "Previous Page" }).click();
    await expect.poll(() => summary.innerText()).toMatch(/^1\s+to\s+25/);

    // Sorted by the server: the largest change first, then the smallest.
    const api = async (query: string) =>
      (await (
        await fetch(`${env.server.url}/api/variance/VarianceOverview/ActivityTable?${query}`, {
          headers: { authorization: `Bearer ${token}` },
        })
      ).json()) as { rows: { clientName: string; valueCentsVariance: number }[] };
    const { from, to } = await comparedMonths(page);
    for (const dir of ["desc", "asc"] as const) {
      const sorted = asked(
        (u) => u.searchParams.get("sortBy") === "valueCentsVariance" && u.searchParams.get("sortDir") === dir,
      );
      await activity.getByRole("columnheader", { name: "Change", exact: true }).click();
      await sorted;
      const expected = await api(
        `dateFrom=${from}&dateTo=${to}&sortBy=valueCentsVariance&sortDir=${dir}&rowLimit=1`,
      );
      await expect.poll(firstClient).toBe(expected.rows[0]!.clientName);
    }

    // The card's search is the server's: only matching rows, counted again.
    const searched = asked((u) => u.searchParams.get("search") === "willow");
    await activity.getByRole("searchbox", { name: "Search Activity" }).fill("willow");
    await searched;
    await expect.poll(rowCount).toBeLessThan(total);
    const names = () => activity.locator(".ag-row [col-id='clientName'] a").allInnerTexts();
    await expect.poll(async () => (await names()).length).toBeGreaterThan(0);
    expect((await names()).every((n) => /willow/i.test(n))).toBe(true);
    await activity.getByRole("searchbox", { name: "Search Activity" }).fill("");
    await expect.poll(rowCount).toBe(total);

    // One badge: the lost clients' lines; the CSV holds every one of them.
    await activity.getByRole("radio", { name: "Lost", exact: true }).click();
    await expect.poll(() => activity.getAttribute("data-card-state")).toBe("content");
    await expect
      .poll(async () =>
        (await activity.locator(".ag-row [col-id='badgeVariant'] .badge").allInnerTexts()).every(
          (t) => t === "LOST",
        ),
      )
      .toBe(true);
    const download = page.waitForEvent("download");
    await activity.getByRole("button", { name: "Download CSV" }).click();
    const csv = readFileSync((await (await download).path())!, "utf8");
    const lines = csv.trim().split(/\r\n/);
    expect(lines[0]).toMatch(/^\uFEFF?Client,Service,Salesperson,Status,MRR /);
    expect(lines.length - 1).toBe(await rowCount());
    expect(lines.slice(1).every((l) => l.includes(",lost,"))).toBe(true);
    await activity.getByRole("radio", { name: "All", exact: true }).click();
    await expect.poll(rowCount).toBe(total);
  }, 90_000);

  it("draws the charts at once without Plotly, and Plotly takes their place with the same chart", async () => {
    // Plotly's chunk is held back until the first drawings have been looked at.
    const fresh = await context.newPage();
    const release = await holdChunk(fresh, "plot-view");
    await fresh.goto(`${origin}/variance/dashboard/stockTypeOverview`);
    await cardsDrawn(fresh);
    const charts = ["waterfall", "varianceByType", "trend", "christmas", "revenueBySegment"];
    const drawnBars = async (id: string) => {
      const sketch = card(fresh, id).locator("[data-chart-sketch] svg");
      return (await sketch.locator("rect").count()) + (await sketch.locator("path").count());
    };
    for (const id of charts) {
      expect(await card(fresh, id).locator(".js-plotly-plot").count()).toBe(0);
      expect(await drawnBars(id)).toBeGreaterThan(1);
    }
    // The waterfall's first drawing has a bar per step, as the chart's table of numbers has a row.
    const steps = (await chartTable(card(fresh, "waterfall").locator("figure"))).size;
    const stepBars = await card(fresh, "waterfall")
      .locator("[data-chart-sketch] svg g[clip-path] rect")
      .count();
    expect(stepBars).toBe(steps);
    // Looked at once start-up's overlay has gone (it covers the app for its first 2 s).
    await fresh.getByTestId("loading-overlay").waitFor({ state: "detached" });
    await screenshotWholePage(fresh, "level-1-first-drawings.png");

    release();
    for (const id of charts) {
      await card(fresh, id).locator(".js-plotly-plot .main-svg").first().waitFor();
      await expect.poll(() => card(fresh, id).locator("[data-chart-sketch]").count()).toBe(0);
    }
    expect(await card(fresh, "waterfall").locator(".point").count()).toBe(steps);
    await fresh.close();
  }, 60_000);

  it("draws the activity table's first page before AG Grid is there, and AG Grid takes its place with the same rows", async () => {
    // AG Grid's chunk is held back until the first page has been looked at (a fresh page: nothing
    // of the app's is loaded in it yet).
    const fresh = await context.newPage();
    const release = await holdChunk(fresh, "grid-view");
    await fresh.goto(`${origin}/variance/dashboard/stockTypeOverview`);
    await cardsDrawn(fresh);
    const activity = card(fresh, "activity");
    const firstPage = activity.locator("[data-first-page] tbody tr");
    expect(await firstPage.count()).toBe(25);
    expect(await activity.locator(".ag-root").count()).toBe(0);
    const clients = await activity.locator("[data-first-page] tbody tr td:first-child a").allInnerTexts();
    const total = (await activity.locator(".activity__summary strong").innerText()).replace(/,/g, "");
    expect(await activity.locator(".first-page__pager").innerText()).toMatch(
      new RegExp(`1 to 25 of ${Number(total).toLocaleString("en-US")}`),
    );
    // Looked at once start-up's overlay has gone (it covers the app for its first 2 s).
    await fresh.getByTestId("loading-overlay").waitFor({ state: "detached" });
    await screenshotWholePage(fresh, "level-1-activity-first-page.png");
    // The rows below the table's fold scroll inside it, as AG Grid's do: the page is as long.
    const pageHeight = () =>
      fresh.evaluate(
        () =>
          (globalThis as unknown as { document: { documentElement: { scrollHeight: number } } }).document
            .documentElement.scrollHeight,
      );
    const heightWithFirstPage = await pageHeight();

    release();
    await activity.locator(".ag-row").first().waitFor();
    await expect.poll(() => activity.locator("[data-first-page]").count()).toBe(0);
    expect(await pageHeight()).toBe(heightWithFirstPage);
    const byRow = await activity.locator(".ag-row [col-id='clientName']").evaluateAll((cells) =>
      cells
        .map((c) => ({
          row: Number(c.closest(".ag-row")?.getAttribute("row-index")),
          name: c.querySelector("a")?.textContent ?? "",
        }))
        .sort((a, b) => a.row - b.row)
        .map((c) => c.name),
    );
    expect(byRow.length).toBeGreaterThan(0);
    expect(byRow).toEqual(clients.slice(0, byRow.length));
    await fresh.close();
  }, 60_000);

  it("finds a client with the search modal and leads to its level-3 address", async () => {
    await page.keyboard.press("Control+k");
    const search = page.getByRole("dialog", { name: "Search" });
    // Five of a group are shown; a line says how many more there are, and is not a result.
    const found = page.waitForResponse(
      (r) => r.url().endsWith("/Lookup/GetClientList") && r.request().postDataJSON()?.search === "willow",
    );
    await search.getByPlaceholder("Search for...").fill("willow");
    const clients = ((await (await found).json()) as { rowCount: number }).rowCount;
    expect(clients).toBeGreaterThan(5);
    const more = search.getByRole("menuitem", { name: /more clients: type more of the name$/ });
    await more.waitFor();
    expect(await more.innerText()).toBe(`${clients - 5} more clients: type more of the name`);
    expect(await more.getAttribute("aria-disabled")).toBe("true");
    await search.getByPlaceholder("Search for...").fill("willow dental");
    // The two Willow Dental clients replace the list (which had Willow Dental Group too).
    await more.waitFor({ state: "detached" });
    const result = search.getByRole("menuitem", { name: /Willow Dental Group/ });
    await result.waitFor();
    await page.keyboard.press("Enter");
    await page.waitForURL(/\/variance\/dashboard\/specific\?.*thirdClientID=\d+/);
    // Level 3 of that client; its crumb leads back up to level 1.
    await page.getByRole("heading", { name: "Willow Dental Group", level: 1 }).waitFor();
    const drawn = await drawnCount(page);
    await page
      .getByRole("navigation", { name: "Breadcrumbs" })
      .getByRole("link", { name: "Level 1" })
      .click();
    await page.waitForURL(
      (url) => url.pathname === "/variance/dashboard/stockTypeOverview" && !url.search.includes("third"),
    );
    await cardsDrawn(page, drawn);
  }, 60_000);

  it("keeps the side menu collapsed across pages, renames the user from the profile, and records an unknown path", async () => {
    const toggle = page.getByRole("button", { name: "Collapse the menu" });
    await toggle.click();
    await page.getByRole("button", { name: "Expand the menu" }).waitFor();
    // Collapsed, the links keep their names.
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Integrations" }).click();
    await page.getByRole("heading", { name: "Import from CSV" }).waitFor();
    await page.reload();
    await page.getByRole("button", { name: "Expand the menu" }).click();
    await page.getByRole("button", { name: "Collapse the menu" }).waitFor();

    await page.getByRole("button", { name: /^Account of/ }).click();
    await page.getByRole("menuitem", { name: "Profile" }).click();
    const profile = page.getByRole("dialog", { name: "Profile" });
    await profile.getByRole("textbox", { name: "Name", exact: true }).fill("Ada Analyst");
    await profile.getByRole("button", { name: "Save name" }).click();
    await profile.getByText("Your name is saved.").waitFor();
    await page.keyboard.press("Escape");
    await page.getByRole("button", { name: "Account of Ada Analyst" }).waitFor();
    const stored = await env.server.database.db
      .selectFrom("users")
      .select("name")
      .where("email", "=", account.email)
      .executeTakeFirstOrThrow();
    expect(stored.name).toBe("Ada Analyst");

    const analytics = watchAnalytics(page);
    await page.goto(`${origin}/variance/no-such-screen`);
    await page.getByRole("heading", { name: "The requested page was not found" }).waitFor();
    await expect
      .poll(() => analytics.records, { timeout: 10_000 })
      .toEqual(["FrontEnd404 /variance/no-such-screen"]);
    expect(analytics.statuses).toEqual([200]);
    const drawn = await drawnCount(page);
    await page.getByRole("link", { name: "Go home" }).click();
    await page.waitForURL("**/variance/dashboard/stockTypeOverview");
    await cardsDrawn(page, drawn);
  }, 60_000);

  it("fits a phone's width: one line of top bar, key figures two to a row, waterfall labels apart, the map over the page, the menu folded after use", async () => {
    const phone = await context.newPage();
    await phone.setViewportSize({ width: 390, height: 844 });
    await phone.goto(`${origin}/variance/dashboard/stockTypeOverview`);
    await cardsDrawn(phone);
    await phone.getByTestId("loading-overlay").waitFor({ state: "detached" });
    const box = async (locator: ReturnType<Page["locator"]>) => {
      const found = await locator.boundingBox();
      if (!found) throw new Error(`not on screen: ${locator}`);
      return found;
    };
    // Nothing wider than the screen, and nothing in a card wider than the card.
    expect(await phone.evaluate("document.documentElement.scrollWidth")).toBeLessThanOrEqual(390);
    const overflowing = await phone
      .locator("section[data-card]")
      .evaluateAll((cards) =>
        cards.filter((c) => c.scrollWidth > c.clientWidth).map((c) => c.getAttribute("data-card")),
      );
    expect(overflowing).toEqual([]);

    // The top bar on one line, its buttons still named for assistive technology.
    const topBar = phone.locator("header.top-bar");
    const mapButton = topBar.getByRole("button", { name: "Navigation map" });
    const account = topBar.getByRole("button", { name: /^Account of/ });
    const rowOf = [
      topBar.locator(".top-bar__org"),
      topBar.getByRole("button", { name: "Search for..." }),
      mapButton,
      account,
    ];
    const middles = await Promise.all(rowOf.map(async (l) => (await box(l)).y + (await box(l)).height / 2));
    expect(Math.max(...middles) - Math.min(...middles)).toBeLessThan(4);
    expect((await box(topBar)).height).toBeLessThan(64);

    // The key figures two to a row.
    const [mrr, arr, subscribed] = await Promise.all(
      ["mrr", "arr", "clientsSubscribed"].map((id) => box(card(phone, id))),
    );
    expect(arr!.y).toBe(mrr!.y);
    expect(arr!.x).toBeGreaterThan(mrr!.x + mrr!.width);
    expect(subscribed!.y).toBeGreaterThan(mrr!.y + mrr!.height);

    // No two of the waterfall's step labels overlap, in Plotly's drawing.
    await card(phone, "waterfall").locator(".js-plotly-plot .main-svg").first().waitFor();
    const labels = await card(phone, "waterfall")
      .locator(".xtick text")
      .evaluateAll((texts) =>
        texts.map((t) => {
          const r = t.getBoundingClientRect();
          return { left: r.left, right: r.right, text: t.textContent ?? "" };
        }),
      );
    expect(labels.length).toBeGreaterThan(10);
    labels.sort((a, b) => a.left - b.left);
    for (const [i, label] of labels.slice(1).entries())
      expect(label.left, `${labels[i]!.text} | ${label.text}`).toBeGreaterThanOrEqual(labels[i]!.right);

    // The navigation map opens over the page, which keeps its width.
    const main = phone.locator("main#main-content");
    const width = (await box(main)).width;
    await mapButton.click();
    await phone.locator("#navigation-map").getByRole("heading", { name: "Navigation map" }).waitFor();
    expect((await box(main)).width).toBe(width);
    await screenshotWholePage(phone, "level-1-phone.png");
    // Following one of its links closes it over the page it leads to.
    await phone.locator("#navigation-map").getByRole("link", { name: "Reports" }).click();
    await phone.waitForURL("**/variance/reports/types");
    await phone.locator("#navigation-map").waitFor({ state: "detached" });

    // The menu's strip, expanded, folds away once one of its entries is followed; that is not
    // remembered as the user's choice of menu.
    const expand = phone.getByRole("button", { name: "Expand the menu" });
    if (await expand.isVisible()) await expand.click();
    const remembered = await phone.evaluate(() => localStorage.getItem("varia.sideMenuExpanded"));
    const menu = phone.getByRole("navigation", { name: "Main" });
    await menu.getByRole("link", { name: "Forecast" }).click();
    await phone.waitForURL("**/variance/forecast");
    await expand.waitFor();
    expect(await menu.getByRole("link", { name: "Forecast" }).isVisible()).toBe(false);
    expect(await phone.evaluate(() => localStorage.getItem("varia.sideMenuExpanded"))).toBe(remembered);
    await phone.close();
  }, 90_000);

  it("has no moderate, serious or critical accessibility violations on level 1 and its dialogs", async () => {
    const violations = async (where: string) =>
      (await accessibilityViolations(page)).map((v) => `${where}: ${v}`);
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
