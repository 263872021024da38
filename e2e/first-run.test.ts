import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createApiClient } from "@varia/api-client";
import { abilities, createUser, editRole } from "@varia/contracts";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTenant, launchChromium, startE2eServer } from "./browser";
import { accessibilityViolations } from "./drill-workspace";
import { adminToken, serverBin, signIn, testOutput } from "./workspace";

const screenshots = join(testOutput, "first-run");
mkdirSync(screenshots, { recursive: true });

async function look(page: Page, name: string) {
  await page.getByTestId("loading-overlay").waitFor({ state: "detached" });
  expect(await accessibilityViolations(page), `axe-core on ${name}`).toEqual([]);
  await page.screenshot({ path: join(screenshots, `${name}.png`), fullPage: true });
}

/** The QuickBooks sample converted with the server's own command, as its admin would. */
function convertedQuickBooksSample(): string {
  const csv = join(mkdtempSync(join(tmpdir(), "varia-e2e-first-run-")), "quickbooks.csv");
  const sample = join(import.meta.dirname, "..", "apps", "server", "test", "fixtures", "quickbooks-sample");
  const converted = spawnSync(
    process.execPath,
    [serverBin, "quickbooks-convert", "--dir", sample, "-o", csv],
    {
      encoding: "utf8",
    },
  );
  if (converted.status !== 0) throw new Error(`quickbooks-convert failed: ${converted.stderr}`);
  return csv;
}

