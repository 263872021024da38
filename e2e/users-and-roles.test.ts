import { mkdirSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { createApiClient } from "@varia/api-client";
import { abilities, createUser, editRole, updateUserDetail } from "@varia/contracts";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTenant, launchChromium, startE2eServer } from "./browser";
import { accessibilityViolations } from "./drill-workspace";
import { totpCode } from "./totp";
import { adminToken, isFocused, signIn, testOutput, uncut } from "./workspace";

const screenshots = join(testOutput, "settings");
mkdirSync(screenshots, { recursive: true });

/** The last mail the outbox holds for an address (the server writes mail there without SMTP_URL). */
function lastMailTo(dataDir: string, email: string): string {
  const outbox = join(dataDir, "outbox");
  const mails = readdirSync(outbox)
    .sort()
    .map((name) => readFileSync(join(outbox, name), "utf8"))
    .filter((mail) => mail.includes(`To: ${email}\r\n`));
  if (!mails.length) throw new Error(`no mail to ${email} in the outbox`);
  return mails.at(-1)!;
}

/** The new user follows the set-password link of their e-mail, in the browser, on the set-password page. */
async function setPasswordThroughLink(page: Page, origin: string, mail: string, password: string) {
  const link = /\/passwordSet\/[0-9a-f-]{36}\/[^\s/]+/.exec(mail);
  if (!link) throw new Error(`no set-password link in the mail:\n${mail}`);
  await page.goto(`${origin}${link[0]}`);
  await page.getByLabel("New password", { exact: true }).fill(password);
  await page.getByLabel("Confirm new password").fill(password);
  await page.getByRole("button", { name: "Set Password" }).click();
  await page.getByText("Your new password is saved. Sign in with it.").waitFor();
}

async function look(page: Page, name: string) {
  expect(await accessibilityViolations(page), `axe-core on ${name}`).toEqual([]);
  await page.screenshot({ path: join(screenshots, `${name}.png`), fullPage: true });
}

const sideMenuLinks = (page: Page) =>
  page.getByRole("navigation", { name: "Main" }).getByRole("link").allTextContents();

