import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTenant, launchChromium, startE2eServer } from "./browser";
import { comparedMonths, expectLevel1Matches } from "./level-1-checks";
import {
  adminToken,
  card,
  cardsDrawn,
  drawnCount,
  loadQuickBooksSample,
  signIn,
  testOutput,
  variaVariance,
} from "./workspace";

describe("level 1 in the browser, on the QuickBooks sample", () => {
  let browser: Browser;
  let page: Page;
  let env: Awaited<ReturnType<typeof startE2eServer>>;
  let token: string;

  beforeAll(async () => {
    // The sample's organisation is this server's default tenant, so that the CLI and the upload
    // reach it at http://localhost (Node does not resolve *.localhost; Chromium does).
    env = await startE2eServer({ VARIA_DEFAULT_TENANT: "qb" });
    const account = await createTenant(env.server, "qb", "the QuickBooks admin's e2e password");
    token = await adminToken(env.server, "qb", account.email);
    await loadQuickBooksSample(env.server.url, token);
    browser = await launchChromium();
    page = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
    await signIn(page, `http://qb.localhost:${env.port}`, account.email, account.password);
    await cardsDrawn(page);
  }, 240_000);
  afterAll(async () => {
    await browser?.close();
    await env?.stop();
  });

  it("shows the numbers of `varia variance --json` for the default months, in revenue and in margin", async () => {
    const { from, to } = await comparedMonths(page);
    await expectLevel1Matches(
      page,
      await variaVariance(env.server.url, token, { from, to, dataType: "Revenue" }),
    );
    const drawnInRevenue = await drawnCount(page);
    await page.locator(".page__actions").getByRole("radio", { name: "Margin" }).click();
    await page.waitForURL(/dataType=Margin/);
    await cardsDrawn(page, drawnInRevenue);
    await expectLevel1Matches(
      page,
      await variaVariance(env.server.url, token, { from, to, dataType: "Margin" }),
    );
  }, 120_000);

  it("shows the numbers of `varia variance --json` for months the analyst picks", async () => {
    const { from, to } = await comparedMonths(page);
    expect(from < to).toBe(true);
    // Three months back from the default: a wider window, chosen in the filter panel.
    await page
      .locator(".page__actions")
      .getByRole("button", { name: /^Filter/ })
      .click();
    const panel = page.getByRole("dialog", { name: "Filter" });
    await panel.getByRole("button", { name: / From$/ }).click();
    // The open list's options (the cards' period selects keep hidden native options too).
    const list = page.getByRole("listbox");
    await list.waitFor();
    const options = list.getByRole("option");
    const count = await options.count();
    expect(count).toBeGreaterThan(3);
    const picked = (await options.nth(3).innerText()).trim();
    await options.nth(3).click();
    const drawn = await drawnCount(page);
    await panel.getByRole("button", { name: "Apply" }).click();
    await page.waitForURL(/dateFrom=/);
    await cardsDrawn(page, drawn);
    const months = await comparedMonths(page);
    expect(months.fromShown).toBe(picked);
    await expectLevel1Matches(
      page,
      await variaVariance(env.server.url, token, { from: months.from, to: months.to, dataType: "Margin" }),
    );
  }, 120_000);

  it("says under the Margin switch, on every screen that has it, that recurring margin equals revenue: only the sample's ad hoc products carry costs", async () => {
    const origin = `http://qb.localhost:${env.port}`;
    const text = "Only ad hoc sales carry costs: recurring margin equals revenue";
    const note = page.getByText(text);
    await page.goto(`${origin}/variance/dashboard/stockTypeOverview`);
    await cardsDrawn(page);
    expect(await note.count()).toBe(0);
    await page.locator(".page__actions").getByRole("radio", { name: "Margin" }).click();
    await page.waitForURL(/dataType=Margin/);
    await page.locator(".page__actions").getByRole("note").filter({ hasText: text }).waitFor();
    await page.screenshot({ path: join(testOutput, "quickbooks-margin-note-level-1.png") });
    // The charts of a span of months say what they measure; the lost clients order by MRR.
    await card(page, "trend")
      .getByText(/^Margin, 8 months to /)
      .waitFor();
    await card(page, "christmas")
      .getByText(/^Change of margin each month, 12 months to /)
      .waitFor();
    expect(await card(page, "lostClients").getByRole("radio", { name: "MRR" }).isChecked()).toBe(true);
    // Back to Revenue: the note goes.
    await page.locator(".page__actions").getByRole("radio", { name: "Revenue" }).click();
    await page.waitForURL((url) => !url.search.includes("dataType"));
    await note.waitFor({ state: "detached" });
    for (const path of [
      "/variance/dashboard/positiveOrNegative",
      "/variance/dashboard/specific",
      "/variance/forecast",
    ]) {
      await page.goto(`${origin}${path}?dataType=Margin`);
      await page.locator(".page__actions").getByRole("note").filter({ hasText: text }).waitFor();
    }
    await page.getByTestId("loading-overlay").waitFor({ state: "detached" });
    await card(page, "forecastChart")
      .getByText(/^MRR \(margin\) up to /)
      .waitFor();
    // A client's cards that measure say Margin too; its profile, which does not, only the month.
    await page.goto(`${origin}/variance/dashboard/specific?dataType=Margin`);
    await page.getByRole("button", { name: "Show client options" }).click();
    await page.getByRole("listbox").getByRole("option").first().click();
    await page.waitForURL(/thirdClientID=/);
    await page.locator('.card-grid[data-all-drawn="true"]').waitFor();
    for (const id of ["subjectRank", "subjectContribution", "subjectDonut"])
      await card(page, id)
        .locator(".card__subtitle")
        .getByText(/^Margin, /)
        .waitFor();
    await card(page, "subjectHistory")
      .getByText(/^Margin, months with a change, 12 months to /)
      .waitFor();
    expect(await card(page, "subjectProfile").locator(".card__subtitle").innerText()).not.toContain("Margin");
    await page.goto(`${origin}/variance/forecast?dataType=Margin`);
    await card(page, "forecastChart")
      .getByText(/^MRR \(margin\) up to /)
      .waitFor();
    await page.screenshot({ path: join(testOutput, "quickbooks-margin-note-forecast.png") });
    // The data export, whose lines carry both measures, offers no choice of one and says the same.
    await page.goto(`${origin}/variance/settings/export`);
    const form = page.getByRole("form", { name: "What to export" });
    await form.getByRole("note").filter({ hasText: text }).waitFor();
    expect(await form.getByRole("button", { name: /Data type/ }).count()).toBe(0);
  }, 120_000);
  it("says on the year-end chart and level 2's step month by month where the sample's data starts, and draws no net change for that month", async () => {
    await page.goto(`http://qb.localhost:${env.port}/variance/dashboard/stockTypeOverview`);
    await cardsDrawn(page);
    const chart = card(page, "christmas");
    // The sample starts within the chart's twelve months: its first month is the chart's first.
    const title = await chart.locator("figure.chart").getAttribute("aria-label");
    const first = /, (\w{3} \d{4}) to \w{3} \d{4}$/.exec(title ?? "")?.[1];
    expect(first, title ?? "").toBeTruthy();
    expect(await chart.locator("[data-starts-the-data]").innerText()).toBe(
      `The data starts in ${first}: no change is counted for it, as there is no month before it to compare with.`,
    );
    // Plotly's net change line has a gap there, not a point at 0.
    const plot = chart.locator(".js-plotly-plot");
    await plot.waitFor();
    const net = await plot.evaluate(
      (graph: { data: { name: string; y: (number | null)[] }[] }) =>
        graph.data.find((trace) => trace.name === "Net change")?.y ?? [],
    );
    expect(net[0]).toBeNull();
    expect(net.slice(1).every((value) => typeof value === "number")).toBe(true);
    await page.getByTestId("loading-overlay").waitFor({ state: "detached" });
    await chart.screenshot({ path: join(testOutput, "quickbooks-year-end-data-start.png") });

    // Level 2's step month by month reads the same months, and says the same.
    await page.goto(
      `http://qb.localhost:${env.port}/variance/dashboard/positiveOrNegative?varType=Price&sign=Negative`,
    );
    expect(await card(page, "stepHistory").locator("[data-starts-the-data]").innerText()).toBe(
      `The data starts in ${first}: no change is counted for it, as there is no month before it to compare with.`,
    );
  }, 60_000);
});
