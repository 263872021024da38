import { readFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { type ApiClient, createApiClient } from "@varia/api-client";
import { backupList, importGetJobStatus, importUpload, lookupClientList } from "@varia/contracts";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTenant, launchChromium, startE2eServer } from "./browser";
import { accessibilityViolations } from "./drill-workspace";
import { comparedMonths } from "./level-1-checks";
import {
  adminToken,
  card,
  cardsDrawn,
  drawnCount,
  isFocused,
  loadDemoData,
  parseMoney,
  screenshotWholePage,
  shownDollars,
  signIn,
  testOutput,
  uncut,
  type VarianceJson,
  variaVariance,
} from "./workspace";

/*
 * The data settings in the browser (apps/web settings/lists, organisation, backups): an exclusion
 * list changes level 1 and `varia variance` by exactly its clients' figures, the organisation's
 * currency changes every card, and a backup comes back after an import. Screenshots in
 * test-results/workspace/settings-*.png.
 */

const dataTypes = ["Revenue", "Margin"] as const;
const cents = (major: number) => Math.round(major * 100);

describe("exclusion lists, organisation and backups in the browser", () => {
  let browser: Browser;
  let page: Page;
  let env: Awaited<ReturnType<typeof startE2eServer>>;
  let origin: string;
  let token: string;
  let client: ApiClient;
  let months: { from: string; to: string };

  const variance = (dataType: (typeof dataTypes)[number], extra: string[] = []) =>
    variaVariance(env.server.url, token, { ...months, dataType, extra });
  const mrrShown = async () => parseMoney(await card(page, "mrr").locator(".kpi__value").innerText());
  /** Opens a screen from the side menu: the app navigates in place, the page is not loaded again. */
  const openFromMenu = (title: string) =>
    page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: title, exact: true }).click();
  /** Marks the loaded document: the mark is gone if the page is ever loaded again. */
  const markDocument = () => page.evaluate("window.__notReloaded = true");
  const notReloaded = () => page.evaluate("window.__notReloaded === true");
  /** axe-core once the page has come in (a page transition fades it in; spinners run on). */
  const violations = async () => {
    await page.evaluate(
      "Promise.all(document.getAnimations().filter((a) => a.effect?.getComputedTiming().iterations !== Infinity).map((a) => a.finished))",
    );
    return accessibilityViolations(page);
  };

  /** Runs `look` at a phone's width (390 px), where the page must be no wider than the screen. */
  const onPhone = async (look: () => Promise<void>) => {
    const size = page.viewportSize();
    await page.setViewportSize({ width: 390, height: 844 });
    try {
      await look();
      expect(await page.evaluate("document.documentElement.scrollWidth")).toBeLessThanOrEqual(390);
    } finally {
      if (size) await page.setViewportSize(size);
    }
  };

  beforeAll(async () => {
    env = await startE2eServer();
    const account = await createTenant(env.server, "demo", "the data settings' e2e password");
    await loadDemoData(env.server, env.dataDir, "demo");
    token = await adminToken(env.server, "demo", account.email);
    client = createApiClient({
      baseUrl: env.server.url,
      headers: () => ({ authorization: `Bearer ${token}` }),
    });
    origin = `http://demo.localhost:${env.port}`;
    browser = await launchChromium();
    const context = await browser.newContext({
      viewport: { width: 1440, height: 900 },
      acceptDownloads: true,
    });
    page = await context.newPage();
    await signIn(page, origin, account.email, account.password);
    await cardsDrawn(page);
    const { from, to } = await comparedMonths(page);
    months = { from, to };
  }, 240_000);
  afterAll(async () => {
    client?.dispose();
    await browser?.close();
    await env?.stop();
  });

  it("leaves two clients out of level 1 and `varia variance` by exactly their figures, and deleting the list brings them back", async () => {
    // Two clients with revenue in both months, and each one's own figures from the same calls.
    const candidates = await client.call(lookupClientList, {
      body: { search: null, startRow: 1, rowLimit: 12 },
    });
    const chosen: {
      clientID: string;
      code: string;
      name: string;
      own: Record<(typeof dataTypes)[number], VarianceJson>;
    }[] = [];
    for (const c of candidates.rows) {
      const revenue = await variance("Revenue", ["--client", c.code]);
      if (revenue.totalTo === 0 || revenue.totalFrom === 0) continue;
      chosen.push({
        ...c,
        own: { Revenue: revenue, Margin: await variance("Margin", ["--client", c.code]) },
      });
      if (chosen.length === 2) break;
    }
    expect(chosen).toHaveLength(2);
    const before = { Revenue: await variance("Revenue"), Margin: await variance("Margin") };
    // Level 1 filtered to each client shows that client's MRR, as the CLI does.
    for (const c of chosen) {
      await page.goto(`${origin}/variance/dashboard/stockTypeOverview?clientID=${c.clientID}`);
      await cardsDrawn(page);
      expect(await mrrShown()).toBe(shownDollars(c.own.Revenue.totalTo));
    }

    await page.goto(`${origin}/variance/dashboard/stockTypeOverview`);
    await cardsDrawn(page);
    const mrrBefore = await card(page, "mrr").locator(".kpi__value").innerText();
    expect(parseMoney(mrrBefore)).toBe(shownDollars(before.Revenue.totalTo));
    await markDocument();

    // A new list of the two clients, made through the pickers.
    await openFromMenu("Exclusion lists");
    await page.getByRole("heading", { name: "Exclusion Lists", level: 1 }).waitFor();
    await page.getByRole("link", { name: "New List" }).click();
    await page.getByRole("heading", { name: "New Exclusion List" }).waitFor();
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByText("Please enter a name for the list").waitFor();
    // The focus goes to the field to correct.
    await expect.poll(() => page.getByLabel("Name").evaluate(isFocused)).toBe(true);
    await page.getByLabel("Name").fill("Intercompany clients");
    // The name typed answers the error: it goes, and the field is no longer marked.
    await page.getByText("Please enter a name for the list").waitFor({ state: "detached" });
    expect(await page.getByLabel("Name").getAttribute("aria-invalid")).toBe("false");
    // Clients and Items side by side, their tops level.
    const tops = await page
      .locator(".exclusion-entries")
      .evaluateAll((panels) => panels.map((panel) => Math.round(panel.getBoundingClientRect().top)));
    expect(tops).toHaveLength(2);
    expect(tops[1]).toBe(tops[0]);
    const picker = page.getByRole("combobox", { name: "Add a client" });
    for (const [index, c] of chosen.entries()) {
      await picker.fill(c.code);
      const option = page.getByRole("listbox").getByRole("option").filter({ hasText: c.code }).first();
      if (index === 0) await option.click();
      else {
        // By keyboard: down to the option, Enter.
        await option.waitFor();
        await page.keyboard.press("ArrowDown");
        await page.keyboard.press("Enter");
      }
      // The picker is ready for the next one: empty, focused, its suggestions open until Escape.
      await expect.poll(() => picker.evaluate(isFocused)).toBe(true);
      expect(await picker.inputValue()).toBe("");
      await page.keyboard.press("Escape");
      await page
        .getByRole("list", { name: "Clients on the list" })
        .getByText(c.name, { exact: true })
        .waitFor();
    }
    expect(await page.getByRole("list", { name: "Clients on the list" }).getByRole("listitem").count()).toBe(
      2,
    );
    // An item is picked and removed again: the list keeps only the two clients.
    await page.getByRole("combobox", { name: "Add an item" }).fill("PLAN-PRO");
    await page
      .getByRole("listbox")
      .getByRole("option")
      .filter({ hasText: "PLAN-PRO · Subscription" })
      .first()
      .click();
    await page.keyboard.press("Escape");
    const items = page.getByRole("list", { name: "Items on the list" });
    await items.getByText("PLAN-PRO · Subscription", { exact: true }).waitFor();
    await items.getByRole("button", { name: /^Remove .* \(PLAN-PRO\)$/ }).click();
    await page.getByText("No items on this list.").waitFor();
    // The focus is not lost with the button: the list is empty, so it goes to the section's heading.
    await expect.poll(() => page.getByRole("heading", { name: /^Items/ }).evaluate(isFocused)).toBe(true);
    expect(await violations()).toEqual([]);
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByText("Saved. Every number now leaves out this list's clients and items.").waitFor();
    expect(await violations()).toEqual([]);
    await page.waitForURL(/\/variance\/settings\/list\/[0-9a-f-]{36}$/);
    expect(await page.title()).toBe("Intercompany clients | Varia");
    await screenshotWholePage(page, "settings-exclusion-list.png");

    // The CLI: the totals of both months drop by exactly the two clients' own, to the cent.
    for (const dataType of dataTypes) {
      const after = await variance(dataType);
      for (const side of ["totalFrom", "totalTo"] as const) {
        const left = chosen.reduce((sum, c) => sum + cents(c.own[dataType][side]), 0);
        expect(cents(after[side]), `${dataType} ${side}`).toBe(cents(before[dataType][side]) - left);
      }
    }
    // Level 1, reached from the menu without a reload, shows the new MRR at once.
    await openFromMenu("Dashboard");
    await cardsDrawn(page);
    const expectedMrr =
      cents(before.Revenue.totalTo) - chosen.reduce((s, c) => s + cents(c.own.Revenue.totalTo), 0);
    expect(await mrrShown()).toBe(shownDollars(expectedMrr / 100));
    expect(await notReloaded()).toBe(true);
    // In margin too.
    await page.locator(".page__actions").getByRole("radio", { name: "Margin" }).click();
    await page.waitForURL(/dataType=Margin/);
    await cardsDrawn(page);
    const expectedMargin =
      cents(before.Margin.totalTo) - chosen.reduce((s, c) => s + cents(c.own.Margin.totalTo), 0);
    await expect.poll(mrrShown).toBe(shownDollars(expectedMargin / 100));

    // The list's page lists it; deleting it (after a confirmation) restores every number.
    await openFromMenu("Exclusion lists");
    const row = page.getByRole("row", { name: /Intercompany clients/ });
    await row.waitFor();
    expect(await row.innerText()).toMatch(/Active: left out\s+2\s+0/);
    expect(await violations()).toEqual([]);
    await screenshotWholePage(page, "settings-exclusion-lists.png");
    // On a phone the list is a block, its status and counts named and on screen.
    await onPhone(async () => {
      // Its last column first: it was past the panel's edge.
      expect(await page.locator('table[aria-label="Exclusion lists"] td:last-child').evaluate(uncut)).toBe(
        true,
      );
      for (const label of ["Status", "Clients", "Items", "Last changed"])
        expect(await page.locator(`td[data-label="${label}"]`).evaluate(uncut), label).toBe(true);
      expect(await page.getByRole("link", { name: "Intercompany clients" }).evaluate(uncut)).toBe(true);
      await screenshotWholePage(page, "settings-exclusion-lists-phone.png");
    });
    // Made inactive, the list counts again: level 1, seen a moment ago with the list active, is not
    // shown from an answer kept from then (the cards keep answers for a few seconds).
    await openFromMenu("Dashboard");
    await cardsDrawn(page);
    expect(await mrrShown()).toBe(shownDollars(expectedMrr / 100));
    await openFromMenu("Exclusion lists");
    await row.getByRole("link", { name: "Intercompany clients" }).click();
    await page.getByLabel(/^Active/).uncheck();
    await page.getByRole("button", { name: "Save" }).click();
    await page
      .getByText("Saved. The list is inactive: its clients and items count in every number.")
      .waitFor();
    await openFromMenu("Dashboard");
    await cardsDrawn(page);
    expect(await card(page, "mrr").locator(".kpi__value").innerText()).toBe(mrrBefore);
    await openFromMenu("Exclusion lists");
    expect(await row.innerText()).toMatch(/Inactive: counted\s+2\s+0/);

    await row.getByRole("link", { name: "Intercompany clients" }).click();
    await page.getByRole("button", { name: "Delete" }).click();
    const confirm = page.getByRole("alertdialog", { name: "Delete this exclusion list?" });
    expect(await confirm.innerText()).toContain(
      "'Intercompany clients' and its 2 clients and 0 items will be deleted",
    );
    expect(await violations()).toEqual([]);
    await confirm.getByRole("button", { name: "Delete list" }).click();
    await page.getByText("No exclusion lists yet").waitFor();
    await page
      .getByText("The exclusion list 'Intercompany clients' is deleted: its clients and items count again.")
      .waitFor();
    for (const dataType of dataTypes) expect(await variance(dataType)).toEqual(before[dataType]);
    await openFromMenu("Dashboard");
    await cardsDrawn(page);
    expect(await card(page, "mrr").locator(".kpi__value").innerText()).toBe(mrrBefore);
    expect(await notReloaded()).toBe(true);
  }, 300_000);

  it("takes a backup, downloads it, and restores it after an import, with the data back as it was", async () => {
    const before = { Revenue: await variance("Revenue"), Margin: await variance("Margin") };
    await openFromMenu("Backups");
    await page.getByRole("heading", { name: "Backups", level: 1 }).waitFor();
    await page.getByRole("button", { name: "Create backup" }).click();
    const taken = page.getByText(/^Backup taken: [\d,]+ invoice lines\.$/);
    await taken.waitFor();
    // The button, disabled while the backup is taken, has the keyboard's focus back.
    await expect
      .poll(() => page.getByRole("button", { name: "Create backup" }).evaluate(isFocused))
      .toBe(true);
    const listed = await client.call(backupList);
    const newest = listed[0]!;
    expect(newest.reason).toBe("OnDemand");
    expect(await taken.innerText()).toBe(
      `Backup taken: ${newest.lineCount.toLocaleString("en-US")} invoice lines.`,
    );
    const row = page.getByRole("row").filter({ hasText: "Made by hand" }).first();
    expect(await row.innerText()).toContain(newest.lineCount.toLocaleString("en-US"));

    // Its file: the portable gzip'd JSON with every line.
    const download = page.waitForEvent("download");
    await row.getByRole("button", { name: /^Download the backup of/ }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^varia-backup-demo-.*\.json\.gz$/);
    const content = JSON.parse(gunzipSync(readFileSync((await file.path())!)).toString("utf8"));
    expect(content.format).toBe("varia-backup/3");
    expect(content.invoiceLines).toHaveLength(newest.lineCount);
    expect(content.clients.length).toBeGreaterThan(0);
    // The Download button, disabled while the file comes, has the keyboard's focus back.
    await expect
      .poll(() => row.getByRole("button", { name: /^Download the backup of/ }).evaluate(isFocused))
      .toBe(true);

    // An import changes the latest month.
    const csv = [
      "InvoiceDate,InvoiceNumber,LineNumber,ClientCode,ItemCode,ItemName,StockType,Quantity,Amount,Category",
      `${months.to}-15,E2E-RESTORE,1,${content.clients[0].code},E2E-ITEM,Restore check,Subscription,1,4321.09,Recurring`,
    ].join("\n");
    const queued = await client.upload(importUpload, {
      file: Buffer.from(csv),
      fileName: "restore-check.csv",
    });
    await expect
      .poll(
        async () => (await client.call(importGetJobStatus, { query: { JobGuid: queued.jobGuid } })).status,
        {
          timeout: 60_000,
        },
      )
      .toBe("Completed");
    expect((await variance("Revenue")).totalTo).not.toBe(before.Revenue.totalTo);

    // Restore: the confirmation names the import it undoes.
    await page.reload();
    await page.getByRole("heading", { name: "Backups", level: 1 }).waitFor();
    await markDocument();
    // The list names the file of the import a backup was taken before.
    expect(
      await page.getByRole("row").filter({ hasText: "Before the import of restore-check.csv" }).count(),
    ).toBe(1);
    const ours = page.getByRole("row").filter({ hasText: "Made by hand" }).first();
    await ours.getByRole("button", { name: /^Restore the backup of/ }).click();
    const confirm = page.getByRole("alertdialog", { name: "Restore this backup?" });
    const confirmText = await confirm.innerText();
    expect(confirmText).toContain(`${newest.lineCount.toLocaleString("en-US")} invoice lines`);
    expect(confirmText).toMatch(
      /This undoes:\s+the import of restore-check\.csv at \d+\w\w \w{3} \d{4}, \d\d:\d\d/,
    );
    expect(await violations()).toEqual([]);
    await page.screenshot({ path: join(testOutput, "settings-backup-restore.png") });
    await confirm.getByRole("button", { name: "Restore backup" }).click();
    await page
      .getByText(/^Restored: the [\d,]+ invoice lines stored now are as they were then\./)
      .waitFor({ timeout: 60_000 });
    for (const dataType of dataTypes) expect(await variance(dataType)).toEqual(before[dataType]);
    const reasons = (await client.call(backupList)).map((b) => b.reason);
    expect(reasons.slice(0, 3)).toEqual(["BeforeRestore", "BeforeImport", "OnDemand"]);
    expect(await violations()).toEqual([]);
    await screenshotWholePage(page, "settings-backups.png");

    // The dashboards show the restored figures without a reload.
    await openFromMenu("Dashboard");
    await cardsDrawn(page);
    expect(await mrrShown()).toBe(shownDollars(before.Revenue.totalTo));
    expect(await notReloaded()).toBe(true);

    // Deleting the backup made by hand, after its confirmation.
    await openFromMenu("Backups");
    const count = (await client.call(backupList)).length;
    await page
      .getByRole("row")
      .filter({ hasText: "Made by hand" })
      .first()
      .getByRole("button", { name: /^Delete the backup of/ })
      .click();
    const remove = page.getByRole("alertdialog", { name: "Delete this backup?" });
    expect(await remove.innerText()).toContain("its data can no longer be restored");
    await remove.getByRole("button", { name: "Delete backup" }).click();
    await page.getByText(/^The backup of .* is deleted\.$/).waitFor();
    const left = await client.call(backupList);
    expect(left).toHaveLength(count - 1);
    expect(left.map((b) => b.backupID)).not.toContain(newest.backupID);

    // On a phone each backup is a block whose actions are on screen, not past a table's edge.
    await onPhone(async () => {
      const actions = page.getByRole("button", { name: /^(Download|Restore|Delete) the backup of/ });
      await expect.poll(() => actions.count()).toBe(left.length * 3);
      for (const box of await actions.evaluateAll((buttons) =>
        buttons.map((b) => b.getBoundingClientRect().right),
      ))
        expect(box).toBeLessThanOrEqual(390);
    });
  }, 300_000);

  it("shows the recent imports on a phone as blocks, each import's result on screen", async () => {
    // Opened in place (the page is not loaded again: the next test checks it).
    await page.evaluate(
      'history.pushState(null, "", "/integration/overview"); dispatchEvent(new PopStateEvent("popstate"))',
    );
    await page.getByRole("heading", { name: "Recent imports" }).waitFor();
    await page.getByRole("group", { name: "Recent imports" }).getByRole("row").first().waitFor();
    await onPhone(async () => {
      const imports = page.getByRole("group", { name: "Recent imports" });
      expect(await imports.locator("tbody tr:first-child td:last-child").evaluate(uncut)).toBe(true);
      for (const label of ["File or source", "Kind", "By", "Status", "Result"])
        expect(await imports.locator(`td[data-label="${label}"]`).first().evaluate(uncut), label).toBe(true);
      // The package buttons each keep their words on one line.
      for (const name of ["Connect QuickBooks", "Connect Xero"]) {
        const lines = await page.getByRole("button", { name }).evaluate((button) => {
          const range = button.ownerDocument.createRange();
          range.selectNodeContents(button);
          return new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size;
        });
        expect(lines, name).toBe(1);
      }
      expect(await violations()).toEqual([]);
      await screenshotWholePage(page, "settings-integrations-phone.png");
    });
  }, 60_000);

  it("writes money in the organisation's currency on every card once it is EUR, and names bad fields", async () => {
    await openFromMenu("Dashboard");
    await cardsDrawn(page);
    const cards = page.locator("section[data-card]");
    const ids = await cards.evaluateAll((sections) => sections.map((s) => s.getAttribute("data-card")!));
    const withDollars: string[] = [];
    for (const id of ids) if ((await card(page, id).innerText()).includes("$")) withDollars.push(id);
    expect(withDollars).toEqual(expect.arrayContaining(["mrr", "arr", "arpa", "waterfall", "trend"]));

    await openFromMenu("Organisation");
    await page.getByRole("heading", { name: "Organisation Settings" }).waitFor();
    expect(await violations()).toEqual([]);
    await screenshotWholePage(page, "settings-organisation.png");
    // On a phone the terms' versions are blocks: who accepted each is named and on screen.
    await onPhone(async () => {
      const terms = page.getByRole("region", { name: "Terms of service versions" });
      expect(await terms.locator("td:last-child").evaluate(uncut)).toBe(true);
      for (const label of ["In effect from", "Status", "Users who accepted it"])
        expect(await terms.locator(`td[data-label="${label}"]`).evaluate(uncut), label).toBe(true);
      // And the items with a category of their own: a block each, its category and Remove within the panel.
      const items = page.locator('table[aria-label="Items with a category of their own"]');
      const removes = await items.getByRole("button", { name: /^Remove / }).all();
      expect(removes.length).toBeGreaterThan(0);
      for (const remove of removes) expect(await remove.evaluate(uncut)).toBe(true);
      expect(await items.locator('td[data-label="Category"]').first().evaluate(uncut)).toBe(true);
      const panel = items.locator("xpath=ancestor::section[contains(@class, 'panel')][1]");
      expect(await panel.evaluate((p) => p.scrollWidth <= p.clientWidth)).toBe(true);
      expect(await violations()).toEqual([]);
      await screenshotWholePage(page, "settings-organisation-phone.png");
    });
    // Bad fields are named, and nothing is saved.
    await page.getByLabel("Organisation name").fill(" ");
    await page.getByLabel("Backups to keep").fill("0");
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByText("Please enter the organisation's name").waitFor();
    await page.getByText("Please enter a whole number from 1 to 100").waitFor();
    expect(await page.getByLabel("Backups to keep").getAttribute("aria-invalid")).toBe("true");
    await expect.poll(() => page.getByLabel("Organisation name").evaluate(isFocused)).toBe(true);
    expect(await violations()).toEqual([]);
    await page.screenshot({ path: join(testOutput, "settings-organisation-errors.png") });
    await page.getByLabel("Organisation name").fill("demo Europe Ltd");
    // The name typed answers its error; the other field stays marked and the focus stays in the name.
    await page.getByText("Please enter the organisation's name").waitFor({ state: "detached" });
    expect(await page.getByLabel("Organisation name").getAttribute("aria-invalid")).toBe("false");
    expect(await page.getByLabel("Backups to keep").getAttribute("aria-invalid")).toBe("true");
    expect(await page.getByLabel("Organisation name").evaluate(isFocused)).toBe(true);
    await page.getByLabel("Backups to keep").fill("7");
    // With no field left to correct, the summary goes too.
    await page.getByText("Please correct the fields marked in red.").waitFor({ state: "detached" });
    // A time zone is required: the picker is marked, and a failed save takes the keyboard to it.
    const zone = page.getByRole("combobox", { name: "Time zone" });
    const zoneBefore = await zone.inputValue();
    await page.getByRole("button", { name: "Clear time zone" }).click();
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByText("Please choose a time zone").waitFor();
    expect(await zone.getAttribute("aria-invalid")).toBe("true");
    await expect.poll(() => zone.evaluate(isFocused)).toBe(true);
    await zone.fill(zoneBefore);
    await page.getByRole("listbox").getByRole("option").filter({ hasText: zoneBefore }).first().click();
    await page.getByText("Please choose a time zone").waitFor({ state: "detached" });
    expect(await zone.getAttribute("aria-invalid")).toBeNull();

    await page
      .locator(".select-field")
      .filter({ has: page.getByText("Currency", { exact: true }) })
      .getByRole("button")
      .click();
    await page.getByRole("listbox").getByRole("option", { name: "Euro (EUR)" }).click();
    await page.getByText("Money is written €1,234,567.89 on every screen (en-IE).").waitFor();
    // The form is locked while it saves: the PUT is held until the lock has been seen.
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route("**/api/variance/OrganisationSettings/SubscriptionSettings", async (route) => {
      if (route.request().method() === "PUT") await held;
      await route.continue();
    });
    await page.getByRole("button", { name: "Save" }).click();
    const name = page.getByLabel("Organisation name");
    await expect.poll(() => name.isDisabled()).toBe(true);
    expect(await page.getByRole("button", { name: "Saving…" }).isDisabled()).toBe(true);
    release();
    await page.getByText("The organisation's settings are saved.").waitFor();
    expect(await name.isDisabled()).toBe(false);
    await page.unroute("**/api/variance/OrganisationSettings/SubscriptionSettings");
    await expect.poll(() => page.locator(".top-bar__org").innerText()).toContain("demo Europe Ltd");

    await openFromMenu("Dashboard");
    await cardsDrawn(page);
    for (const id of withDollars) {
      const text = await card(page, id).innerText();
      expect(text, id).toContain("€");
      expect(text, id).not.toContain("$");
    }
    expect(await notReloaded()).toBe(true);
    await screenshotWholePage(page, "settings-level-1-eur.png");
    // In margin too: every card drawn again for it (the grid's mark of the Revenue view still stands
    // until the new view has come in, so the count of drawings is taken first).
    const drawnInRevenue = await drawnCount(page);
    await page.locator(".page__actions").getByRole("radio", { name: "Margin" }).click();
    await page.waitForURL(/dataType=Margin/);
    await cardsDrawn(page, drawnInRevenue);
    for (const id of withDollars) {
      const text = await card(page, id).innerText();
      expect(text, `${id} in margin`).toContain("€");
      expect(text, `${id} in margin`).not.toContain("$");
    }
    await screenshotWholePage(page, "settings-level-1-eur-margin.png");
  }, 180_000);
});
