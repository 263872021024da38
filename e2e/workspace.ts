import { execFile, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createApiClient } from "@varia/api-client";
import { importGetJobStatus, importUpload } from "@varia/contracts";
import { createTokenForUser, type RunningServer, seedDemo } from "@varia/server";
import type { Locator, Page } from "playwright-core";
import { createTenant, launchChromium, startE2eServer } from "./browser";

/** Helpers of the workspace's end-to-end tests: data, sign-in, reading numbers off the page. */

/** For `locator.evaluate`: whether the element holds the keyboard's focus (run in the page). */
export const isFocused = (element: { ownerDocument: { activeElement: unknown } }) =>
  element === element.ownerDocument.activeElement;

/** What `uncut` reads of an element (the e2e project has no DOM types). */
export interface Boxed {
  getBoundingClientRect(): { left: number; right: number; width: number };
  parentElement: Boxed | null;
  ownerDocument: {
    documentElement: { clientWidth: number };
    defaultView: { getComputedStyle(element: Boxed): { overflowX: string } } | null;
  };
}
/**
 * For `locator.evaluate`: whether the element lies wholly within the screen's width and within every
 * box around it that clips what overflows it (a table's own scrolling area included), so that it can
 * be read without scrolling sideways.
 */
export const uncut = (element: Boxed) => {
  const box = element.getBoundingClientRect();
  const view = element.ownerDocument.defaultView!;
  if (box.width === 0 || box.left < 0 || box.right > element.ownerDocument.documentElement.clientWidth)
    return false;
  for (let around = element.parentElement; around; around = around.parentElement) {
    if (view.getComputedStyle(around).overflowX === "visible") continue;
    const frame = around.getBoundingClientRect();
    if (box.left < frame.left - 0.5 || box.right > frame.right + 0.5) return false;
  }
  return true;
};

const root = join(import.meta.dirname, "..");
export const cliBin = join(root, "apps", "cli", "bin", "varia.js");
export const serverBin = join(root, "apps", "server", "bin", "varia-server.js");

/** Where the tests keep what they want a person to look at (git-ignored). */
export const testOutput = join(root, "test-results", "workspace");
mkdirSync(testOutput, { recursive: true });

