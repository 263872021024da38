import { mkdirSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { createApiClient } from "@varia/api-client";
import { createUser } from "@varia/contracts";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTenant, launchChromium, startE2eServer } from "./browser";
import { accessibilityViolations } from "./drill-workspace";
import { adminToken, isFocused, screenshotWholePage, signIn, testOutput } from "./workspace";

mkdirSync(join(testOutput, "password"), { recursive: true });
const shot = (page: Page, name: string) => screenshotWholePage(page, join("password", `${name}.png`));

/** The path of the newest link to `page` (passwordReset or passwordSet) mailed to `to`, once it is there. */
async function mailedLink(
  dataDir: string,
  to: string,
  page: "passwordReset" | "passwordSet",
  seen = new Set<string>(),
) {
  const outbox = join(dataDir, "outbox");
  let path = "";
  await expect
    .poll(
      () => {
        const files = readdirSync(outbox, { withFileTypes: true })
          .map((f) => f.name)
          .sort();
        for (const file of files.reverse()) {
          const mail = readFileSync(join(outbox, file), "utf8");
          const match = new RegExp(`https?://\\S+(/${page}/[\\w-]+/[\\w-]+)`).exec(mail);
          if (mail.includes(`To: ${to}\r\n`) && match?.[1] && !seen.has(match[1])) {
            path = match[1];
            return true;
          }
        }
        return false;
      },
      { timeout: 15_000 },
    )
    .toBe(true);
  seen.add(path);
  return path;
}