describe("a new organisation's first run", () => {
  let browser: Browser;
  let env: Awaited<ReturnType<typeof startE2eServer>>;
  let origin: string;
  let admin: { email: string; password: string };
  let page: Page;

  beforeAll(async () => {
    // The default tenant lets Node (which does not resolve *.localhost) reach it over 127.0.0.1.
    env = await startE2eServer({ VARIA_DEFAULT_TENANT: "fresh" });
    admin = await createTenant(env.server, "fresh", "a long first-run password");
    origin = `http://fresh.localhost:${env.port}`;
    browser = await launchChromium();
    page = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
    await page.goto(`${origin}/`);
    await page.getByLabel("Email").fill(admin.email);
    await page.getByLabel("Password").fill(admin.password);
    await page.getByRole("button", { name: "Login" }).click();
    await page.getByRole("button", { name: "Skip setting up multi-factor" }).click();
    await page.waitForURL("**/variance/dashboard/stockTypeOverview");
  });
  afterAll(async () => {
    await browser?.close();
    await env?.stop();
  });

  it("the first sign-in's tour says the organisation has no data yet and leads to the Integrations page", async () => {
    const terms = page.getByRole("dialog", { name: "Terms of Service" });
    await terms.getByLabel("I accept the Terms of Service and Privacy Policy").check();
    await terms.getByRole("button", { name: "Continue" }).click();
    const tour = page.getByRole("dialog", { name: "Welcome to Varia" });
    await tour
      .getByText("Your organisation has no data yet. Start on the Integrations page", { exact: false })
      .waitFor();
    await look(page, "tour-no-data");
    await tour.getByRole("button", { name: "Import data" }).click();
    await page.getByRole("heading", { name: "Import from CSV" }).waitFor();
    expect(await page.getByRole("dialog").count()).toBe(0);
  });

  it("before any import, a report and the data export say there is no data and lead to the import", async () => {
    for (const [open, title] of [
      ["/variance/reports/types/forecast", "Forecast"],
      ["/variance/reports/types/mrr-by-client", "MRR by client"],
      ["/variance/settings/export", "Data Export"],
    ] as const) {
      await page.goto(`${origin}${open}`);
      await page.getByRole("heading", { name: title, level: 1 }).waitFor();
      await page.getByRole("heading", { name: "No data imported yet" }).waitFor();
      // No grid of zeros, no filters of no months, no download of an empty file.
      expect(await page.getByRole("button", { name: "Run" }).count()).toBe(0);
      expect(await page.getByRole("button", { name: "Download" }).count()).toBe(0);
      expect(await page.getByRole("grid").count()).toBe(0);
      await look(page, `no-data${open.replaceAll("/", "-")}`);
      await page.getByRole("link", { name: "Import data" }).click();
      await page.getByRole("heading", { name: "Import from CSV" }).waitFor();
    }
    // The report's way back to the list is still there.
    await page.goto(`${origin}/variance/reports/types/forecast`);
    await page
      .getByRole("navigation", { name: "Breadcrumb" })
      .getByRole("link", { name: "Reports" })
      .waitFor();
  });

  it("the roles screen says there are none yet and what one is for, without an empty table's pager", async () => {
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Roles" }).click();
    await page.getByRole("heading", { name: "No roles yet" }).waitFor();
    await page
      .getByText("A user who is not an administrator sees only what their roles grant", { exact: false })
      .waitFor();
    expect(await page.getByText("Page 0 of 0").count()).toBe(0);
    expect(await page.getByRole("grid").count()).toBe(0);
    await look(page, "roles-none");
  });

  it("the search says that clients, services and salespeople come with an import", async () => {
    await page.goto(`${origin}/variance/forecast`);
    await page.getByRole("heading", { name: "Forecast", level: 1 }).waitFor();
    await page.keyboard.press("Control+k");
    await page.getByRole("searchbox").fill("acme");
    await page
      .getByRole("status")
      .getByText("No data is imported yet: clients, services and salespeople are found here after an import.")
      .waitFor();
    await look(page, "search-no-data");
    await page.keyboard.press("Escape");
  });

  it("imports the QuickBooks sample in the browser: the columns are said, then the way to the dashboard", async () => {
    await page.goto(`${origin}/integration/overview`);
    await page.getByRole("heading", { name: "Import from CSV" }).waitFor();
    await page
      .getByText("Required columns: InvoiceDate (YYYY-MM-DD), InvoiceNumber, ClientCode", { exact: false })
      .waitFor();
    const csv = convertedQuickBooksSample();
    await page.locator('input[type="file"]').setInputFiles(csv);
    await page.getByRole("button", { name: "Upload" }).click();
    await page.getByText("Job completed successfully").waitFor();
    await look(page, "imported");
    await page.getByRole("link", { name: "See it on the dashboard" }).click();
    await page.getByRole("heading", { name: "Stock Type Overview", level: 1 }).waitFor();
    await page.locator('.card-grid[data-all-drawn="true"]').waitFor({ timeout: 60_000 });
    expect(await page.getByText("No data imported yet").count()).toBe(0);
    // QuickBooks names a customer by its id alone: the client is written once, not again as its code.
    for (const cells of ['section[data-card="acquiredClients"] tbody th', ".grid-client"]) {
      const clients = await page.locator(cells).allInnerTexts();
      expect(clients.length, cells).toBeGreaterThan(0);
      for (const client of clients) expect(client.trim(), cells).toMatch(/^QB-\d+$/);
    }
    // A report now has its filters, on the months imported.
    await page.goto(`${origin}/variance/reports/types/mrr-by-client`);
    await page.getByRole("button", { name: "Run" }).waitFor();

    // The same file again: said to be a file uploaded before, with what that upload did.
    await page.goto(`${origin}/integration/overview`);
    await page.locator('input[type="file"]').setInputFiles(csv);
    await page.getByRole("button", { name: "Upload" }).click();
    await page
      .getByText("quickbooks.csv was uploaded before: nothing is imported again.", { exact: false })
      .waitFor();
    await page.getByText("Job completed successfully").waitFor();
    await look(page, "uploaded-again");
  });

  it("a user who may see only reports: the search offers what they can open, the report's pickers work", async () => {
    const token = await adminToken(env.server, "fresh", admin.email);
    const client = createApiClient({
      baseUrl: `http://127.0.0.1:${env.port}`,
      headers: () => ({ authorization: `Bearer ${token}` }),
      retry: false,
    });
    const readers = await client.call(editRole, {
      body: { roleInfo: { name: "Report readers" }, activeToggles: [abilities.varianceReportsView] },
    });
    const rita = { email: "rita@fresh.example.com", password: "rita's long password" };
    await client.call(createUser, {
      body: { name: "Rita Reader", email: rita.email, roleIDs: [readers.roleID] },
    });
    client.dispose();
    const outbox = join(env.dataDir, "outbox");
    const mail = readdirSync(outbox)
      .map((name) => readFileSync(join(outbox, name), "utf8"))
      .find((text) => text.includes(`To: ${rita.email}\r\n`));
    const link = /\/passwordSet\/[0-9a-f-]{36}\/[^\s/]+/.exec(mail ?? "");
    if (!link) throw new Error("no set-password link to Rita in the outbox");
    const ritaPage = await (await browser.newContext({ viewport: { width: 390, height: 844 } })).newPage();
    await ritaPage.goto(`${origin}${link[0]}`);
    await ritaPage.getByLabel("New password", { exact: true }).fill(rita.password);
    await ritaPage.getByLabel("Confirm new password").fill(rita.password);
    await ritaPage.getByRole("button", { name: "Set Password" }).click();
    await ritaPage.getByText("Your new password is saved. Sign in with it.").waitFor();
    await signIn(ritaPage, origin, rita.email, rita.password, "/variance/reports/types/mrr-by-client");

    // The report's client picker lists the clients the import brought.
    const picker = ritaPage.getByRole("combobox", { name: "Client" });
    await picker.fill("QB-1");
    await ritaPage.getByRole("option", { name: /^QB-1/ }).first().waitFor();
    // axe-core looks at the page with the list closed (an open list hides the rest from assistive tech).
    await ritaPage.screenshot({ path: join(screenshots, "reports-reader-client-picker.png") });
    await ritaPage.keyboard.press("Escape");
    await look(ritaPage, "reports-reader-report");

    // The search: no dashboard she cannot open, and a screen she can found by its name.
    await ritaPage.keyboard.press("Control+k");
    const results = ritaPage.getByRole("menu", { name: "Results" });
    await results.getByRole("menuitem", { name: "Reports" }).waitFor();
    expect(await results.getByRole("menuitem").allTextContents()).toEqual(["Reports"]);
    await ritaPage.getByRole("searchbox").fill("rep");
    await results.getByRole("menuitem", { name: "Reports" }).waitFor();
    await look(ritaPage, "reports-reader-search");
    await results.getByRole("menuitem", { name: "Reports" }).click();
    await ritaPage.getByRole("heading", { name: "Reports", level: 1 }).waitFor();

    // The navigation map: no level or screen her roles do not open.
    await ritaPage.getByRole("button", { name: "Navigation map" }).click();
    const map = ritaPage.getByRole("complementary", { name: "Navigation map" });
    await map.getByText("Your roles do not open the dashboards.").waitFor();
    expect(await map.getByRole("link").allTextContents()).toEqual(["Reports (you are here)"]);
    await look(ritaPage, "reports-reader-navigation-map");
  });
});