/** Waits until an organisation's import jobs have all ended; fails on a failed one. */
export async function importsFinished(
  server: RunningServer,
  organisationTenant: string,
  timeoutMs = 120_000,
) {
  const db = server.database.db;
  const started = Date.now();
  for (;;) {
    const jobs = await db
      .selectFrom("import_jobs")
      .innerJoin("organisations", "organisations.id", "import_jobs.organisation_id")
      .select(["import_jobs.status"])
      .where("organisations.tenant", "=", organisationTenant)
      .execute();
    if (jobs.some((j) => j.status === "Failed" || j.status === "FailedPermanently"))
      throw new Error(`an import of ${organisationTenant} failed`);
    if (jobs.length > 0 && jobs.every((j) => j.status === "Completed")) return;
    if (Date.now() - started > timeoutMs)
      throw new Error(`the imports of ${organisationTenant} did not finish`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Loads the generated demo business into a tenant, as `npm start` does on first start. */
export async function loadDemoData(server: RunningServer, dataDir: string, tenant: string) {
  await seedDemo(server.jobs, dataDir, tenant);
  await importsFinished(server, tenant);
}

/** An API token of a tenant's admin, for the CLI and the API. */
export async function adminToken(server: RunningServer, tenant: string, email: string) {
  const created = await createTokenForUser(server.database.db, { tenant, email, name: "e2e" });
  return created.token;
}

/**
 * Converts the QuickBooks sample with the server's own command and uploads it through the API, as
 * an ops script would; `url` must reach the tenant (the server's default tenant).
 */
export async function loadQuickBooksSample(url: string, token: string) {
  const dir = mkdtempSync(join(tmpdir(), "varia-e2e-qb-"));
  const csv = join(dir, "quickbooks.csv");
  const converted = spawnSync(
    process.execPath,
    [
      serverBin,
      "quickbooks-convert",
      "--dir",
      join(root, "apps", "server", "test", "fixtures", "quickbooks-sample"),
      "-o",
      csv,
    ],
    { encoding: "utf8" },
  );
  if (converted.status !== 0) throw new Error(`quickbooks-convert failed: ${converted.stderr}`);
  const client = createApiClient({ baseUrl: url, headers: () => ({ authorization: `Bearer ${token}` }) });
  try {
    const queued = await client.upload(importUpload, { file: readFileSync(csv), fileName: "quickbooks.csv" });
    for (;;) {
      const job = await client.call(importGetJobStatus, { query: { JobGuid: queued.jobGuid } });
      if (job.status === "Completed") return;
      if (job.status === "Failed" || job.status === "FailedPermanently")
        throw new Error(`the QuickBooks import failed: ${job.message}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  } finally {
    client.dispose();
  }
}

export interface VarianceJson {
  dataType: string;
  periodFrom: string;
  periodTo: string;
  totalFrom: number;
  totalTo: number;
  byType: Record<string, { positive: number; negative: number }>;
  acquiredClients: { clientCode: string; value: number }[];
  lostClients: { clientCode: string; value: number }[];
}

/**
 * `varia variance --json` run as ops would run it. Asynchronously: the server answering it runs in
 * this process.
 */
export function variaVariance(
  url: string,
  token: string,
  args: { from: string; to: string; dataType: "Revenue" | "Margin"; extra?: string[] },
): Promise<VarianceJson> {
  const configDir = mkdtempSync(join(tmpdir(), "varia-e2e-cli-"));
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [
        cliBin,
        "variance",
        "--from",
        args.from,
        "--to",
        args.to,
        "--data-type",
        args.dataType,
        ...(args.extra ?? []),
        "--json",
      ],
      {
        env: { ...process.env, VARIA_CONFIG_DIR: configDir, VARIA_HOST: url, VARIA_TOKEN: token },
        encoding: "utf8",
        timeout: 120_000,
      },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`varia variance failed (${error.message}): ${stderr}`));
        else resolve(JSON.parse(stdout) as VarianceJson);
      },
    );
  });
}

/**
 * Signs in through the login view (skipping the optional MFA enrolment) and, on a first sign-in,
 * accepts the terms and closes the tour.
 */
export async function signIn(page: Page, origin: string, email: string, password: string, path = "/") {
  await page.goto(`${origin}${path}`);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Login" }).click();
  const skip = page.getByRole("button", { name: "Skip setting up multi-factor" });
  const dashboard = page.locator("main#main-content");
  await skip.or(dashboard).first().waitFor();
  if (await skip.isVisible()) await skip.click();
  await dashboard.waitFor();
  const terms = page.getByRole("dialog", { name: "Terms of Service" });
  const ready = page.getByTestId("loading-overlay");
  await ready.waitFor({ state: "detached" });
  if (await terms.isVisible()) await acceptTermsAndTour(page);
}

/** A first sign-in's dialogs: accepts the terms, then closes the tour, and waits until both are gone. */
export async function acceptTermsAndTour(page: Page) {
  const terms = page.getByRole("dialog", { name: "Terms of Service" });
  await terms.getByLabel("I accept the Terms of Service and Privacy Policy").check();
  await terms.getByRole("button", { name: "Continue" }).click();
  await page
    .getByRole("dialog", { name: "Welcome to Varia" })
    .getByRole("button", { name: "Get started" })
    .click();
  await page.getByRole("dialog").waitFor({ state: "detached" });
}

/** The performance mark level 1 sets when every card is on screen (apps/web level-1-layout.ts). */
export const level1DrawnMark = "varia:level1-cards-drawn";

/**
 * Holds back a page's requests for a chunk of the web app (`name`, the start of its file's name:
 * `plot-view`, `grid-view`) until the returned `release` is called.
 */
export async function holdChunk(page: Page, name: string): Promise<() => void> {
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(new RegExp(`/assets/${name}-[^/]*\\.js$`), async (route) => {
    await held;
    await route.continue();
  });
  return release;
}

/** How many times the page has had every card on screen (once per filter it showed). */
export async function drawnCount(page: Page): Promise<number> {
  return (await page.evaluate(
    `performance.getEntriesByName(${JSON.stringify(level1DrawnMark)}).length`,
  )) as number;
}

/**
 * Waits until every card of the page is on screen (drawn): for a change of the view, pass the
 * count from before the change, so that the cards of the view before do not count.
 */
export async function cardsDrawn(page: Page, before = 0) {
  await page.locator('.card-grid[data-all-drawn="true"]').waitFor({ timeout: 60_000 });
  await page.waitForFunction(
    ([mark, count]) => performance.getEntriesByName(mark as string).length > (count as number),
    [level1DrawnMark, before] as const,
    { timeout: 60_000, polling: 100 },
  );
}

/**
 * A screenshot of the whole page, taken with a window as tall as the page (a full-page capture of a
 * shorter window draws the sticky menu and top bar in the middle of the page).
 */
export async function screenshotWholePage(page: Page, name: string) {
  const viewport = page.viewportSize() ?? { width: 1440, height: 900 };
  const height = (await page.evaluate("document.documentElement.scrollHeight")) as number;
  await page.setViewportSize({ width: viewport.width, height });
  await page.screenshot({ path: join(testOutput, name) });
  await page.setViewportSize(viewport);
}

export const card = (page: Page, id: string) => page.locator(`section[data-card="${id}"]`);

/**
 * Money as the page writes it ('$914,319', '-$600', '+$5,590', '▲ +$41,692 (+4.78%)') in whole
 * units of the currency: the first amount of the text.
 */
export function parseMoney(text: string): number {
  const match = /([+-−]?)\$([\d,]+(?:\.\d+)?)/.exec(text.replace(/\s/g, ""));
  if (!match) throw new Error(`no amount in '${text}'`);
  const value = Number(match[2]!.replace(/,/g, ""));
  return match[1] === "-" || match[1] === "−" ? -value : value;
}

/** Cents as the cards show them: whole units, halves away from zero (Intl's rounding). */
export function shownDollars(major: number): number {
  const cents = Math.round(major * 100);
  return Math.sign(cents) * Math.round(Math.abs(cents) / 100) || 0;
}

/** The rows of a chart's table (its numbers, as screen readers read them): category → cells. */
export async function chartTable(figure: Locator): Promise<Map<string, string[]>> {
  const rows = await figure
    .locator("table tbody tr")
    .evaluateAll((trs) =>
      trs.map((tr) => [
        tr.querySelector("th")?.textContent ?? "",
        ...[...tr.querySelectorAll("td")].map((td) => td.textContent ?? ""),
      ]),
    );
  return new Map(rows.map(([category, ...cells]) => [category!, cells]));
}

/** A client list card's rows: code → value shown. */
export async function clientList(section: Locator): Promise<Map<string, number>> {
  const rows = await section.locator("tbody tr").evaluateAll((trs) =>
    trs.map((tr) => ({
      // A client without a name is written once, by its code.
      code: (tr.querySelector(".client-list__code") ?? tr.querySelector("th a"))?.textContent ?? "",
      value: tr.querySelector("td:last-child")?.textContent ?? "",
    })),
  );
  return new Map(rows.map((r) => [r.code, parseMoney(r.value)]));
}

/**
 * The analytics records the page sends (PUT analytics/general) from now on, as 'recordType
 * recordData', with the server's answers: the server writes them to its log, which these tests do
 * not read.
 */
export function watchAnalytics(page: Page) {
  const sent = { records: [] as string[], statuses: [] as number[] };
  page.on("response", (response) => {
    const request = response.request();
    if (request.method() !== "PUT" || !request.url().endsWith("/api/analytics/general")) return;
    sent.statuses.push(response.status());
    for (const r of request.postDataJSON() as { recordType: string; recordData: string }[])
      sent.records.push(`${r.recordType} ${r.recordData}`);
  });
  return sent;
}

/**
 * The demo organisation's level 1 in Chromium, signed in and every card drawn: a real server with
 * the generated demo data loaded through the import path, and one page of 1440 x 900.
 */
export async function openDemoLevel1() {
  const env = await startE2eServer();
  const account = await createTenant(env.server, "demo", "the demo admin's e2e password");
  await loadDemoData(env.server, env.dataDir, "demo");
  const origin = `http://demo.localhost:${env.port}`;
  const browser = await launchChromium();
  const page = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
  await signIn(page, origin, account.email, account.password);
  await cardsDrawn(page);
  return { env, origin, browser, page };
}
