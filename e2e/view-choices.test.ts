import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTenant, launchChromium, startE2eServer } from "./browser";
import { cardsDrawn, drawnCount, loadDemoData, signIn, testOutput } from "./workspace";

/*
 * What an analyst chose on a screen, as the screen says it and as the address keeps it: the choices
 * whose value is "everything" ('All stock types', 'Any stock type') named in their fields, and a
 * card's own choice (Revenue by segment's segment, a detail's dimension) kept by a reload and by the
 * browser's Back, without the other cards loading again.
 */
describe("the choices of a view, on the demo data", () => {
  let browser: Browser;
  let page: Page;
  let env: Awaited<ReturnType<typeof startE2eServer>>;
  let origin: string;
  const level1 = "/variance/dashboard/stockTypeOverview";

  beforeAll(async () => {
    env = await startE2eServer();
    const account = await createTenant(env.server, "demo", "the demo admin's e2e password");
    await loadDemoData(env.server, env.dataDir, "demo");
    origin = `http://demo.localhost:${env.port}`;
    browser = await launchChromium();
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    page = await context.newPage();
    await signIn(page, origin, account.email, account.password);
    await cardsDrawn(page);
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
});