describe("the password pages", () => {
  let browser: Browser;
  let env: Awaited<ReturnType<typeof startE2eServer>>;
  let origin: string;
  let account: { email: string; password: string };
  const seenLinks = new Set<string>();
  const log: { msg?: string; frontEnd?: { recordType: string; recordData: string } }[] = [];

  beforeAll(async () => {
    // The default tenant is acme, so that an API call to 127.0.0.1 reaches it.
    env = await startE2eServer(
      { VARIA_DEFAULT_TENANT: "acme" },
      { logStream: { write: (line) => log.push(JSON.parse(line)) } },
    );
    account = await createTenant(env.server, "acme", "the first long password");
    origin = `http://acme.localhost:${env.port}`;
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await env?.stop();
  });

  /** A page of its own browser context (axe-core needs one; cookies stay apart). */
  const newPage = async () => (await browser.newContext()).newPage();

  async function openLogin(path = "/"): Promise<Page> {
    const page = await newPage();
    await page.goto(`${origin}${path}`);
    await page.getByTestId("loading-overlay").waitFor({ state: "detached" });
    return page;
  }

  it("resets a forgotten password through the mailed link, then refuses the used link", async () => {
    const page = await openLogin();
    // The organisation's display name, not the host's label ('acme').
    await page.getByText("You are logging in to acme Ltd", { exact: true }).waitFor();
    await page.getByRole("button", { name: "Forgot Password?" }).click();
    expect(new URL(page.url()).pathname).toBe("/forgot-password");
    await page.getByLabel("Email").fill(account.email);
    await page.getByRole("button", { name: "Reset Password" }).click();
    await expect
      .poll(() => page.getByRole("status").textContent())
      .toBe(
        "If you have entered a valid email address, you'll soon receive an email with a link to reset your password",
      );
    expect(await page.getByLabel("Email").isDisabled()).toBe(true);
    expect(await accessibilityViolations(page)).toEqual([]);
    await shot(page, "forgot-password-sent");

    const link = await mailedLink(env.dataDir, account.email, "passwordReset", seenLinks);
    await page.goto(`${origin}${link}`);
    await page.getByRole("heading", { name: "Choose a new password" }).waitFor();
    expect(await page.title()).toBe("Password Reset | Varia");
    expect(await accessibilityViolations(page)).toEqual([]);

    // The server's rules, shown and enforced; the strength follows what is typed.
    await page.getByText("At least 12 and at most 256 characters").waitFor();
    await page.getByLabel("New password", { exact: true }).fill("too short");
    await page.getByText("Strength: Too short").waitFor();
    await page.getByLabel("Confirm new password").fill("too short");
    await page.getByRole("button", { name: "Reset Password" }).click();
    await page.getByText("The password must have at least 12 characters.").waitFor();
    await page.getByLabel("New password", { exact: true }).fill("a brand new long password");
    await page.getByText("Strength: Very strong").waitFor();
    await page.getByLabel("Confirm new password").fill("a brand new long passw0rd");
    await page.getByRole("button", { name: "Reset Password" }).click();
    await page.getByText("The two passwords are not the same.").waitFor();
    await page.getByLabel("Confirm new password").fill("a brand new long password");
    await shot(page, "reset-form");
    const logFromSaving = log.length;
    await page.getByRole("button", { name: "Reset Password" }).click();

    // Back on the login view with the notice and the e-mail filled in (never the password): the
    // keyboard is on the password. The address is not in the address bar, nor in what the server
    // logged from the new password's request on.
    await page.waitForURL(`${origin}/`);
    await page.getByText("Your new password is saved. Sign in with it.").waitFor();
    expect(await page.getByLabel("Email").inputValue()).toBe(account.email);
    expect(await page.getByLabel("Password").inputValue()).toBe("");
    await expect.poll(() => page.getByLabel("Password").evaluate(isFocused)).toBe(true);
    expect(page.url()).toBe(`${origin}/`);
    expect(JSON.stringify(log.slice(logFromSaving))).not.toContain(account.email);
    expect(await accessibilityViolations(page)).toEqual([]);
    await shot(page, "login-after-reset");
    // Taken once: the history entry keeps the notice, not the address, so a reload starts empty.
    expect(await page.evaluate("JSON.stringify(history.state)")).not.toContain(account.email);
    await page.reload();
    await page.getByText("Your new password is saved. Sign in with it.").waitFor();
    expect(await page.getByLabel("Email").inputValue()).toBe("");
    await page.getByLabel("Email").fill(account.email);
    await page.getByLabel("Password").fill(account.password);
    await page.getByRole("button", { name: "Login" }).click();
    await page.getByText("Unable to login. Either email or password is incorrect").waitFor();
    await page.getByLabel("Password").fill("a brand new long password");
    await page.getByRole("button", { name: "Login" }).click();
    await page.getByRole("heading", { name: "Multi-factor authentication" }).waitFor();
    account.password = "a brand new long password";

    // The same link again: used, explained, with the way to a new one.
    const again = await newPage();
    await again.goto(`${origin}${link}`);
    await again.getByTestId("loading-overlay").waitFor({ state: "detached" });
    await again.getByRole("heading", { name: "This link can no longer be used" }).waitFor();
    await again.getByText("This password reset link has expired or has already been used.").waitFor();
    expect(await again.getByLabel("New password", { exact: true }).count()).toBe(0);
    expect(await accessibilityViolations(again)).toEqual([]);
    await shot(again, "used-link");
    await again.getByRole("link", { name: "Request a new link" }).click();
    await again.getByRole("heading", { name: "Reset your password" }).waitFor();
    expect(new URL(again.url()).pathname).toBe("/passwordReset");
    await page.context().close();
    await again.context().close();
  }, 120_000);

  it("requests a link on /passwordReset and refuses it once it has expired", async () => {
    const page = await openLogin("/passwordReset");
    await page.getByRole("heading", { name: "Reset your password" }).waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
    await page.getByLabel("Email").fill(account.email);
    await page.getByRole("button", { name: "Reset Password" }).click();
    await page
      .getByText(
        "If you have entered a valid email address, you'll soon receive an email with a link to reset your password",
      )
      .waitFor();
    expect(await page.getByRole("button", { name: "Reset Password" }).isDisabled()).toBe(true);
    await shot(page, "request-sent");

    const link = await mailedLink(env.dataDir, account.email, "passwordReset", seenLinks);
    const tokenID = link.split("/")[2]!;
    // The link's hour is over: its expiry is moved into the past in the database.
    await env.server.database.db
      .updateTable("password_tokens")
      .set({ expires_at: new Date(Date.now() - 60_000) })
      .where("id", "=", tokenID)
      .execute();
    await page.goto(`${origin}${link}`);
    await page.getByText("This password reset link has expired or has already been used.").waitFor();
    await page
      .getByText("A reset link works once, within an hour of being sent.", { exact: false })
      .waitFor();
    await page.context().close();
  });

  it("shows the neutral confirmation for an address without an account, and the error when the server fails", async () => {
    const page = await openLogin("/passwordReset");
    await page.getByLabel("Email").fill("nobody@example.com");
    await page.getByRole("button", { name: "Reset Password" }).click();
    await page
      .getByText(
        "If you have entered a valid email address, you'll soon receive an email with a link to reset your password",
      )
      .waitFor();

    const failing = await openLogin("/passwordReset");
    await failing.route("**/api/ResetPassword/ResetPasswordRequest", (route) =>
      route.fulfill({ status: 500, contentType: "application/json", body: '{"message":"down"}' }),
    );
    await failing.getByLabel("Email").fill(account.email);
    await failing.getByRole("button", { name: "Reset Password" }).click();
    await expect
      .poll(() => failing.getByRole("alert").textContent())
      .toBe("An error occurred while requesting password reset, please try again");
    // The form opens again for another try.
    expect(await failing.getByRole("button", { name: "Reset Password" }).isDisabled()).toBe(false);
    await page.context().close();
    await failing.context().close();
  });

  it("lets a new user set a password through the mailed set-password link", async () => {
    const token = await adminToken(env.server, "acme", account.email);
    const api = createApiClient({
      baseUrl: `http://127.0.0.1:${env.port}`,
      headers: () => ({ authorization: `Bearer ${token}` }),
    });
    await api.call(createUser, { body: { name: "Nora New", email: "nora@acme.example.com" } });
    const link = await mailedLink(env.dataDir, "nora@acme.example.com", "passwordSet", seenLinks);

    const page = await openLogin(link);
    await page.getByRole("heading", { name: "Set your password" }).waitFor();
    expect(await page.title()).toBe("Set Password | Varia");
    expect(await accessibilityViolations(page)).toEqual([]);
    // A password manager saves the new password under her address: the form that holds the two
    // new-password fields has a hidden username field with it.
    const form = page.locator("form", { has: page.getByLabel("New password", { exact: true }) });
    const username = form.locator('input[autocomplete="username"]');
    expect(await username.count()).toBe(1);
    expect(await username.inputValue()).toBe("nora@acme.example.com");
    expect(await username.isHidden()).toBe(true);
    expect(await form.locator('input[autocomplete="new-password"]').count()).toBe(2);
    await page.getByLabel("New password", { exact: true }).fill("nora's own long password");
    await page.getByLabel("Confirm new password").fill("nora's own long password");
    await shot(page, "set-form");
    await page.getByRole("button", { name: "Set Password" }).click();
    await page.getByText("Your new password is saved. Sign in with it.").waitFor();
    // Her e-mail is filled in: only her new password is left to type.
    expect(await page.getByLabel("Email").inputValue()).toBe("nora@acme.example.com");
    await page.getByLabel("Password").fill("nora's own long password");
    await page.getByRole("button", { name: "Login" }).click();
    await page.getByRole("heading", { name: "Multi-factor authentication" }).waitFor();

    // A set-password link that has been used says so in its own words.
    const again = await newPage();
    await again.goto(`${origin}${link}`);
    await again.getByText("This link to set your password has expired or has already been used.").waitFor();
    // The browser asked the server for the page at the link's address: the log has not its secret.
    const secret = link.split("/")[3]!;
    expect(JSON.stringify(log)).not.toContain(secret);
    await page.context().close();
    await again.context().close();
  });

  it("outside demo mode offers sign-up and the integration overview, and logs an unknown path's record", async () => {
    const page = await newPage();
    await page.goto(`${origin}/sign-up`);
    await page.getByRole("heading", { name: "Sign up to Varia" }).waitFor();
    await signIn(page, origin, account.email, account.password, "/integration/overview");
    await page.getByRole("heading", { name: "Integrations", exact: true }).waitFor();
    expect(await page.getByText("The requested page was not found").count()).toBe(0);

    // The front-end 404 record reaches the server's log, with the path (its secret-like part hidden).
    await page.goto(`${origin}/no/such/page-abcdefghijklmnopqrstuvwxyz0123`);
    await page.getByRole("heading", { name: "The requested page was not found" }).waitFor();
    await expect
      .poll(
        () => log.filter((line) => line.msg === "front-end 404").map((line) => line.frontEnd?.recordData),
        {
          timeout: 10_000,
        },
      )
      .toEqual(["/no/such/[redacted]"]);
    expect(log.find((line) => line.msg === "front-end 404")?.frontEnd?.recordType).toBe("FrontEnd404");
    await page.context().close();
  }, 120_000);
});
