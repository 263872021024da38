import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTenant, launchChromium, startE2eServer } from "./browser";
import { accessibilityViolations } from "./drill-workspace";
import { screenshotWholePage } from "./workspace";

/**
 * A stand-in for reCAPTCHA on localhost: its browser script (`/api.js`, a token naming the site key
 * and the action) and its verify endpoint (`/siteverify`, which believes only such a token).
 */
const verified: URLSearchParams[] = [];
const captcha: Server = createServer((request, response) => {
  if (request.method === "GET" && request.url?.startsWith("/api.js")) {
    response.setHeader("content-type", "text/javascript");
    response.end(
      "window.grecaptcha = { ready: (done) => done(), execute: (key, options) => Promise.resolve('stand-in:' + key + ':' + options.action) };",
    );
    return;
  }
  let body = "";
  request.on("data", (chunk: Buffer) => {
    body += chunk.toString();
  });
  request.on("end", () => {
    const form = new URLSearchParams(body);
    verified.push(form);
    const ok =
      form.get("secret") === "test-secret" && form.get("response") === "stand-in:site-key:demoSignup";
    response.setHeader("content-type", "application/json");
    response.end(
      JSON.stringify(ok ? { success: true, score: 0.9, action: "demoSignup" } : { success: false }),
    );
  });
});

describe("demo mode: the captcha, and the routes that exist only outside demo mode", () => {
  let browser: Browser;
  let env: Awaited<ReturnType<typeof startE2eServer>>;
  let origin: string;
  let account: { email: string; password: string };

  beforeAll(async () => {
    await new Promise<void>((resolve) => captcha.listen(0, "127.0.0.1", resolve));
    const captchaOrigin = `http://127.0.0.1:${(captcha.address() as AddressInfo).port}`;
    env = await startE2eServer({
      VARIA_DEMO_MODE: "true",
      RECAPTCHA_SECRET: "test-secret",
      RECAPTCHA_VERIFY_URL: `${captchaOrigin}/siteverify`,
      RECAPTCHA_SITE_KEY: "site-key",
      RECAPTCHA_SCRIPT_URL: `${captchaOrigin}/api.js`,
    });
    account = await createTenant(env.server, "demo", "the demo organisation's password");
    origin = `http://localhost:${env.port}`;
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await env?.stop();
    captcha.close();
  });

  const newPage = async () => (await browser.newContext()).newPage();

  async function requestDemo(page: Page, email: string) {
    await page.goto(`${origin}/`);
    await page.getByRole("button", { name: "Sign Up" }).click();
    await page.getByLabel("Name").fill("Grace");
    await page.getByLabel("Company Email").fill(email);
    await page.getByRole("button", { name: "Submit" }).click();
  }

  it("obtains a captcha token for the demo request, which the server checks", async () => {
    const page = await newPage();
    await requestDemo(page, "grace@hopper.example.com");
    await page.waitForURL("**/verify?email=grace%40hopper.example.com");
    expect(verified.map((form) => form.get("response"))).toEqual(["stand-in:site-key:demoSignup"]);
    await page.context().close();
  });

  it("refuses the request with the captcha's alert when its script does not load", async () => {
    const page = await newPage();
    await page.route("**/api.js*", (route) => route.abort());
    await requestDemo(page, "ada@lovelace.example.com");
    await page
      .getByText("Failed to load the captcha service, please refresh the page and try again.")
      .waitFor();
    await page.getByText("Demo signup failed, please try again").waitFor();
    expect(new URL(page.url()).pathname).toBe("/");
    expect(verified).toHaveLength(1);
    await page.context().close();
  });

  it("shows the not-found page for the password routes and sign-up, signed out and signed in", async () => {
    const page = await newPage();
    const paths = [
      "/passwordReset",
      "/passwordReset/7c0d1c9e-4f7e-4d3e-9a53-5a1f7d1e2b3c/abcdefghijklmnopqrstuvwxyz",
      "/passwordSet/7c0d1c9e-4f7e-4d3e-9a53-5a1f7d1e2b3c/abcdefghijklmnopqrstuvwxyz",
      "/sign-up",
    ];
    for (const path of paths) {
      await page.goto(`${origin}${path}`);
      await page.getByRole("heading", { name: "The requested page was not found" }).waitFor();
      expect(await page.getByLabel("New password").count()).toBe(0);
    }
    await page.getByTestId("loading-overlay").waitFor({ state: "detached" });
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshotWholePage(page, "password/demo-mode-not-found.png");

    // Signed in (the demo organisation's admin, through the API), in the workspace's frame.
    const answer = await page.request.post(`${origin}/api/login`, {
      data: {
        email: account.email,
        password: account.password,
        actionsCompleted: ["AuthenticateMultiFactor"],
        authenticateMultiFactor: { skip: true },
      },
    });
    expect(await answer.json()).toEqual({ requiredActions: [] });
    for (const path of ["/integration/overview", "/sign-up", "/passwordReset"]) {
      await page.goto(`${origin}${path}`);
      await page.getByText("The requested page was not found").waitFor();
      expect(await page.getByRole("heading", { name: "Integrations", exact: true }).count()).toBe(0);
    }
    await page.context().close();
  }, 120_000);
});