describe("users and roles in the browser", () => {
  let browser: Browser;
  let env: Awaited<ReturnType<typeof startE2eServer>>;
  let origin: string;
  let admin: { email: string; password: string };

  beforeAll(async () => {
    // The default tenant lets Node (which does not resolve *.localhost) reach acme over 127.0.0.1.
    env = await startE2eServer({ VARIA_DEFAULT_TENANT: "acme" });
    admin = await createTenant(env.server, "acme", "a long e2e password");
    origin = `http://acme.localhost:${env.port}`;
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await env?.stop();
  });

  it("an admin makes a role and a user; the user sees what the role allows, then less, then is signed out", async () => {
    const adminPage = await (await browser.newContext({ viewport: { width: 1360, height: 900 } })).newPage();
    await signIn(adminPage, origin, admin.email, admin.password);

    // The settings menu from the account menu: an admin sees every entry.
    await adminPage.getByRole("button", { name: /^Account of/ }).click();
    await adminPage.getByRole("menuitem", { name: "Settings" }).click();
    await adminPage.waitForURL("**/variance/settings/menu");
    const entries = adminPage.locator(".settings-menu__title");
    await entries.first().waitFor();
    expect(await entries.allTextContents()).toEqual([
      "Users",
      "Roles",
      "Exclusion lists",
      "Organisation",
      "Backups",
      "Data export",
      "API tokens",
    ]);
    await look(adminPage, "settings-menu");

    // A role: the name is required; then Dashboard View and Reports View.
    await adminPage.getByRole("main").getByRole("link", { name: "Roles" }).click();
    await adminPage.getByRole("heading", { name: "Roles", level: 1 }).waitFor();
    await adminPage.getByRole("link", { name: "New Role" }).click();
    await adminPage.getByRole("checkbox", { name: "Dashboard View" }).waitFor();
    await look(adminPage, "role-new");
    await adminPage.getByRole("button", { name: "Create role" }).click();
    await adminPage.getByText("Enter the role's name.").waitFor();
    expect(await adminPage.getByLabel("Name").getAttribute("aria-invalid")).toBe("true");
    await adminPage.getByLabel("Name").fill("Analyst");
    await adminPage.getByLabel("Description").fill("Dashboards and reports");
    await adminPage.getByRole("checkbox", { name: "Dashboard View" }).check();
    await adminPage.getByRole("checkbox", { name: "Reports View" }).check();
    await adminPage.getByRole("button", { name: "Create role" }).click();
    await adminPage.getByText("The role Analyst is created.").waitFor();
    const rolePage = new URL(adminPage.url()).pathname;
    expect(rolePage).toMatch(/^\/variance\/settings\/role\/[0-9a-f-]{36}$/);
    expect(await adminPage.getByRole("checkbox", { name: "Reports View" }).isChecked()).toBe(true);
    expect(await adminPage.getByRole("checkbox", { name: "Users Manage" }).isChecked()).toBe(false);
    // On a phone: the name has the form's width, and no button breaks its label onto two lines.
    const phone = await (await browser.newContext({ viewport: { width: 390, height: 844 } })).newPage();
    await signIn(phone, origin, admin.email, admin.password, rolePage);
    await phone.getByRole("button", { name: "Save changes" }).waitFor();
    const nameBox = await phone.getByLabel("Name").boundingBox();
    const formBox = await phone.getByRole("form", { name: "Role" }).boundingBox();
    expect(nameBox!.width).toBeGreaterThan(formBox!.width * 0.8);
    for (const label of ["Delete role", "Back to roles", "Save changes"]) {
      const action = phone.locator(".settings-form__actions > .button").filter({ hasText: label });
      const lines = await action.evaluate((button) => {
        const range = button.ownerDocument.createRange();
        range.selectNodeContents(button);
        return new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size;
      });
      expect(lines, label).toBe(1);
    }
    await phone.screenshot({ path: join(screenshots, "role-edit-phone.png"), fullPage: true });
    await phone.context().close();
    await adminPage.getByRole("link", { name: "Back to roles" }).click();
    const roleRow = adminPage.getByRole("row", { name: /Analyst/ });
    await roleRow.waitFor();
    expect(await roleRow.textContent()).toContain("Dashboards and reports");
    await look(adminPage, "role-list");

    // A user with that role; the form names what is missing, then the server's refusal of a taken e-mail.
    await adminPage.goto(`${origin}/variance/settings/user`);
    await adminPage.getByRole("link", { name: "New User" }).click();
    await adminPage.getByRole("checkbox", { name: "Analyst" }).waitFor();
    await adminPage.getByRole("button", { name: "Create user" }).click();
    await adminPage.getByText("Enter the user's name.").waitFor();
    await adminPage.getByText("Enter the user's e-mail address.").waitFor();
    // The keyboard is taken to the first field to fix.
    const nameId = await adminPage.getByLabel("Name").getAttribute("id");
    await expect.poll(() => adminPage.evaluate("document.activeElement?.id")).toBe(nameId);
    expect(await adminPage.getByRole("alert").first().textContent()).toBeTruthy();
    await adminPage.getByLabel("Name").fill("Someone");
    await adminPage.getByLabel("E-mail").fill(admin.email);
    await adminPage.getByRole("button", { name: "Create user" }).click();
    await adminPage.getByText("A user with this e-mail exists").first().waitFor();
    expect(await adminPage.getByLabel("E-mail").getAttribute("aria-invalid")).toBe("true");
    await look(adminPage, "user-new-errors");

    const grace = {
      name: "Grace Hopper",
      // Long enough to run past a phone's width unless it breaks.
      email: "grace.hopper.finance.department@acme.example.com",
      password: "grace's long password",
    };
    await adminPage.getByLabel("Name").fill(grace.name);
    await adminPage.getByLabel("E-mail").fill(grace.email);
    await adminPage.getByRole("checkbox", { name: "Analyst" }).check();
    await adminPage.getByRole("button", { name: "Create user" }).click();
    await adminPage.getByText(`A link to set their password was sent to ${grace.email}.`).waitFor();
    await adminPage.getByText("No password yet: a link to set one is waiting to be used").waitFor();
    await look(adminPage, "user-created");
    // Another link on request: a second mail.
    const mailsToGrace = () =>
      readdirSync(join(env.dataDir, "outbox")).filter((name) =>
        readFileSync(join(env.dataDir, "outbox", name), "utf8").includes(`To: ${grace.email}\r\n`),
      ).length;
    expect(mailsToGrace()).toBe(1);
    await adminPage.getByRole("button", { name: "Send password link" }).click();
    // Said in the Password panel, beside its button.
    await adminPage
      .getByRole("region", { name: "Password" })
      .getByText(`A link to set a password was sent to ${grace.email}.`)
      .waitFor();
    // The button, disabled while the link is sent, has the keyboard's focus back.
    await expect
      .poll(() => adminPage.getByRole("button", { name: "Send password link" }).evaluate(isFocused))
      .toBe(true);
    expect(mailsToGrace()).toBe(2);
    const gracePath = new URL(adminPage.url()).pathname;

    // The list shows her with her role.
    await adminPage.getByRole("link", { name: "Back to users" }).click();
    const row = adminPage.getByRole("row", { name: /Grace Hopper/ });
    await row.waitFor();
    expect(await row.textContent()).toContain("Analyst");
    await look(adminPage, "user-list");

    // On a phone both lists show every column within the screen, nothing cut at its edge: a block
    // for each role and user, its values named.
    const phoneLists = await (await browser.newContext({ viewport: { width: 390, height: 844 } })).newPage();
    await signIn(phoneLists, origin, admin.email, admin.password, "/variance/settings/role");
    const roleList = phoneLists.getByRole("group", { name: "Role list" });
    await roleList.getByText("Dashboards and reports").waitFor();
    for (const text of ["Analyst", "Dashboards and reports", "Users"])
      expect(await roleList.getByText(text, { exact: true }).evaluate(uncut), text).toBe(true);
    const analystEntry = roleList.getByRole("listitem").filter({ hasText: "Analyst" });
    expect(await analystEntry.getByRole("term").allTextContents()).toEqual(["Description", "Users"]);
    expect(await analystEntry.getByRole("definition").allTextContents()).toEqual([
      "Dashboards and reports",
      "1",
    ]);
    expect(await phoneLists.evaluate("document.documentElement.scrollWidth")).toBe(390);
    await look(phoneLists, "role-list-phone");
    await phoneLists.goto(`${origin}/variance/settings/user`);
    const userList = phoneLists.getByRole("group", { name: "User list" });
    await userList.getByText(grace.email).waitFor();
    for (const text of ["Grace Hopper", grace.email, "Analyst", "Status"])
      expect(await userList.getByText(text, { exact: true }).first().evaluate(uncut), text).toBe(true);
    const graceEntry = userList.getByRole("listitem").filter({ hasText: "Grace Hopper" });
    expect(await graceEntry.getByRole("term").allTextContents()).toEqual([
      "E-mail",
      "Roles",
      "Multi-factor",
      "Status",
    ]);
    expect(await phoneLists.evaluate("document.documentElement.scrollWidth")).toBe(390);
    await look(phoneLists, "user-list-phone");
    // Sort by orders the blocks, as a header's click orders the grid on a wider screen.
    const names = () => userList.locator(".stacked-rows__title").allInnerTexts();
    const byName = (await names()).toSorted((a, b) => a.localeCompare(b));
    expect(byName.length).toBeGreaterThan(1);
    const sortBy = userList.getByRole("combobox", { name: "Sort by" });
    expect(await sortBy.evaluate(uncut)).toBe(true);
    await sortBy.selectOption({ label: "Name, Z to A" });
    expect(await names()).toEqual(byName.toReversed());
    await sortBy.selectOption({ label: "Name, A to Z" });
    expect(await names()).toEqual(byName);
    // The link of an entry opens it.
    await userList.getByRole("link", { name: "Grace Hopper" }).click();
    await phoneLists.getByRole("button", { name: "Delete user" }).waitFor();
    // The role's users: her long e-mail address stays within the form.
    await phoneLists.goto(`${origin}${rolePage}`);
    const roleForm = phoneLists.getByRole("form", { name: "Role" });
    await roleForm.getByText(grace.email).waitFor();
    expect(await roleForm.getByText(grace.email).evaluate(uncut)).toBe(true);
    expect(await phoneLists.evaluate("document.documentElement.scrollWidth")).toBe(390);
    await phoneLists.screenshot({ path: join(screenshots, "role-users-phone.png"), fullPage: true });
    await phoneLists.context().close();

    // She sets her password through the mailed link and signs in: only what the role allows.
    const gracePage = await (await browser.newContext({ viewport: { width: 1360, height: 900 } })).newPage();
    await setPasswordThroughLink(gracePage, origin, lastMailTo(env.dataDir, grace.email), grace.password);
    await signIn(gracePage, origin, grace.email, grace.password);
    await gracePage.getByRole("heading", { name: "Stock Type Overview" }).waitFor();
    expect(await sideMenuLinks(gracePage)).toEqual(["Dashboard", "Reports"]);
    await gracePage.getByRole("button", { name: /^Account of/ }).click();
    await gracePage.getByRole("menuitem", { name: "Profile" }).waitFor();
    expect(await gracePage.getByRole("menuitem", { name: "Settings" }).count()).toBe(0);
    await gracePage.keyboard.press("Escape");
    await gracePage.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Reports" }).click();
    await gracePage.getByRole("heading", { name: "Reports", level: 1 }).waitFor();

    // The admin narrows the role: no more reports. Her next page shows it.
    await adminPage.goto(`${origin}${rolePage}`);
    await adminPage.getByRole("checkbox", { name: "Reports View" }).uncheck();
    await adminPage.getByRole("button", { name: "Save changes" }).click();
    await adminPage.getByText("Your changes are saved.").waitFor();
    await look(adminPage, "role-edit");

    // Her menu still lists Reports (nothing has told the page yet); the next page she opens asks again.
    await gracePage
      .getByRole("navigation", { name: "Main" })
      .getByRole("link", { name: "Dashboard" })
      .click();
    await gracePage.getByRole("heading", { name: "Stock Type Overview" }).waitFor();
    await expect.poll(() => sideMenuLinks(gracePage)).toEqual(["Dashboard"]);
    // An address she kept refuses her too.
    await gracePage.evaluate(
      'history.pushState(null, "", "/variance/reports/types"); dispatchEvent(new PopStateEvent("popstate"))',
    );
    await gracePage.getByRole("heading", { name: "You do not have access to the Reports screen" }).waitFor();
    expect(await gracePage.getByRole("main").textContent()).toContain("Variance / Reports / View");
    // What she may open instead: the dashboards, which her role still grants.
    await gracePage.getByRole("main").getByText("You can open:").waitFor();
    expect(await gracePage.getByRole("main").getByRole("list").getByRole("link").allTextContents()).toEqual([
      "Dashboard",
    ]);
    // Integrations are not hers either: the overview says so rather than offering an upload she may not make.
    await gracePage.evaluate(
      'history.pushState(null, "", "/integration/overview"); dispatchEvent(new PopStateEvent("popstate"))',
    );
    await gracePage
      .getByRole("heading", { name: "You do not have access to the Integrations screen" })
      .waitFor();
    expect(await gracePage.getByRole("button", { name: "Upload" }).count()).toBe(0);

    // The admin deletes her, after a confirmation that says what ends.
    await adminPage.goto(`${origin}${gracePath}`);
    await adminPage.getByText("A password is set.").waitFor();
    await adminPage.getByRole("button", { name: "Delete user" }).click();
    const confirm = adminPage.getByRole("alertdialog", { name: "Delete Grace Hopper?" });
    await confirm.getByText("their sessions end at once and their API tokens are revoked").waitFor();
    await look(adminPage, "user-delete-confirm");
    await confirm.getByRole("button", { name: "Delete user" }).click();
    await adminPage.getByText("Grace Hopper is deleted.").waitFor();
    await adminPage.waitForURL("**/variance/settings/user");
    expect(await adminPage.getByRole("row", { name: /Grace Hopper/ }).count()).toBe(0);

    // Her session has ended: her next page is the login view.
    await gracePage
      .getByRole("navigation", { name: "Main" })
      .getByRole("link", { name: "Dashboard" })
      .click();
    await gracePage.getByRole("button", { name: "Login" }).waitFor();
    expect(await gracePage.getByRole("navigation", { name: "Main" }).count()).toBe(0);
  }, 180_000);

  it("an admin's own page offers no change the server refuses: not their admin flag, not disabling or deleting themselves", async () => {
    const page = await (await browser.newContext({ viewport: { width: 1360, height: 900 } })).newPage();
    await signIn(page, origin, admin.email, admin.password, "/variance/settings/user");
    await page.getByRole("main").getByRole("link", { name: "admin", exact: true }).click();
    await page.getByRole("button", { name: "Save changes" }).waitFor();
    const administrator = page.getByRole("checkbox", { name: "Administrator" });
    expect(await administrator.isChecked()).toBe(true);
    expect(await administrator.isDisabled()).toBe(true);
    await page
      .getByText("You cannot remove your own administrator rights: another administrator can.")
      .waitFor();
    expect(await page.getByRole("checkbox", { name: "Disabled" }).isDisabled()).toBe(true);
    expect(await page.getByRole("button", { name: "Delete user" }).isDisabled()).toBe(true);
    // With multi-factor set up, theirs is reset from the profile (password and code), not here.
    const adminRow = env.server.database.db.updateTable("users").where("email", "=", admin.email);
    await adminRow.set({ mfa_enabled: true, mfa_secret: "JBSWY3DPEHPK3PXP" }).execute();
    try {
      await page.reload();
      const mfa = page.getByRole("region", { name: "Multi-factor authentication" });
      await mfa
        .getByText("Yours is reset from your profile, which asks for your password and a code.")
        .waitFor();
      expect(await mfa.getByRole("button", { name: "Reset multi-factor" }).count()).toBe(0);
    } finally {
      await adminRow.set({ mfa_enabled: false, mfa_secret: null }).execute();
    }
    await page.reload();
    // What they may change still saves, and their new name is in the account menu at once.
    await page.getByLabel("Name").fill("Ada Admin");
    await page.getByRole("button", { name: "Save changes" }).click();
    await page.getByText("Your changes are saved.").waitFor();
    await page.getByRole("button", { name: "Account of Ada Admin" }).waitFor();
    // Back to the name the other tests know.
    await page.getByLabel("Name").fill("admin");
    await page.getByRole("button", { name: "Save changes" }).click();
    await page.getByRole("button", { name: "Account of admin" }).waitFor();
    await look(page, "user-self");
    await page.context().close();
  }, 60_000);

  it("a disabled user is offered no password link until they are enabled again", async () => {
    const token = await adminToken(env.server, "acme", admin.email);
    const client = createApiClient({
      baseUrl: `http://127.0.0.1:${env.port}`,
      headers: () => ({ authorization: `Bearer ${token}` }),
      retry: false,
    });
    const kay = { name: "Kay Leaver", email: "kay@acme.example.com" };
    const { userID } = await client.call(createUser, { body: kay });
    await client.call(updateUserDetail, { body: { userID, ...kay, disabled: true } });
    client.dispose();
    const page = await (await browser.newContext({ viewport: { width: 1360, height: 900 } })).newPage();
    await signIn(page, origin, admin.email, admin.password, `/variance/settings/user/${userID}`);
    const panel = page.getByRole("region", { name: "Password" });
    await panel
      .getByText("Disabled, so they cannot sign in: untick Disabled and save to send them a link.")
      .waitFor();
    expect(await panel.getByRole("button", { name: "Send password link" }).count()).toBe(0);
    await look(page, "user-disabled");
    await page.getByRole("checkbox", { name: "Disabled" }).uncheck();
    await page.getByRole("button", { name: "Save changes" }).click();
    await page.getByText("Your changes are saved.").waitFor();
    await panel.getByRole("button", { name: "Send password link" }).click();
    await panel.getByText(`A link to set a password was sent to ${kay.email}.`).waitFor();
    await page.context().close();
  }, 60_000);

  it("a user who manages users cannot give a role with more than they hold: the server's refusal is shown", async () => {
    // Set up over the API as an admin's script would: a role that manages users, one that views
    // the dashboards, and Ada who holds only the first.
    const token = await adminToken(env.server, "acme", admin.email);
    const client = createApiClient({
      baseUrl: `http://127.0.0.1:${env.port}`,
      headers: () => ({ authorization: `Bearer ${token}` }),
      retry: false,
    });
    const managers = await client.call(editRole, {
      body: { roleInfo: { name: "User managers" }, activeToggles: [abilities.settingsUsersManage] },
    });
    await client.call(editRole, {
      body: { roleInfo: { name: "Viewers" }, activeToggles: [abilities.varianceDashboardView] },
    });
    const ada = { email: "ada@acme.example.com", password: "ada's long password" };
    await client.call(createUser, {
      body: { name: "Ada Lovelace", email: ada.email, roleIDs: [managers.roleID] },
    });
    client.dispose();
    const page = await (await browser.newContext({ viewport: { width: 1360, height: 900 } })).newPage();
    await setPasswordThroughLink(page, origin, lastMailTo(env.dataDir, ada.email), ada.password);
    await signIn(page, origin, ada.email, ada.password, "/variance/settings/menu");
    const entries = page.locator(".settings-menu__title");
    await entries.first().waitFor();
    expect(await entries.allTextContents()).toEqual(["Users"]);
    await look(page, "settings-menu-user-manager");

    await page.getByRole("main").getByRole("link", { name: "Users" }).click();
    await page.getByRole("link", { name: "New User" }).click();
    // Only an admin makes an admin: the box is not hers to tick.
    expect(await page.getByRole("checkbox", { name: "Administrator" }).isDisabled()).toBe(true);
    await page
      .getByText(
        "Holds every ability, whatever their roles. Only an administrator can make one, so you cannot.",
      )
      .waitFor();
    await page.getByLabel("Name").fill("Charles Babbage");
    await page.getByLabel("E-mail").fill("charles@acme.example.com");
    await page.getByRole("checkbox", { name: "Viewers" }).check();
    await page.getByRole("button", { name: "Create user" }).click();
    await page.getByText("You cannot give a role with an ability you do not hold").waitFor();
    await page.getByText("Not held: Variance/Dashboard/View").waitFor();
    expect(new URL(page.url()).pathname).toBe("/variance/settings/user/new");
    // The form is usable again, and without the role the user is made.
    expect(await page.getByRole("button", { name: "Create user" }).isEnabled()).toBe(true);
    await look(page, "user-new-refused");
    await page.getByRole("checkbox", { name: "Viewers" }).uncheck();
    await page.getByRole("button", { name: "Create user" }).click();
    await page.getByText("Charles Babbage is added.").waitFor();
    // Charles is hers to change: the page offers it all.
    for (const action of ["Save changes", "Send password link", "Delete user"])
      expect(await page.getByRole("button", { name: action }).isEnabled(), action).toBe(true);

    // The admin is not hers to change: the page says so, with the server's reason, and offers none
    // of the changes the server would refuse (saving, a password link, deleting).
    await page.getByRole("link", { name: "Back to users" }).click();
    await page.getByRole("main").getByRole("link", { name: "admin", exact: true }).click();
    await page
      .getByText("You can see admin but not change them. Only an admin can change an admin.")
      .waitFor();
    const noticeTop = (await page.getByRole("note").boundingBox())!.y;
    const formTop = (await page.getByRole("form", { name: "User details" }).boundingBox())!.y;
    expect(noticeTop - formTop).toBeLessThanOrEqual(24);
    for (const action of ["Save changes", "Send password link", "Delete user"])
      expect(await page.getByRole("button", { name: action }).count(), action).toBe(0);
    expect(await page.getByLabel("Name").isDisabled()).toBe(true);
    expect(await page.getByRole("checkbox", { name: "Administrator" }).isDisabled()).toBe(true);
    await page.getByRole("link", { name: "Back to users" }).waitFor();
    await look(page, "user-not-changeable");

    // Roles are not hers to open: not in her menu, and the address says what she lacks.
    expect(
      await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Roles" }).count(),
    ).toBe(0);
    await page.goto(`${origin}/variance/settings/role`);
    await page.getByRole("heading", { name: "You do not have access to the Roles screen" }).waitFor();
    await page.getByTestId("loading-overlay").waitFor({ state: "detached" });
    expect(await page.getByRole("main").textContent()).toContain("Variance / Roles / Manage");
    await look(page, "role-list-no-permission");
  }, 120_000);

  it("a user who manages roles sees a role granting more than they hold read-only, with no Save or Delete", async () => {
    const token = await adminToken(env.server, "acme", admin.email);
    const client = createApiClient({
      baseUrl: `http://127.0.0.1:${env.port}`,
      headers: () => ({ authorization: `Bearer ${token}` }),
      retry: false,
    });
    const roleManagers = await client.call(editRole, {
      body: {
        roleInfo: { name: "Role managers" },
        activeToggles: [abilities.settingsRolesManage, abilities.varianceDashboardView],
      },
    });
    const keepers = await client.call(editRole, {
      body: { roleInfo: { name: "Backup keepers" }, activeToggles: [abilities.settingsBackupsManage] },
    });
    const dashboards = await client.call(editRole, {
      body: { roleInfo: { name: "Dashboards" }, activeToggles: [abilities.varianceDashboardView] },
    });
    const rob = { email: "rob@acme.example.com", password: "rob's long password" };
    await client.call(createUser, {
      body: { name: "Rob Roles", email: rob.email, roleIDs: [roleManagers.roleID] },
    });
    client.dispose();
    const page = await (await browser.newContext({ viewport: { width: 1360, height: 900 } })).newPage();
    await setPasswordThroughLink(page, origin, lastMailTo(env.dataDir, rob.email), rob.password);
    await signIn(page, origin, rob.email, rob.password, `/variance/settings/role/${keepers.roleID}`);
    await page
      .getByText(
        "You can see this role but not change or delete it: it grants an ability you do not hold (Variance/Backups/Manage).",
      )
      .waitFor();
    for (const action of ["Save changes", "Delete role"])
      expect(await page.getByRole("button", { name: action }).count(), action).toBe(0);
    // The notice opens the form, as its fields would, with no gap above it.
    const noticeTop = (await page.getByRole("note").boundingBox())!.y;
    const formTop = (await page.getByRole("form", { name: "Role" }).boundingBox())!.y;
    expect(noticeTop - formTop).toBeLessThanOrEqual(24);
    expect(await page.getByLabel("Name").isDisabled()).toBe(true);
    await look(page, "role-not-changeable");
    // A role within his abilities is his to change.
    await page.goto(`${origin}/variance/settings/role/${dashboards.roleID}`);
    await page.getByRole("button", { name: "Save changes" }).waitFor();
    expect(await page.getByRole("button", { name: "Delete role" }).isEnabled()).toBe(true);
    expect(await page.getByRole("note").count()).toBe(0);
    await page.context().close();
  }, 60_000);

  it("an admin resets a user's multi-factor authentication: they enrol again at their next sign-in", async () => {
    const token = await adminToken(env.server, "acme", admin.email);
    const client = createApiClient({
      baseUrl: `http://127.0.0.1:${env.port}`,
      headers: () => ({ authorization: `Bearer ${token}` }),
      retry: false,
    });
    const alan = { name: "Alan Turing", email: "alan@acme.example.com", password: "alan's long password" };
    await client.call(createUser, { body: { name: alan.name, email: alan.email } });
    client.dispose();
    const linkPage = await browser.newPage();
    await setPasswordThroughLink(linkPage, origin, lastMailTo(env.dataDir, alan.email), alan.password);
    await linkPage.close();

    // Alan signs in and sets up multi-factor with his authenticator.
    const alanSignsIn = async () => {
      const page = await browser.newPage();
      await page.goto(`${origin}/`);
      await page.getByLabel("Email").fill(alan.email);
      await page.getByLabel("Password").fill(alan.password);
      await page.getByRole("button", { name: "Login" }).click();
      await page.getByRole("heading", { name: "Multi-factor authentication" }).waitFor();
      return page;
    };
    const first = await alanSignsIn();
    await first.getByRole("img", { name: "QR code for your authenticator app" }).waitFor();
    const secret = ((await first.locator(".totp-qr code").textContent()) ?? "").replace(/\s/g, "");
    await first.getByLabel("Digit 1 of 6").fill(totpCode(secret));
    await first.getByRole("button", { name: "Verify" }).click();
    await first.locator("main#main-content").waitFor();
    await first.close();

    const adminPage = await (await browser.newContext({ viewport: { width: 1360, height: 900 } })).newPage();
    await signIn(adminPage, origin, admin.email, admin.password, "/variance/settings/user");
    await adminPage.getByRole("link", { name: alan.name }).click();
    await adminPage.getByText("Set up: they sign in with a code from their authenticator app.").waitFor();
    await adminPage.getByRole("button", { name: "Reset multi-factor" }).click();
    const confirm = adminPage.getByRole("alertdialog", {
      name: `Reset multi-factor authentication of ${alan.name}?`,
    });
    await confirm.waitFor();
    await look(adminPage, "user-mfa-reset-confirm");
    await confirm.getByRole("button", { name: "Reset multi-factor" }).click();
    await adminPage
      .getByRole("region", { name: "Multi-factor authentication" })
      .getByText(`Multi-factor authentication of ${alan.name} is reset`)
      .waitFor();
    await adminPage.getByText("Not set up.").waitFor();
    expect(await adminPage.getByRole("button", { name: "Reset multi-factor" }).count()).toBe(0);
    // The button gone, the focus is on its panel's heading rather than lost to the page.
    await expect
      .poll(() => adminPage.getByRole("heading", { name: "Multi-factor authentication" }).evaluate(isFocused))
      .toBe(true);

    // His next sign-in shows a new QR code to enrol again.
    const again = await alanSignsIn();
    await again.getByRole("img", { name: "QR code for your authenticator app" }).waitFor();
    await again.close();
  }, 120_000);
});
