import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { XeroInvoice, XeroItem } from "../apps/server/src/connectors/xero/xero-api";
import {
  type AccountingStandIn,
  startXeroStandIn,
  type XeroStandInTenant,
} from "../apps/server/test/accounting-stand-ins";
import { startOidcProvider } from "../apps/server/test/oidc-stand-ins";
import { createTenant, launchChromium, startE2eServer } from "./browser";
import { accessibilityViolations } from "./drill-workspace";
import {
  acceptTermsAndTour,
  adminToken,
  card,
  cardsDrawn,
  cliBin,
  parseMoney,
  signIn,
  testOutput,
} from "./workspace";

const screenshots = join(testOutput, "..", "sign-up");
const xeroClient = { clientId: "varia-xero", clientSecret: "xero client secret" };
const tenantId = "5b1c9d2e-0000-4000-8000-0000000000aa";

/** `varia` run as ops would run it, with an API token; asynchronously, as the server is in this process. */
function varia(
  host: string,
  token: string,
  args: string[],
): Promise<{ code: number; stdout: string; stderr: string }> {
  const configDir = mkdtempSync(join(tmpdir(), "varia-e2e-cli-"));
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [cliBin, ...args],
      {
        env: { ...process.env, VARIA_CONFIG_DIR: configDir, VARIA_HOST: host, VARIA_TOKEN: token },
        encoding: "utf8",
      },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/** A port free now, so that the provider knows Varia's redirect URI before Varia starts on it. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const items: XeroItem[] = [
  { ItemID: "i1", Code: "PRO", Name: "Pro plan", IsSold: true },
  { ItemID: "i2", Code: "SETUP", Name: "Account setup", IsSold: true },
  { ItemID: "i3", Code: "SENSOR", Name: "Leak sensor", IsTrackedAsInventory: true, IsSold: true },
];

/**
 * A year of a small Xero business: six clients on the Pro plan at $100 a seat from January 2026;
 * client 6 leaves after September, client 7 joins in October with a set-up fee and a sensor.
 */
function invoices(): XeroInvoice[] {
  const out: XeroInvoice[] = [];
  for (let month = 1; month <= 10; month++) {
    for (let client = 1; client <= 7; client++) {
      if (client === 6 && month > 9) continue;
      if (client === 7 && month < 10) continue;
      const seats = client;
      const lines = [
        { ItemCode: "PRO", Quantity: seats, UnitAmount: 100, LineAmount: seats * 100, TaxAmount: 0 },
      ];
      if (client === 7 && month === 10) {
        lines.push({ ItemCode: "SETUP", Quantity: 1, UnitAmount: 500, LineAmount: 500, TaxAmount: 0 });
        lines.push({ ItemCode: "SENSOR", Quantity: 2, UnitAmount: 60, LineAmount: 120, TaxAmount: 0 });
      }
      out.push({
        InvoiceID: `inv-${month}-${client}`,
        InvoiceNumber: `INV-${month}-${client}`,
        Type: "ACCREC",
        Status: "AUTHORISED",
        Contact: { ContactID: `contact-${client}`, Name: `Client ${client} Ltd` },
        DateString: `2026-${String(month).padStart(2, "0")}-01T00:00:00`,
        LineAmountTypes: "Exclusive",
        LineItems: lines,
      });
    }
  }
  return out;
}

describe("signing up through Xero in the browser", () => {
  let browser: Browser;
  let page: Page;
  let env: Awaited<ReturnType<typeof startE2eServer>>;
  let op: Awaited<ReturnType<typeof startOidcProvider>>;
  let xero: AccountingStandIn;
  let origin: string;

  // What Xero's /connections lists: a second organisation is added and taken away again below.
  const xeroTenants: XeroStandInTenant[] = [
    { tenantId, tenantName: "Harbour Software", invoices: invoices(), items },
  ];
  const shot = (name: string) => page.screenshot({ path: join(screenshots, `${name}.png`), fullPage: true });

  beforeAll(async () => {
    mkdirSync(screenshots, { recursive: true });
    const port = await freePort();
    origin = `http://localhost:${port}`;
    op = await startOidcProvider({
      ...xeroClient,
      redirectUris: [
        `${origin}/api/Auth/SingleSignUpCallback/Xero`,
        // An organisation that signed up with a password and connects Xero later, on its own site.
        `http://later.localhost:${port}/api/Auth/SingleSignOnCallback/Xero`,
      ],
      refreshTokens: true,
    });
    // Xero's API takes the access tokens its identity service issued; its revocation endpoint, Varia's client.
    xero = await startXeroStandIn({
      accessToken: op.hasIssued,
      tenants: xeroTenants,
      client: xeroClient,
    });
    env = await startE2eServer({
      PORT: String(port),
      VARIA_PUBLIC_URL: origin,
      VARIA_SSO_XERO_ISSUER: op.issuer,
      VARIA_SSO_XERO_CLIENT_ID: xeroClient.clientId,
      VARIA_SSO_XERO_CLIENT_SECRET: xeroClient.clientSecret,
      VARIA_XERO_API_URL: xero.url,
      VARIA_XERO_REVOCATION_URL: `${xero.url}/connect/revocation`,
    });
    browser = await launchChromium();
    // axe-core opens pages of its own: the page needs a context of its own.
    const context = await browser.newContext({
      viewport: { width: 1280, height: 900 },
      timezoneId: "Pacific/Auckland",
    });
    page = await context.newPage();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await env?.stop();
    await xero?.close();
    await op?.close();
  });

  it("welcomes, authorises at Xero, imports on a schedule, classifies the services and opens the dashboard", async () => {
    // Welcome, from the login view: both choices are asked for before Authorise.
    await page.goto(`${origin}/`);
    await page.getByRole("link", { name: "Sign up with QuickBooks or Xero" }).click();
    await page.getByRole("heading", { name: "Sign up to Varia" }).waitFor();
    await page.getByRole("button", { name: "Authorise" }).click();
    expect(await page.getByRole("alert").allInnerTexts()).toEqual([
      "Please agree to the terms and conditions\nPlease select an integration type",
    ]);
    await page.getByRole("radio", { name: /Xero/ }).check({ force: true });
    await page.getByLabel("I agree to the terms and conditions and the privacy policy").check();
    expect(await accessibilityViolations(page)).toEqual([]);
    await shot("1-welcome");

    // Xero's sign-in answers at once; Varia makes the organisation and its admin, signed in, at Data.
    await page.getByRole("button", { name: "Authorise with Xero" }).click();
    await page.getByRole("heading", { name: "Choose your data" }).waitFor();
    expect(new URL(page.url()).pathname).toBe("/sign-up/data");
    const tenantHost = new URL(page.url()).host;
    expect(tenantHost).toMatch(/^bigcorp-[a-z0-9]+\.localhost:\d+$/);
    await page.getByRole("button", { name: /Harbour Software \(Xero\)/ }).waitFor();
    expect(await page.getByRole("combobox", { name: "Time zone" }).inputValue()).toContain(
      "Pacific/Auckland",
    );

    // Weekly on Monday at 7:30 AM, said back in words; nothing is missing, so the import starts.
    await page.getByRole("radio", { name: "Weekly" }).click();
    await page.getByRole("button", { name: /Day of the week/ }).click();
    await page.getByRole("option", { name: "Monday" }).click();
    await page.getByRole("button", { name: /Hour/ }).click();
    await page.getByRole("option", { name: "7", exact: true }).click();
    await page.getByRole("button", { name: /Minute/ }).click();
    await page.getByRole("option", { name: "30" }).click();
    await page.getByText("Varia reads Harbour Software every Monday at 7:30 AM.").waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
    await shot("2-data");
    await page.getByRole("button", { name: "Start import" }).click();

    // The job is followed until it completes, which moves the sign-up on to Configure.
    await page.getByRole("heading", { name: "Configure your organisation" }).waitFor({ timeout: 60_000 });
    expect(new URL(page.url()).pathname).toBe("/sign-up/configure");
    const name = page.getByLabel("Organisation name");
    expect(await name.inputValue()).toBe("bigcorp.example.com");
    await name.fill("");
    await page.getByRole("button", { name: "Finish and open the dashboard" }).click();
    await page.getByRole("alert").getByText("fill in all fields please").waitFor();
    await name.fill("Harbour Software");
    // The import's suggestions: the set-up fee and the sensor are ad hoc, the plan recurring (the default).
    const adhoc = page.getByRole("group", { name: "Ad hoc services" });
    expect(await adhoc.getByRole("checkbox", { name: /Account setup/ }).isChecked()).toBe(true);
    expect(await adhoc.getByRole("checkbox", { name: /Leak sensor/ }).isChecked()).toBe(true);
    expect(await adhoc.getByRole("checkbox", { name: /Pro plan/ }).isChecked()).toBe(false);
    expect(await page.getByRole("group", { name: "Recurring services" }).count()).toBe(0);
    // The visitor decides the sensor is a subscription of its own: it counts in MRR from now on.
    await adhoc.getByRole("checkbox", { name: /Leak sensor/ }).uncheck();
    expect(await accessibilityViolations(page)).toEqual([]);
    await shot("3-configure");
    await page.getByRole("button", { name: "Finish and open the dashboard" }).click();

    // The dashboard of the new organisation: October's MRR is the plan's and the sensor's, never
    // the set-up fee.
    await acceptTermsAndTour(page);
    await cardsDrawn(page);
    const mrr = card(page, "mrr");
    // Clients 1-5 and 7 in October: (1 + 2 + 3 + 4 + 5 + 7) seats x $100 and 2 sensors x $60;
    // September had 1-6.
    expect(parseMoney(await mrr.locator(".kpi__value").innerText())).toBe(2320);
    expect(parseMoney(await mrr.locator(".kpi__from").innerText())).toBe(2100);
    await page.getByTestId("loading-overlay").waitFor({ state: "detached" });
    await page.screenshot({ path: join(screenshots, "4-dashboard.png") });

    // What was saved: the schedule, the categories, and a sign-up that is over.
    const saved = (await page.evaluate(async () => {
      const answer = await fetch("/api/Integration/GetDataSources");
      return answer.json();
    })) as {
      name: string;
      schedule: { interval: string; dayOfWeek: string; hour: number; minute: number };
    }[];
    expect(
      saved.map((s) => [
        s.name,
        s.schedule.interval,
        s.schedule.dayOfWeek,
        s.schedule.hour,
        s.schedule.minute,
      ]),
    ).toEqual([["Harbour Software", "Weekly", "Monday", 7, 30]]);
    const { profile } = (await page.evaluate(async () =>
      (await fetch("/api/Account/AuthorisedPing")).json(),
    )) as {
      profile: { organisationName: string; organisationSignUpStep: string | null };
    };
    expect([profile.organisationName, profile.organisationSignUpStep]).toEqual(["Harbour Software", null]);
    // Xero was read with the tenant's header and a token its identity service issued.
    expect(xero.requests.some((r) => r.headers["xero-tenant-id"] === tenantId)).toBe(true);

    // The integration overview: the source, its schedule in words and its last import; a new
    // schedule is saved; Import now reads Xero again and keeps the categories the visitor chose.
    await page.getByRole("link", { name: "Integrations" }).click();
    const source = page.getByRole("article", { name: "Harbour Software" });
    await source.getByText("Xero · imported every Monday at 7:30 AM (Pacific/Auckland)").waitFor();
    await source.getByText("Job completed successfully").waitFor();
    await source.getByRole("button", { name: "Change schedule" }).click();
    await source.getByRole("radio", { name: "Daily" }).click();
    await source.getByRole("button", { name: "Save schedule" }).click();
    await source.getByText("Xero · imported every day at 7:30 AM (Pacific/Auckland)").waitFor();
    const reads = xero.requests.length;
    const lastJob = async () =>
      (await page.evaluate(async () => {
        const [s] = (await (await fetch("/api/Integration/GetDataSources")).json()) as {
          lastJobGuid: string;
        }[];
        const job = (await (await fetch(`/api/Import/GetJobStatus?JobGuid=${s?.lastJobGuid}`)).json()) as {
          status: string;
        };
        return { guid: s?.lastJobGuid, status: job.status };
      })) as { guid: string; status: string };
    const before = await lastJob();
    await source.getByRole("button", { name: "Import now" }).click();
    // The new job, not the last one, runs to its end.
    await expect
      .poll(
        async () => {
          const now = await lastJob();
          return now.guid !== before.guid && now.status;
        },
        { timeout: 60_000 },
      )
      .toBe("Completed");
    await source.getByText("Job completed successfully").waitFor();
    expect(xero.requests.length).toBeGreaterThan(reads);

    // The connection the source is grouped under: since when, and who is told when an import fails.
    const connection = page.getByRole("region", { name: "Xero connection" });
    await connection.getByText(/^Connected since .+ · 1 organisation$/).waitFor();
    expect(await connection.getByRole("article", { name: "Harbour Software" }).count()).toBe(1);
    const nobody = connection.getByText(
      "Nobody is responsible: the organisation's admins are e-mailed when a scheduled import fails; an import started by hand is followed on screen and e-mails nobody.",
    );
    await nobody.waitFor();
    // A second user of the organisation, to choose among.
    const xsrf = (await page.context().cookies(`http://${tenantHost}`)).find((c) => c.name === "XSRF-TOKEN");
    const { responsibilities, bob } = await page.evaluate(async (xsrf) => {
      const created = await fetch("/api/variance/UserManagement/CreateUser", {
        method: "POST",
        headers: { "content-type": "application/json", "x-xsrf-token": xsrf },
        body: JSON.stringify({ name: "Bob Ledger", email: "bob@bigcorp.example.com" }),
      });
      const { userID } = (await created.json()) as { userID: string };
      const [c] = (await (await fetch("/api/Connections")).json()) as { integrationGuid: string }[];
      return {
        responsibilities: `/api/Connections/${c?.integrationGuid}/Responsibilities`,
        bob: { userID, name: "Bob Ledger", email: "bob@bigcorp.example.com", disabled: false },
      };
    }, xsrf?.value ?? "");
    const responsible = () =>
      page.evaluate(async (url) => (await fetch(url)).json(), responsibilities) as Promise<unknown[]>;
    // Bob made responsible: chosen among the users, named on the page, and what
    // Connections/GetResponsibilities answers.
    await connection.getByRole("button", { name: "Change who is told" }).click();
    const picker = connection.getByRole("button", { name: /Add a responsible user/ });
    await picker.click();
    // The users are listed again on Change who is told: Bob, created since the page opened, too.
    await page.getByRole("option", { name: "Bob Ledger" }).waitFor();
    expect(await page.getByRole("option").allInnerTexts()).toEqual(["alice", "Bob Ledger"]);
    await page.getByRole("option", { name: "Bob Ledger" }).click();
    await connection.getByRole("button", { name: "Add", exact: true }).click();
    await connection.getByText("E-mailed when an import fails: Bob Ledger.").waitFor();
    expect(await responsible()).toEqual([bob]);
    expect(await nobody.count()).toBe(0);
    await picker.click();
    expect(await page.getByRole("option").allInnerTexts()).toEqual(["alice"]);
    await page.keyboard.press("Escape");
    // Looking for new organisations at Xero: the same one, said so.
    await connection.getByRole("button", { name: "Look for new organisations" }).click();
    await connection.getByText("No change: Xero reaches the same organisations.").waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
    await page.screenshot({ path: join(screenshots, "5-integrations.png"), fullPage: true });
    // Removed again: nobody is responsible, the admins are told.
    await connection.getByRole("button", { name: "Remove Bob Ledger" }).click();
    await nobody.waitFor();
    expect(await responsible()).toEqual([]);
    await connection.getByRole("button", { name: "Done" }).click();
    // Busy while Xero is asked; Xero out of order (502) and Xero refusing (409): the server's message.
    const look = connection.getByRole("button", { name: "Look for new organisations" });
    xero.failNext({ path: "/connections", hang: true });
    await look.click();
    await expect.poll(() => look.isDisabled()).toBe(true);
    xero.release(503);
    await connection.getByRole("alert").waitFor();
    expect(await connection.getByRole("alert").innerText()).toMatch(/^Xero failed to answer .+ \(503\)$/);
    expect(await look.isDisabled()).toBe(false);
    xero.failNext({ path: "/connections", status: 403 });
    await look.click();
    await connection
      .getByRole("alert")
      .getByText("Xero refused the access token (403)", { exact: true })
      .waitFor();
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Dashboard" }).click();
    await cardsDrawn(page);
    expect(parseMoney(await card(page, "mrr").locator(".kpi__value").innerText())).toBe(2320);

    // Ops with an API token: the same source from the CLI, and an import from it followed to its end.
    const host = `http://${tenantHost}`;
    const token = await adminToken(env.server, tenantHost.split(".")[0]!, "alice@bigcorp.example.com");
    const list = await varia(host, token, ["sources", "list"]);
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/Harbour Software\s+Xero\s+every day at 7:30 AM \(Pacific\/Auckland\)/);
    const json = await varia(host, token, ["sources", "list", "--json"]);
    expect(JSON.parse(json.stdout)).toEqual([
      {
        id: expect.any(String),
        integrationGuid: expect.any(String),
        integrationType: "Xero",
        name: "Harbour Software",
        schedule: {
          dataSourceId: expect.any(String),
          timeZone: "Pacific/Auckland",
          country: "NewZealand",
          interval: "Daily",
          dayOfMonth: null,
          dayOfWeek: null,
          hour: 7,
          minute: 30,
          amPm: "AM",
        },
        lastJobGuid: expect.any(String),
      },
    ]);
    const run = await varia(host, token, [
      "sources",
      "run",
      "harbour software",
      "--wait",
      "--poll-interval",
      "0.2",
    ]);
    expect([run.code, run.stdout.trim()]).toEqual([
      0,
      "Job completed successfully: 62 lines imported from Xero: Harbour Software: none new, 62 replacing stored lines of the same invoice and line number",
    ]);
    const unknown = await varia(host, token, ["sources", "run", "Nowhere Ltd"]);
    expect([unknown.code, unknown.stderr]).toEqual([
      2,
      expect.stringContaining("No data source 'Nowhere Ltd'"),
    ]);

    // The connection itself: listed, shown, and every source of it imported now, followed to the end.
    const connections = JSON.parse((await varia(host, token, ["--json", "connections", "list"])).stdout);
    expect(connections).toEqual([
      {
        integrationGuid: expect.any(String),
        integrationType: "Xero",
        connectedAt: expect.any(String),
        dataSources: [{ id: expect.any(String), name: "Harbour Software", lastJobGuid: expect.any(String) }],
        responsibleUserIDs: [],
      },
    ]);
    const guid = connections[0].integrationGuid as string;
    expect((await varia(host, token, ["connections", "list"])).stdout).toMatch(
      new RegExp(`${guid}\\s+Xero\\s+\\d{4}-\\d\\d-\\d\\d\\s+Harbour Software\\s+0`),
    );
    const shown = JSON.parse((await varia(host, token, ["--json", "connections", "show", guid])).stdout);
    expect(shown).toEqual(connections[0]);
    expect((await varia(host, token, ["connections", "show", guid])).stdout).toContain(
      "E-mailed when an import fails: nobody responsible (admins, for scheduled imports)",
    );
    const configured = await varia(host, token, ["connections", "configure", guid]);
    expect([configured.code, configured.stdout.trim()]).toEqual([
      0,
      "No change: Xero reaches the same data sources (Harbour Software)",
    ]);
    const imported = await varia(host, token, [
      "connections",
      "import",
      guid,
      "--wait",
      "--poll-interval",
      "0.2",
    ]);
    expect([imported.code, imported.stdout.trim()]).toEqual([
      0,
      "Job completed successfully: 62 lines imported from Xero: Harbour Software: none new, 62 replacing stored lines of the same invoice and line number",
    ]);

    // A second organisation authorised at Xero is found by Look for new organisations, without a
    // schedule; gone from Xero, it is removed by the next look.
    await page.getByRole("link", { name: "Integrations" }).click();
    xeroTenants.push({
      tenantId: "5b1c9d2e-0000-4000-8000-0000000000bb",
      tenantName: "Harbour Labs",
      invoices: [],
      items,
    });
    await connection.getByRole("button", { name: "Look for new organisations" }).click();
    await connection.getByText("Found 1 new organisation: Harbour Labs.").waitFor();
    const labs = connection.getByRole("article", { name: "Harbour Labs" });
    await labs.getByText("Xero · no schedule: imported only when asked").waitFor();
    await connection.getByText(/^Connected since .+ · 2 organisations$/).waitFor();
    xeroTenants.pop();
    await connection.getByRole("button", { name: "Look for new organisations" }).click();
    await connection
      .getByText("No longer reached, so removed: Harbour Labs. The invoice lines imported from it stay.")
      .waitFor();
    await labs.waitFor({ state: "detached" });
    expect(await connection.getByRole("article", { name: "Harbour Software" }).count()).toBe(1);

    // `varia connections disconnect` changes nothing without --yes; with it, the grant is revoked at
    // Xero and the connection is gone.
    const revocations = xero.revocations.length;
    const unconfirmed = await varia(host, token, ["connections", "disconnect", guid]);
    expect([unconfirmed.code, unconfirmed.stderr.trim()]).toEqual([
      1,
      "varia: Disconnecting revokes Varia's access at Xero and removes the data sources of this connection (Harbour Software) with their schedules; run again with --yes to disconnect",
    ]);
    expect(xero.revocations.length).toBe(revocations);
    expect(JSON.parse((await varia(host, token, ["--json", "connections", "list"])).stdout)).toHaveLength(1);
    const disconnected = await varia(host, token, ["--json", "connections", "disconnect", guid, "--yes"]);
    expect([disconnected.code, JSON.parse(disconnected.stdout)]).toEqual([
      0,
      { disconnected: guid, integrationType: "Xero", dataSources: ["Harbour Software"] },
    ]);
    expect(xero.revocations.slice(revocations)).toEqual([{ token: expect.any(String), ...xeroClient }]);
    expect(JSON.parse((await varia(host, token, ["--json", "connections", "list"])).stdout)).toEqual([]);
    const again = await varia(host, token, ["connections", "disconnect", guid, "--yes"]);
    expect(again.code).toBe(2);
  }, 180_000);

  it("connects Xero later, from the integration overview of an organisation that signed up with a password", async () => {
    const account = await createTenant(env.server, "later", "a long password for later");
    const later = `http://later.localhost:${new URL(origin).port}`;
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const own = await context.newPage();
    await signIn(own, later, account.email, account.password, "/integration/overview");
    await own.getByRole("link", { name: "Integrations" }).click();
    await own
      .getByText("No accounting package is connected: this organisation imports from CSV files.")
      .waitFor();
    op.state.nextAccount = "bookkeeper";
    await own.getByRole("button", { name: "Connect Xero" }).click();
    // Xero's sign-in answers at once and sends the browser back to the overview, with the source.
    const source = own.getByRole("article", { name: "Harbour Software" });
    await source.getByText("Xero · no schedule: imported only when asked").waitFor();
    expect(new URL(own.url()).pathname).toBe("/integration/overview");
    await source.getByRole("button", { name: "Import now" }).click();
    await source.getByText("Job completed successfully").waitFor({ timeout: 60_000 });
    await source
      .getByText("62 invoice lines imported from Xero: Harbour Software: all new.", { exact: false })
      .waitFor();
    await own.screenshot({ path: join(screenshots, "6-connected-later.png"), fullPage: true });

    // Disconnect, confirmed: the source goes (its grant revoked at Xero), the lines imported stay.
    const revocations = xero.revocations.length;
    await source.getByRole("button", { name: "Disconnect" }).click();
    const confirm = own.getByRole("alertdialog", { name: "Disconnect Xero?" });
    await confirm.getByText("Varia stops reading Harbour Software").waitFor();
    expect(await accessibilityViolations(own)).toEqual([]);
    await confirm.getByRole("button", { name: "Disconnect" }).click();
    await own
      .getByText("No accounting package is connected: this organisation imports from CSV files.")
      .waitFor();
    expect(await source.count()).toBe(0);
    expect(xero.revocations.slice(revocations)).toEqual([{ token: expect.any(String), ...xeroClient }]);
    await own.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Dashboard" }).click();
    await cardsDrawn(own);
    expect(parseMoney(await card(own, "mrr").locator(".kpi__value").innerText())).toBe(2200);

    // A sign-up whose company could not be found (here: the step set again, nothing connected) is
    // offered to connect again from the Data step, and comes back to it with the company.
    const xsrf = (await context.cookies(later)).find((c) => c.name === "XSRF-TOKEN")?.value ?? "";
    const stepped = await own.evaluate(async (token) => {
      const answer = await fetch("/api/Integration/SetSignUpStep", {
        method: "POST",
        headers: { "content-type": "application/json", "x-xsrf-token": token },
        body: JSON.stringify({ step: "Data" }),
      });
      return answer.status;
    }, xsrf);
    expect(stepped).toBe(200);
    await own.goto(`${later}/`);
    await own.getByRole("heading", { name: "Choose your data" }).waitFor();
    await own.getByText("Varia could not find a company in your accounting package.").waitFor();
    await own.getByRole("button", { name: "Connect Xero" }).click();
    await own.getByRole("button", { name: /Harbour Software \(Xero\)/ }).waitFor();
    expect(new URL(own.url()).pathname).toBe("/sign-up/data");
    await context.close();
  }, 120_000);
});
