import { createApiClient } from "@varia/api-client";
import { abilities, createUser, editRole, updateUserDetail } from "@varia/contracts";
import { createTokenForUser } from "@varia/server";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTenant, launchChromium, startE2eServer } from "./browser";
import { accessibilityViolations } from "./drill-workspace";
import { adminToken, isFocused, screenshotWholePage, signIn, uncut } from "./workspace";

describe("API tokens in the browser", () => {
  let browser: Browser;
  let env: Awaited<ReturnType<typeof startE2eServer>>;
  let origin: string;
  let api: string;
  let account: { email: string; password: string };

  beforeAll(async () => {
    // The default tenant is acme, so that a call to 127.0.0.1 with one of its tokens reaches it.
    env = await startE2eServer({ VARIA_DEFAULT_TENANT: "acme" });
    account = await createTenant(env.server, "acme", "the admin's long password");
    origin = `http://acme.localhost:${env.port}`;
    api = `http://127.0.0.1:${env.port}/api/variance`;
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await env?.stop();
  });

  /** A call as a script would make it, with the token as its bearer; the answer's status. */
  const callWith = async (token: string, path: string) =>
    (await fetch(`${api}/${path}`, { headers: { authorization: `Bearer ${token}` } })).status;

  async function createToken(page: Page, name: string, abilities: string[]) {
    await page.getByLabel("Token name").fill(name);
    for (const ability of abilities) await page.getByRole("checkbox", { name: ability }).check();
    await page.getByRole("button", { name: "Create token" }).click();
    await page.getByText(`Token '${name}' is created`).waitFor();
    return page.getByLabel("New token").inputValue();
  }

  it("creates a token with chosen abilities that works over HTTP, and revokes it", async () => {
    const context = await browser.newContext();
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin });
    const page = await context.newPage();
    await signIn(page, origin, account.email, account.password, "/variance/settings/token");
    await page.getByRole("heading", { name: "API Tokens", exact: true }).waitFor();
    await page.getByText("No API tokens yet.").waitFor();
    expect(await page.title()).toBe("API Tokens | Varia");

    // A name and at least one ability are asked for before anything is sent.
    await page.getByRole("button", { name: "Create token" }).click();
    await page.getByText("Please enter a name for the token.").waitFor();
    // The field to fix is marked, and the keyboard is taken to it.
    const tokenName = page.getByLabel("Token name");
    expect(await tokenName.getAttribute("aria-invalid")).toBe("true");
    expect(await tokenName.evaluate(isFocused)).toBe(true);
    // Without an ability, the keyboard is taken to the first one.
    await tokenName.fill("nightly export");
    await page.getByRole("button", { name: "Create token" }).click();
    await page.getByText("Choose at least one ability for the token.").waitFor();
    expect(await page.getByRole("checkbox", { name: "Dashboard: View" }).evaluate(isFocused)).toBe(true);

    const token = await createToken(page, "nightly export", ["Dashboard: View"]);
    expect(token.length).toBeGreaterThan(30);
    // The new token's value has the keyboard's focus (Create token, disabled while it ran, lost
    // it), selected for copying: the next thing a screen reader reads and Ctrl+C copies.
    const value = page.getByLabel("New token");
    await expect.poll(() => value.evaluate(isFocused)).toBe(true);
    expect(
      await value.evaluate((input) => {
        const field = input as unknown as { selectionStart: number; selectionEnd: number; value: string };
        return field.selectionEnd - field.selectionStart === field.value.length;
      }),
    ).toBe(true);
    await page.getByRole("button", { name: "Copy" }).click();
    await page.getByRole("button", { name: "Copied" }).waitFor();
    expect(await page.evaluate("navigator.clipboard.readText()")).toBe(token);
    const row = page.getByRole("row", { name: /nightly export/ });
    await row.getByText("Dashboard: View").waitFor();
    expect(await row.textContent()).toContain(token.slice(0, 10));
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshotWholePage(page, "password/tokens-created.png");
    // On a phone each token is a block: its values named and its Revoke button on screen, the page
    // no wider than the screen.
    await page.setViewportSize({ width: 390, height: 844 });
    const tokens = page.getByRole("region", { name: "The organisation's API tokens" });
    expect(await page.getByRole("button", { name: "Revoke nightly export" }).evaluate(uncut)).toBe(true);
    expect(await page.evaluate("document.documentElement.scrollWidth")).toBe(390);
    for (const label of ["Abilities", "Last used"])
      expect(await tokens.locator(`td[data-label="${label}"]`).evaluate(uncut), label).toBe(true);
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshotWholePage(page, "password/tokens-phone.png");
    await page.setViewportSize({ width: 1280, height: 720 });

    // The token does what its ability allows, and nothing else.
    expect(await callWith(token, "VarianceOverview/ActualPeriods")).toBe(200);
    expect(await callWith(token, "token")).toBe(403);

    await row.getByRole("button", { name: "Revoke nightly export" }).click();
    const confirm = page.getByRole("alertdialog", { name: "Revoke 'nightly export'?" });
    await confirm.waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshotWholePage(page, "password/tokens-revoke.png");
    await confirm.getByRole("button", { name: "Revoke token" }).click();
    await page.getByText("Token 'nightly export' is revoked.").waitFor();
    await page.getByText("No API tokens yet.").waitFor();
    // Its Revoke button gone, the focus is on the list's heading rather than lost to the page.
    await expect
      .poll(() => page.getByRole("heading", { name: "The organisation's API tokens" }).evaluate(isFocused))
      .toBe(true);
    expect(await callWith(token, "VarianceOverview/ActualPeriods")).toBe(401);
    await context.close();
  }, 120_000);

  it("names what a token no longer does: abilities its user lost, and a disabled user's token refused", async () => {
    // Set up as an admin's script would: Lee with a role, and a token of Lee's holding that role's abilities.
    const adminScript = await adminToken(env.server, "acme", account.email);
    const client = createApiClient({
      baseUrl: `http://127.0.0.1:${env.port}`,
      headers: () => ({ authorization: `Bearer ${adminScript}` }),
      retry: false,
    });
    const viewers = await client.call(editRole, {
      body: { roleInfo: { name: "Viewers" }, activeToggles: [abilities.varianceDashboardView] },
    });
    const lee = { name: "Lee", email: "lee@acme.example.com", roleIDs: [viewers.roleID] };
    const { userID } = await client.call(createUser, { body: lee });
    const leeToken = (
      await createTokenForUser(env.server.database.db, { tenant: "acme", email: lee.email, name: "lee's" })
    ).token;
    expect(await callWith(leeToken, "VarianceOverview/ActualPeriods")).toBe(200);

    const page = await (await browser.newContext()).newPage();
    await signIn(page, origin, account.email, account.password, "/variance/settings/token");
    const row = page.getByRole("row", { name: /lee's/ });
    await row.getByText("Dashboard: View").waitFor();
    expect(await row.locator(".tokens__lapsed").count()).toBe(0);

    // Lee's role is taken away: the token is refused the dashboards, and the list says why.
    await client.call(updateUserDetail, { body: { userID, ...lee, roleIDs: [] } });
    expect(await callWith(leeToken, "VarianceOverview/ActualPeriods")).toBe(403);
    await page.reload();
    await row.getByText("Not in force, as Lee no longer holds it: Dashboard: View").waitFor();

    // Lee is disabled: the token is refused altogether.
    await client.call(updateUserDetail, { body: { userID, ...lee, disabled: true } });
    expect(await callWith(leeToken, "VarianceOverview/ActualPeriods")).toBe(401);
    await page.reload();
    await row.getByText("Refused: Lee is disabled.").waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshotWholePage(page, "password/tokens-lapsed.png");
    client.dispose();
    await page.context().close();
  }, 120_000);

  it("lists one's own tokens on the profile", async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await signIn(page, origin, account.email, account.password);
    await page.getByRole("button", { name: /^Account of/ }).click();
    await page.getByRole("menuitem", { name: "Profile" }).click();
    const profile = page.getByRole("dialog", { name: "Profile" });
    await profile.getByRole("heading", { name: "Your API tokens" }).waitFor();
    const token = await createToken(page, "from the profile", ["Reports: View"]);
    await profile.getByRole("row", { name: /from the profile/ }).waitFor();
    // Reports: View reads the months with data (the reports start from them), not the dashboards.
    expect(await callWith(token, "VarianceOverview/ActualPeriods")).toBe(200);
    expect(await callWith(token, "VarianceOverview/OverviewKpi")).toBe(403);
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshotWholePage(page, "password/profile-tokens.png");
    await context.close();
  }, 120_000);
});
