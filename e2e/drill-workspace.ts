import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import AxeBuilder from "@axe-core/playwright";
import { createTokenForUser, seedDemo } from "@varia/server";
import type { Browser, Download, Page } from "playwright-core";
import { createTenant, startE2eServer } from "./browser";
import { acceptTermsAndTour, testOutput } from "./workspace";

const run = promisify(execFile);
const cliBin = join(import.meta.dirname, "..", "apps", "cli", "bin", "varia.js");

/** Where the screenshots of the drill-down's screens are kept (git-ignored test output). */
export const screenshotDir = join(testOutput, "drill-down");

/*
 * Helpers of the drill-down's end-to-end tests (drill-down.test.ts): the demo workspace with the
 * CLI beside it, signing in through the first sign-in's dialogs, downloads, CSV, axe-core.
 */

/**
 * The real server with the demo organisation (tenant `demo`, the default tenant of `localhost`) and
 * its generated demo data loaded through the import path, as `npm start` does on a first start.
 */
export async function startDemoWorkspace() {
  const env = await startE2eServer();
  const account = await createTenant(env.server, "demo", "a long e2e demo password");
  const job = await seedDemo(env.server.jobs, env.dataDir, "demo");
  for (;;) {
    const row = await env.server.database.db
      .selectFrom("import_jobs")
      .select("status")
      .where("id", "=", job.jobGuid)
      .executeTakeFirstOrThrow();
    if (row.status === "Completed") break;
    if (row.status === "Failed" || row.status === "FailedPermanently")
      throw new Error("The demo data did not load");
    // Polled, as the import page polls a job's status.
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const origin = `http://localhost:${env.port}`;
  return {
    env,
    account,
    origin,
    /** `varia` run as a child process with an API token of the demo admin; its stdout. */
    async varia(args: string[]): Promise<string> {
      const { token } = await createTokenForUser(env.server.database.db, {
        tenant: "demo",
        email: account.email,
        name: `e2e-${Date.now()}`,
      });
      const { stdout } = await run(process.execPath, [cliBin, ...args], {
        env: {
          ...process.env,
          VARIA_HOST: origin,
          VARIA_TOKEN: token,
          VARIA_CONFIG_DIR: mkdtempSync(join(tmpdir(), "varia-e2e-cli-")),
        },
        maxBuffer: 64 * 1024 * 1024,
      });
      return stdout;
    },
  };
}

/** Signs in through the login screen: skips MFA enrolment, accepts the terms and closes the tour. */
export async function signIn(browser: Browser, origin: string, account: { email: string; password: string }) {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, acceptDownloads: true });
  const page = await context.newPage();
  await page.goto(`${origin}/`);
  await page.getByTestId("loading-overlay").waitFor({ state: "detached" });
  await page.getByLabel("Email").fill(account.email);
  await page.getByLabel("Password").fill(account.password);
  await page.getByRole("button", { name: "Login" }).click();
  await page.getByRole("button", { name: "Skip setting up multi-factor" }).click();
  await page.waitForURL("**/variance/dashboard/stockTypeOverview");
  await acceptTermsAndTour(page);
  return page;
}

/** Opens an address afresh (the app starts again: its loading overlay covers it for 2 s). */
export async function openPage(page: Page, url: string) {
  await page.goto(url);
  await page.getByTestId("loading-overlay").waitFor({ state: "detached" });
}

/** Waits until every card of the page is on screen (its grid's mark). */
export async function cardsDrawn(page: Page) {
  await page.locator('.card-grid[data-all-drawn="true"]').waitFor();
}

/** The text of a download. */
export async function downloadText(
  page: Page,
  click: () => Promise<void>,
): Promise<{ name: string; text: string }> {
  const [download] = await Promise.all([page.waitForEvent("download"), click()]);
  return { name: download.suggestedFilename(), text: await readDownload(download) };
}

async function readDownload(download: Download): Promise<string> {
  const stream = await download.createReadStream();
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks)
    .toString("utf8")
    .replace(/^\uFEFF/, "");
}

