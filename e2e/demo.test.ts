import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTenant, launchChromium, startE2eServer } from "./browser";

describe("a demo visitor in demo mode", () => {
  let browser: Browser;
  let env: Awaited<ReturnType<typeof startE2eServer>>;

  beforeAll(async () => {
    env = await startE2eServer({ VARIA_DEMO_MODE: "true" });
    await createTenant(env.server, "demo", "the demo organisation's password");
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await env?.stop();
  });

  const mailedCode = () => {
    const outbox = join(env.dataDir, "outbox");
    const mails = readdirSync(outbox).sort();
    const mail = readFileSync(join(outbox, mails.at(-1)!), "utf8");
    return /login code: (\d{6})/.exec(mail)?.[1] ?? "";
  };

  it("requests a demo with a business e-mail and signs in with the mailed code", async () => {
    const page = await browser.newPage();
    await page.goto(`http://localhost:${env.port}/`);
    await page.getByRole("button", { name: "Sign Up" }).click();
    await page.getByRole("button", { name: "Submit" }).click();
    await page.getByText("Please enter a name").waitFor();
    await page.getByLabel("Name").fill("Grace");
    await page.getByLabel("Company Email").fill("grace@gmail.com");
    await page.getByRole("button", { name: "Submit" }).click();
    await page.getByText("Please enter a valid business email").waitFor();
    expect(await page.getByText("Login code will be sent to your email address").count()).toBe(1);
    await page.getByLabel("Company Email").fill("grace@hopper.example.com");
    await page.getByRole("button", { name: "Submit" }).click();
    await page.waitForURL("**/verify?email=grace%40hopper.example.com");
    await page.getByLabel("Digit 1 of 6").fill("000000");
    await page.getByRole("button", { name: "Login" }).click();
    await page.getByText("Incorrect code, please try again").waitFor();
    await page.getByLabel("Digit 1 of 6").fill(mailedCode());
    await page.getByRole("button", { name: "Login" }).click();
    await page.waitForURL("**/variance/dashboard/stockTypeOverview");
    await page.getByRole("heading", { name: "Stock Type Overview" }).waitFor();
  });
});
