import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTenant, launchChromium, startE2eServer } from "./browser";
import { accessibilityViolations } from "./drill-workspace";
import { acceptTermsAndTour } from "./workspace";

describe("importing a CSV in the browser", () => {
  let browser: Browser;
  let env: Awaited<ReturnType<typeof startE2eServer>>;
  let page: Page;
  const dir = mkdtempSync(join(tmpdir(), "varia-e2e-import-"));

  beforeAll(async () => {
    env = await startE2eServer();
    const account = await createTenant(env.server, "importer", "a long import password");
    browser = await launchChromium();
    page = await (await browser.newContext()).newPage();
    await page.goto(`http://importer.localhost:${env.port}/`);
    await page.getByLabel("Email").fill(account.email);
    await page.getByLabel("Password").fill(account.password);
    await page.getByRole("button", { name: "Login" }).click();
    await page.getByRole("button", { name: "Skip setting up multi-factor" }).click();
    await page.waitForURL("**/variance/dashboard/stockTypeOverview");
    await acceptTermsAndTour(page);
    await page.getByRole("link", { name: "Integrations" }).click();
    await page.getByRole("heading", { name: "Import from CSV" }).waitFor();
  });
  afterAll(async () => {
    await browser?.close();
    await env?.stop();
  });

  it("says on the dashboard and the forecast that nothing is imported yet, and leads to the import", async () => {
    const menu = page.getByRole("navigation", { name: "Main" });
    for (const [entry, heading] of [
      ["Dashboard", "Stock Type Overview"],
      ["Forecast", "Forecast"],
    ] as const) {
      await menu.getByRole("link", { name: entry }).click();
      await page.getByRole("heading", { name: heading, level: 1 }).waitFor();
      await page.getByRole("heading", { name: "No data imported yet" }).waitFor();
      await page.getByRole("link", { name: "Import data" }).click();
      await page.getByRole("heading", { name: "Import from CSV" }).waitFor();
    }
  });

  it("offers to connect an accounting package, and says when the server cannot", async () => {
    await page
      .getByText("No accounting package is connected: this organisation imports from CSV files.")
      .waitFor();
    await page.getByRole("button", { name: "Connect Xero" }).click();
    await page.getByRole("alert").getByText("Connecting Xero is not available on this server").waitFor();
  });

  it("uploads a file, follows the job to 'Job completed successfully', and lists every bad row of a rejected file", async () => {
    const good = join(dir, "good.csv");
    writeFileSync(
      good,
      "InvoiceDate,InvoiceNumber,ClientCode,ItemCode,StockType,Quantity,Amount\n2025-05-01,A-1,C1,PRO,Subscription,2,100.00\n2025-06-01,A-2,C1,PRO,Subscription,2,100.00\n",
    );
    expect(await page.getByText("Choose File").count()).toBe(1);
    await page.locator('input[type="file"]').setInputFiles(good);
    await page.getByText("good.csv").waitFor();
    await page.getByRole("button", { name: "Upload" }).click();
    await page.getByText("Job completed successfully").waitFor();
    await page.getByText("2 invoice lines imported from good.csv: all new.", { exact: false }).waitFor();
    await page.getByText(/Finished \d+\w\w \w+ \d{4}, \d\d:\d\d/).waitFor();

    const bad = join(dir, "bad.csv");
    writeFileSync(
      bad,
      "InvoiceDate,InvoiceNumber,ClientCode,ItemCode,StockType,Quantity,Amount\n2025-13-01,B-1,C1,PRO,Subscription,1,10\n2025-05-01,B-2,,PRO,Subscription,1,10\n",
    );
    await page.locator('input[type="file"]').setInputFiles(bad);
    await page.getByRole("button", { name: "Upload" }).click();
    await page.getByText("Job failed").waitFor();
    const rows = page.getByRole("status").filter({ hasText: "Job failed" }).getByRole("row");
    await expect.poll(() => rows.count()).toBe(3);
    expect(await rows.nth(1).textContent()).toBe("2InvoiceDate'2025-13-01' is not a date (YYYY-MM-DD)");
    expect(await rows.nth(2).textContent()).toBe("3ClientCodeis required");
  });

  it("shows a refused file's error alone, without the earlier file's result under it", async () => {
    // The earlier upload's result is on the page (bad.csv, refused for its cells).
    await page.getByRole("status").filter({ hasText: "Job failed" }).waitFor();
    const workbook = join(dir, "sales.csv");
    writeFileSync(workbook, Buffer.from("PK\u0003\u0004 a workbook saved under a .csv name", "latin1"));
    await page.locator('input[type="file"]').setInputFiles(workbook);
    await page.getByRole("button", { name: "Upload" }).click();
    await page
      .getByRole("alert")
      .getByText("'sales.csv' is not a CSV file: it is a spreadsheet workbook", { exact: false })
      .waitFor();
    expect(await page.getByRole("status").filter({ hasText: "Job failed" }).count()).toBe(0);
    expect(await page.getByText("The file has 2 invalid cells; nothing was imported").count()).toBe(0);
  });

  it("lists the latest imports, newest first, with who made them and what came of each", async () => {
    const one = join(dir, "one.csv");
    writeFileSync(
      one,
      "InvoiceDate,InvoiceNumber,ClientCode,ItemCode,StockType,Quantity,Amount\n2025-06-01,A-3,C2,PRO,Subscription,1,50.00\n",
    );
    await page.locator('input[type="file"]').setInputFiles(one);
    await page.getByRole("button", { name: "Upload" }).click();
    await page.getByText("1 invoice line imported from one.csv: all new.", { exact: false }).waitFor();

    const list = page.getByRole("table", { name: "Recent imports" });
    const cells = (n: number) => list.getByRole("row").nth(n).getByRole("cell").allTextContents();
    // The list is loaded again once the job ends: the newest first.
    await expect.poll(() => cells(1)).toEqual(["one.csv", "Upload", "admin", "Completed", "1 line"]);
    expect(await cells(2)).toEqual([
      "bad.csv",
      "Upload",
      "admin",
      "Failed",
      "2 bad cells, nothing importedShow them",
    ]);
    expect(await cells(3)).toEqual(["good.csv", "Upload", "admin", "Completed", "2 lines"]);
    expect(await list.getByRole("row").count()).toBe(4);
    // A refused file's bad cells, shown under its row on asking.
    await list.getByRole("button", { name: "Show them" }).click();
    const badCells = page.getByRole("table", { name: "Bad cells of bad.csv" });
    await badCells.waitFor();
    expect(await badCells.getByRole("row").allTextContents()).toEqual([
      "LineColumnProblem",
      "2InvoiceDate'2025-13-01' is not a date (YYYY-MM-DD)",
      "3ClientCodeis required",
    ]);
    await list.getByRole("button", { name: "Hide them" }).click();
    await badCells.waitFor({ state: "detached" });
    // On a phone each import is a block (settings-data.test.ts looks at them there): axe-core too.
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await accessibilityViolations(page)).toEqual([]);
    await page.setViewportSize({ width: 1280, height: 720 });
  });

  it("shows the months a first import brought on the dashboard, without a reload", async () => {
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Dashboard" }).click();
    await page.getByRole("heading", { name: "Stock Type Overview" }).waitFor();
    await page.getByText("How MRR moved from May 2025 to Jun 2025").waitFor();
    expect(await page.getByText("No data imported yet").count()).toBe(0);
  });

  it("says of a corrected file imported again which of its lines replaced stored ones and which are new", async () => {
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Integrations" }).click();
    const corrected = join(dir, "good.csv");
    // good.csv corrected: A-1 at a new amount, A-2 as it was, and a line it lacked.
    writeFileSync(
      corrected,
      "InvoiceDate,InvoiceNumber,ClientCode,ItemCode,StockType,Quantity,Amount\n2025-05-01,A-1,C1,PRO,Subscription,2,120.00\n2025-06-01,A-2,C1,PRO,Subscription,2,100.00\n2025-06-01,A-4,C3,PRO,Subscription,1,70.00\n",
    );
    await page.locator('input[type="file"]').setInputFiles(corrected);
    await page.getByRole("button", { name: "Upload" }).click();
    await page
      .getByRole("status")
      .getByText(
        "3 invoice lines imported from good.csv: 1 new, 2 replacing stored lines of the same invoice and line number.",
        { exact: false },
      )
      .waitFor();
    const list = page.getByRole("table", { name: "Recent imports" });
    await expect
      .poll(() => list.getByRole("row").nth(1).getByRole("cell").allTextContents())
      .toEqual(["good.csv", "Upload", "admin", "Completed", "3 lines, 2 replacing stored ones"]);
  });

  it("downloads the invoice lines as CSV with UTF-8's byte order mark, once, for a spreadsheet", async () => {
    await page.goto(`http://importer.localhost:${env.port}/variance/settings/export`);
    await page.getByRole("heading", { name: "Data Export", level: 1 }).waitFor();
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: "Download", exact: true }).click(),
    ]);
    const bytes = readFileSync((await download.path())!);
    expect(bytes.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    expect(bytes.subarray(3, 15).toString("utf8")).toBe("InvoiceDate,");
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Integrations" }).click();
    await page.getByRole("heading", { name: "Import from CSV" }).waitFor();
  });

  it("says of a file with a header and no lines that it holds none, with no way to a dashboard", async () => {
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Integrations" }).click();
    const headerOnly = join(dir, "header-only.csv");
    writeFileSync(headerOnly, "InvoiceDate,InvoiceNumber,ClientCode,ItemCode,StockType,Quantity,Amount\r\n");
    await page.locator('input[type="file"]').setInputFiles(headerOnly);
    await page.getByRole("button", { name: "Upload" }).click();
    const status = page.getByRole("status").filter({ hasText: "Job completed successfully" });
    await status
      .getByText("header-only.csv holds no invoice lines under its header: nothing was imported.")
      .waitFor();
    expect(await status.getByRole("link", { name: "See it on the dashboard" }).count()).toBe(0);
  });
  it("undoes every import by restoring the backup taken before the first, and says that no lines are left", async () => {
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Backups" }).click();
    await page.getByRole("heading", { name: "Backups", level: 1 }).waitFor();
    // The oldest: taken before good.csv's first import, which replaced nothing.
    const first = page.getByRole("row").filter({ hasText: "Before the import of good.csv" }).last();
    await first.getByRole("button", { name: /^Restore the backup of/ }).click();
    const confirm = page.getByRole("alertdialog", { name: "Restore this backup?" });
    // What it holds, in words: not 'the 0 invoice lines that import replaced'.
    await confirm
      .getByText(/\(Before the import of good\.csv, no invoice lines, as that import replaced none\)\./i)
      .waitFor();
    await confirm.getByRole("button", { name: "Restore backup" }).click();
    await page
      .getByText(
        "Restored: no invoice lines are stored now, as none were then. Every screen shows the restored data.",
      )
      .waitFor({ timeout: 60_000 });
  });
});