/** The bytes of a download. */
export async function downloadBytes(page: Page, click: () => Promise<void>): Promise<Buffer> {
  const [download] = await Promise.all([page.waitForEvent("download"), click()]);
  const stream = await download.createReadStream();
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Rows of a CSV file (quoted fields with commas, quotes and line breaks), by header. */
export function parseCsv(text: string): Record<string, string>[] {
  const records: string[][] = [];
  let field = "";
  let record: string[] = [];
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") {
      record.push(field);
      field = "";
    } else if (c === "\n" || c === "\r") {
      if (c === "\r" && text[i + 1] === "\n") i++;
      record.push(field);
      records.push(record);
      record = [];
      field = "";
    } else field += c;
  }
  if (field || record.length) records.push([...record, field]);
  const [header, ...rows] = records;
  return rows
    .filter((r) => r.length > 1 || r[0])
    .map((r) => Object.fromEntries(header!.map((h, i) => [h, r[i] ?? ""])));
}

/** Money as a page writes it ('+$1,234.56', '-$600', '$0') in cents. */
export function centsOf(text: string): number {
  const negative = /^\s*[-−]/.test(text) || /▼/.test(text);
  const digits = text.replace(/[^\d.]/g, "");
  const value = Math.round(Number(digits) * 100);
  return negative ? -value : value;
}

/** What the check reads of a Web Animation (the e2e tests compile without the DOM's types). */
interface PageAnimation {
  playState: string;
  effect: { getTiming(): { iterations?: number } } | null;
}

/**
 * Waits until every finite animation of the page has ended (a page sliding in, a dialog fading in):
 * text in mid-fade is below its final contrast. Spinners and shimmers, which run forever, are left.
 */
export async function animationsSettled(page: Page) {
  await page.locator("[data-entering]").first().waitFor({ state: "detached" });
  // A function, not a string: the page's CSP forbids evaluating strings.
  await page.waitForFunction(() =>
    (globalThis as unknown as { document: { getAnimations(): PageAnimation[] } }).document
      .getAnimations()
      .every(
        (a) => a.playState !== "running" || a.effect?.getTiming().iterations === Number.POSITIVE_INFINITY,
      ),
  );
}

/**
 * axe-core on the page once it stands: the moderate, serious and critical violations (none
 * expected; a moderate one is, for example, two landmarks of the same name).
 *
 * One is not counted: axe's `region` rule (content outside landmarks, a best practice) on an open
 * React Aria popover, which puts a visually hidden Dismiss button for screen readers on each side of
 * its dialog, outside any landmark on purpose.
 */
export async function accessibilityViolations(page: Page) {
  await animationsSettled(page);
  const result = await new AxeBuilder({ page }).analyze();
  const holdsPopover = async (target: string) =>
    (await page.locator(target).locator("[data-trigger]").count()) > 0;
  const counted = [];
  for (const v of result.violations) {
    if (v.impact !== "moderate" && v.impact !== "serious" && v.impact !== "critical") continue;
    const targets = v.nodes.map((n) => n.target.join(" "));
    if (v.id === "region" && (await Promise.all(targets.map(holdsPopover))).every(Boolean)) continue;
    counted.push(`${v.id}: ${v.help} (${targets.join(", ")})`);
  }
  return counted;
}

/** A full-page screenshot kept in the test output, named for what it shows. */
export async function keepScreenshot(page: Page, name: string) {
  mkdirSync(screenshotDir, { recursive: true });
  // In a window as tall as the page: a full-page capture of a shorter one draws the sticky menu and
  // top bar in the middle of the page.
  const viewport = page.viewportSize() ?? { width: 1440, height: 900 };
  const height = (await page.evaluate("document.documentElement.scrollHeight")) as number;
  await page.setViewportSize({ width: viewport.width, height });
  await page.screenshot({ path: join(screenshotDir, `${name}.png`) });
  await page.setViewportSize(viewport);
}
