import { randomUUID } from "node:crypto";
import { writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { sql } from "kysely";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { TokenCipher } from "../src/auth/token-cipher";
import { demoMonths } from "../src/demo/generate-demo-data";
import { enqueueImport } from "../src/imports/import-jobs";
import { invoiceColumns } from "../src/imports/invoice-columns";
import { demoCopyLifetimeMs } from "../src/routes/demo-routes";
import { type AccountingStandIn, startQuickBooksStandIn, startXeroStandIn } from "./accounting-stand-ins";
import { Browser, describeWithServer, TestClock } from "./harness";
import { MailReceiver } from "./mail-receiver";

const clock = new TestClock();
const mail = new MailReceiver();

/** A stand-in for reCAPTCHA's verify endpoint: the token says what it answers. */
const captchaCalls: URLSearchParams[] = [];
const captcha: Server = createServer((request, response) => {
  let body = "";
  request.on("data", (chunk: Buffer) => {
    body += chunk.toString();
  });
  request.on("end", () => {
    const form = new URLSearchParams(body);
    captchaCalls.push(form);
    const token = form.get("response");
    const answer =
      form.get("secret") !== "test-secret"
        ? { success: false, "error-codes": ["invalid-input-secret"] }
        : token === "human"
          ? { success: true, score: 0.9, action: "demoSignup" }
          : token === "bot"
            ? { success: true, score: 0.1, action: "demoSignup" }
            : { success: false, "error-codes": ["invalid-input-response"] };
    response.setHeader("content-type", "application/json");
    response.end(JSON.stringify(answer));
  });
});

/** The accounting packages a visitor's copy may have connected: their revocation endpoints are used. */
const xeroClient = { clientId: "varia-xero", clientSecret: "xero secret" };
const intuitClient = { clientId: "varia-intuit", clientSecret: "intuit secret" };
let xero: AccountingStandIn;
let quickBooks: AccountingStandIn;
const logLines: string[] = [];

beforeAll(async () => {
  await mail.start();
  await new Promise<void>((resolve) => captcha.listen(0, "127.0.0.1", resolve));
  xero = await startXeroStandIn({ accessToken: "not used", tenants: [], client: xeroClient });
  quickBooks = await startQuickBooksStandIn({
    accessToken: "not used",
    realmId: "1",
    companyName: "Not used",
    invoices: [],
    items: [],
    client: intuitClient,
  });
});
afterAll(async () => {
  await mail.close();
  captcha.close();
  await xero.close();
  await quickBooks.close();
});

const codeOf = (subject: string) => /(\d{6})$/.exec(subject)?.[1] ?? "";

describeWithServer(
  "demo",
  (ctx) => {
    beforeAll(async () => {
      const db = ctx().database.db;
      const demo = await ctx().createOrganisation("demo");
      // The default tenant's data, in the import tables and in a table this code never names: a
      // visitor's organisation holds none of it.
      const file = join(ctx().config.dataDir, "default-tenant.csv");
      writeFileSync(
        file,
        `${invoiceColumns.join(",")}\n2025-05-01,INV-1,1,ONLY-IN-DEFAULT,Secret Client,PRO,Pro,Subscription,1,,100.00,,,,,Actual,Recurring\n`,
      );
      const queued = await enqueueImport(ctx().server.jobs, {
        organisationId: demo.organisationId,
        userId: null,
        fileName: "default-tenant.csv",
        filePath: file,
        sha256: "default-tenant",
        idempotencyKey: undefined,
      });
      await vi.waitFor(
        async () =>
          expect(
            (
              await db
                .selectFrom("import_jobs")
                .select("status")
                .where("id", "=", queued.jobGuid)
                .executeTakeFirstOrThrow()
            ).status,
          ).toBe("Completed"),
        { timeout: 20_000, interval: 50 },
      );
      await sql`create table demo_widgets (
        organisation_id uuid not null references organisations (id) on delete cascade,
        id integer not null, label text not null, primary key (organisation_id, id))`.execute(db);
      await sql`insert into demo_widgets values (${demo.organisationId}, 1, 'one'), (${demo.organisationId}, 2, 'two')`.execute(
        db,
      );
    });

    const signup = (browser: Browser, email: string, recaptchaToken = "human") =>
      browser.request("POST", "/api/Demo/Signup", {
        name: "Visiting Vera",
        email,
        phoneDetected: false,
        recaptchaToken,
      });

    it("refuses addresses of blocked domains with the spec's reply", async () => {
      const answer = await signup(new Browser(ctx().tenantUrl("demo")), "vera@gmail.com");
      expect(answer.status).toBe(400);
      expect(answer.json.message).toBe("Email is not a valid business email");
      expect(answer.json.errors).toEqual([
        { field: "email", message: "Email is not a valid business email" },
      ]);
      const subdomain = await signup(new Browser(ctx().tenantUrl("demo")), "vera@mail.yahoo.com");
      expect(subdomain.status).toBe(400);
    });

    it("checks the captcha server-side: a bot's score or a bad token is refused", async () => {
      const browser = new Browser(ctx().tenantUrl("demo"));
      for (const token of ["bot", "forged", ""]) {
        const answer = await signup(browser, "vera@bigcorp.example.com", token);
        expect(answer.status).toBe(400);
        expect(answer.json.message).toBe("Demo signup failed, please try again");
      }
      expect(captchaCalls.at(-1)?.get("secret")).toBe("test-secret");
    });

    it("takes a name of plain text only, and mails nothing of the request but the code", async () => {
      const browser = new Browser(ctx().tenantUrl("demo"));
      const email = `plain.${ctx().kind}@bigcorp.example.com`;
      for (const name of [
        "Win a prize at http://evil.example",
        "<b>Vera</b>",
        "Vera\nClick here",
        "V".repeat(81),
      ]) {
        const answer = await browser.request("POST", "/api/Demo/Signup", {
          name,
          email,
          phoneDetected: false,
          recaptchaToken: "human",
        });
        expect(answer.status, name).toBe(400);
        expect(answer.json.errors, name).toEqual([{ field: "name", message: expect.any(String) }]);
      }
      const accepted = await browser.request("POST", "/api/Demo/Signup", {
        name: "Anne-Marie O’Neil Jr.",
        email,
        phoneDetected: false,
        recaptchaToken: "human",
      });
      expect(accepted.status).toBe(200);
      const sent = await mail.waitFor(email);
      expect(sent.text).not.toContain("Anne");
      expect(sent.text).toMatch(/login code for the Varia demo is \d{6}/);
    });

    it("mails a 6-digit code that signs in to an organisation of the visitor's own, once", async () => {
      const email = `vera.${ctx().kind}@bigcorp.example.com`;
      const browser = new Browser(ctx().tenantUrl("demo"));
      expect((await signup(browser, email)).status).toBe(200);
      const code = codeOf((await mail.waitFor(email)).subject);
      expect(code).toMatch(/^\d{6}$/);
      const verified = await browser.request("POST", "/api/Demo/Verify", { email, code });
      expect(verified.status).toBe(200);
      const ping = await browser.request("GET", "/api/Account/AuthorisedPing");
      expect(ping.status).toBe(200);
      const profile = ping.json.profile as Record<string, unknown>;
      expect(profile).toMatchObject({
        email,
        name: "Visiting Vera",
        organisationName: "Demo Company",
        loginMethod: "DemoCode",
        demoMode: true,
        userIsAdmin: false,
      });
      const copy = await ctx()
        .database.db.selectFrom("organisations")
        .select(["id", "tenant", "is_demo"])
        .where("id", "=", profile.organisationGUID as string)
        .executeTakeFirstOrThrow();
      expect(copy.tenant).toMatch(/^demo-/);
      expect(copy.is_demo).toBe(true);
      // Signed in, the visitor sees the generated demo business at once: Verify answered after its
      // import, so its three years are there on the first call.
      const periods = await browser.request("GET", "/api/variance/VarianceOverview/ActualPeriods");
      expect(periods.json).toHaveLength(demoMonths.count);
      const last = demoMonths.first.year * 12 + demoMonths.first.month - 1 + demoMonths.count - 1;
      expect((periods.json as unknown as unknown[])[0]).toEqual({
        yearNo: Math.floor(last / 12),
        monthNo: (last % 12) + 1,
      });
      const job = await ctx()
        .database.db.selectFrom("import_jobs")
        .select(["status", "file_name"])
        .where("organisation_id", "=", copy.id)
        .execute();
      expect(job).toEqual([{ status: "Completed", file_name: "varia-demo-data.csv" }]);
      // Nothing of the default tenant's.
      const secret = await browser.request(
        "POST",
        "/api/variance/Lookup/GetClientList",
        {
          search: "ONLY-IN-DEFAULT",
        },
        { "x-xsrf-token": browser.cookie("XSRF-TOKEN") ?? "" },
      );
      expect(secret.status).toBe(200);
      expect(secret.json.rowCount).toBe(0);
      const clients = await browser.request(
        "POST",
        "/api/variance/Lookup/GetClientList",
        { rowLimit: 1 },
        { "x-xsrf-token": browser.cookie("XSRF-TOKEN") ?? "" },
      );
      expect(clients.json.rowCount).toBeGreaterThan(250);
      const widgets = await sql<{
        label: string;
      }>`select label from demo_widgets where organisation_id = ${copy.id} order by id`.execute(
        ctx().database.db,
      );
      expect(widgets.rows).toEqual([]);
      // The visitor may not invite people or mint tokens in the copy.
      expect((await browser.request("GET", "/api/variance/UserManagement/GetUserList")).status).toBe(403);
      // The code worked once.
      const again = await new Browser(ctx().tenantUrl("demo")).request("POST", "/api/Demo/Verify", {
        email,
        code,
      });
      expect(again.status).toBe(401);

      // A second visitor gets another copy.
      const other = `olga.${ctx().kind}@bigcorp.example.com`;
      const second = new Browser(ctx().tenantUrl("demo"));
      await signup(second, other);
      await second.request("POST", "/api/Demo/Verify", {
        email: other,
        code: codeOf((await mail.waitFor(other)).subject),
      });
      const secondProfile = (await second.request("GET", "/api/Account/AuthorisedPing")).json
        .profile as Record<string, unknown>;
      expect(secondProfile.organisationGUID).not.toBe(profile.organisationGUID);
    });

    it("allows 5 tries and 10 minutes", async () => {
      const email = `tries.${ctx().kind}@bigcorp.example.com`;
      const browser = new Browser(ctx().tenantUrl("demo"));
      await signup(browser, email);
      const code = codeOf((await mail.waitFor(email)).subject);
      const wrong = code === "000000" ? "111111" : "000000";
      for (let i = 0; i < 5; i++)
        expect((await browser.request("POST", "/api/Demo/Verify", { email, code: wrong })).status).toBe(401);
      expect((await browser.request("POST", "/api/Demo/Verify", { email, code })).status).toBe(401);

      await signup(browser, email);
      const fresh = codeOf((await mail.waitFor(email)).subject);
      clock.advance(10 * 60_000);
      expect((await browser.request("POST", "/api/Demo/Verify", { email, code: fresh })).status).toBe(401);
    });

    it("deletes a visitor's copy after a week, when another visitor signs in", async () => {
      const visit = async (email: string) => {
        const browser = new Browser(ctx().tenantUrl("demo"));
        await signup(browser, email);
        await browser.request("POST", "/api/Demo/Verify", {
          email,
          code: codeOf((await mail.waitFor(email)).subject),
        });
        const profile = (await browser.request("GET", "/api/Account/AuthorisedPing")).json.profile as Record<
          string,
          string
        >;
        return profile.organisationGUID;
      };
      const first = await visit(`week1.${ctx().kind}@bigcorp.example.com`);
      const exists = async (id: string | undefined) =>
        (await ctx().database.db.selectFrom("organisations").select("id").where("id", "=", id!).execute())
          .length === 1;
      clock.advance(6 * 24 * 3600_000);
      const second = await visit(`week2.${ctx().kind}@bigcorp.example.com`);
      expect(await exists(first)).toBe(true);
      clock.advance(24 * 3600_000 + 1000);
      await visit(`week3.${ctx().kind}@bigcorp.example.com`);
      // The clean-up runs after the sign-in's answer; all copies it finds stale go in one statement.
      await vi.waitFor(async () => expect(await exists(first)).toBe(false), {
        timeout: 10_000,
        interval: 50,
      });
      expect(await exists(second)).toBe(true);
      expect(
        await exists(
          (
            await ctx()
              .database.db.selectFrom("organisations")
              .select("id")
              .where("tenant", "=", "demo")
              .executeTakeFirst()
          )?.id,
        ),
      ).toBe(true);
    });

    it("revokes a deleted copy's grants at their providers after the sign-in answered, and deletes it when a provider fails", async () => {
      const db = ctx().database.db;
      const email = `grants.${ctx().kind}@bigcorp.example.com`;
      const browser = new Browser(ctx().tenantUrl("demo"));
      await signup(browser, email);
      await browser.request("POST", "/api/Demo/Verify", {
        email,
        code: codeOf((await mail.waitFor(email)).subject),
      });
      const organisationId = (
        (await browser.request("GET", "/api/Account/AuthorisedPing")).json.profile as Record<string, string>
      ).organisationGUID!;
      // The visitor connected Xero and QuickBooks (as a sign-up or Connect keeps a grant).
      const cipher = await TokenCipher.open(db);
      const grants = [
        { type: "Xero" as const, id: randomUUID(), refreshToken: `xero-refresh-${randomUUID()}` },
        { type: "Quickbooks" as const, id: randomUUID(), refreshToken: `intuit-refresh-${randomUUID()}` },
      ];
      for (const grant of grants) {
        const context = `${organisationId}/${grant.id}`;
        await db
          .insertInto("connections")
          .values({
            organisation_id: organisationId,
            id: grant.id,
            integration_type: grant.type,
            issuer: "https://issuer.example.com",
            subject: grant.id,
            access_token_encrypted: cipher.encrypt(`access-${grant.id}`, `${context}/access`),
            refresh_token_encrypted: cipher.encrypt(grant.refreshToken, `${context}/refresh`),
          })
          .execute();
      }
      const [xeroGrant, intuitGrant] = grants as [(typeof grants)[0], (typeof grants)[0]];
      const xeroSeen = xero.revocations.length;
      const intuitSeen = quickBooks.revocations.length;
      const intuitAsked = quickBooks.requests.length;
      // Intuit does not answer when the copy goes, then fails: the next visitor does not wait on it.
      quickBooks.failNext({ path: "/v2/oauth2/tokens/revoke", hang: true });

      clock.advance(demoCopyLifetimeMs + 1000);
      const next = `grants2.${ctx().kind}@bigcorp.example.com`;
      await signup(new Browser(ctx().tenantUrl("demo")), next);
      const verified = await new Browser(ctx().tenantUrl("demo")).request("POST", "/api/Demo/Verify", {
        email: next,
        code: codeOf((await mail.waitFor(next)).subject),
      });
      expect(verified.status).toBe(200);
      const revocationAsked = () =>
        quickBooks.requests.slice(intuitAsked).some((request) => request.path === "/v2/oauth2/tokens/revoke");
      await vi.waitFor(() => expect(revocationAsked()).toBe(true), { timeout: 10_000, interval: 20 });
      expect(
        await db.selectFrom("organisations").select("id").where("id", "=", organisationId).execute(),
      ).toHaveLength(1);
      quickBooks.release(503);
      await vi.waitFor(
        async () =>
          expect(
            await db.selectFrom("organisations").select("id").where("id", "=", organisationId).execute(),
          ).toEqual([]),
        { timeout: 10_000, interval: 50 },
      );

      expect(xero.revocations.slice(xeroSeen)).toEqual([{ token: xeroGrant.refreshToken, ...xeroClient }]);
      expect(quickBooks.revocations.length).toBe(intuitSeen);
      expect(
        await db.selectFrom("organisations").select("id").where("id", "=", organisationId).execute(),
      ).toEqual([]);
      expect(
        await db
          .selectFrom("connections")
          .select("id")
          .where("organisation_id", "=", organisationId)
          .execute(),
      ).toEqual([]);
      const lines = logLines.map((line) => JSON.parse(line) as Record<string, unknown>);
      expect(
        lines.filter(
          (line) =>
            line.msg ===
              "the grant could not be revoked at the provider; the connection is deleted all the same" &&
            line.organisation === organisationId,
        ),
      ).toEqual([
        expect.objectContaining({
          level: 40,
          organisation: organisationId,
          connection: intuitGrant.id,
          provider: "Intuit",
          status: 503,
        }),
      ]);
      expect(
        lines.filter(
          (line) => line.msg === "grant revoked at the provider" && line.organisation === organisationId,
        ),
      ).toEqual([
        expect.objectContaining({ organisation: organisationId, connection: xeroGrant.id, provider: "Xero" }),
      ]);
      expect(
        lines.filter(
          (line) => line.msg === "deleting an old demo organisation" && line.organisation === organisationId,
        ),
      ).toEqual([expect.objectContaining({ connections: 2, revoked: 1 })]);
      const log = logLines.join("\n");
      for (const grant of grants) expect(log).not.toContain(grant.refreshToken);
    });

    it("stores a contact message and mails it to the configured address", async () => {
      const email = `contact.${ctx().kind}@bigcorp.example.com`;
      const browser = new Browser(ctx().tenantUrl("demo"));
      await signup(browser, email);
      await browser.request("POST", "/api/Demo/Verify", {
        email,
        code: codeOf((await mail.waitFor(email)).subject),
      });
      const sent = await browser.request(
        "POST",
        "/api/Demo/ContactUs",
        { userMessage: "Please call me about pricing." },
        { "x-xsrf-token": browser.cookie("XSRF-TOKEN") ?? "" },
      );
      expect(sent.status).toBe(200);
      const received = await mail.waitFor("sales@varia.test", (m) => m.text.includes(email));
      expect(received.text).toContain("Please call me about pricing.");
      const stored = await ctx()
        .database.db.selectFrom("contact_messages")
        .select("message")
        .where("email", "=", email)
        .execute();
      expect(stored).toEqual([{ message: "Please call me about pricing." }]);
    });

    it("logs each mail by its kind and a masked address: never the code, the subject or the address", async () => {
      const email = `logged.${ctx().kind}@bigcorp.example.com`;
      const browser = new Browser(ctx().tenantUrl("demo"));
      const from = logLines.length;
      expect((await signup(browser, email)).status).toBe(200);
      const code = codeOf((await mail.waitFor(email)).subject);
      await browser.request("POST", "/api/Demo/Verify", { email, code });
      const sent = await browser.request(
        "POST",
        "/api/Demo/ContactUs",
        { userMessage: "Logged or not?" },
        { "x-xsrf-token": browser.cookie("XSRF-TOKEN") ?? "" },
      );
      expect(sent.status).toBe(200);
      const lines = logLines.slice(from);
      const mails = lines
        .map((line) => JSON.parse(line) as Record<string, unknown>)
        .filter((line) => line.msg === "mail sent");
      expect(mails).toEqual([
        expect.objectContaining({ mail: "demo-code", to: "l***@bigcorp.example.com" }),
        expect.objectContaining({ mail: "contact", to: "s***@varia.test" }),
      ]);
      const log = lines.join("\n");
      expect(log).not.toContain(code);
      expect(log).not.toContain(email);
      expect(log).not.toContain("sales@varia.test");
      expect(log).not.toContain("Visiting Vera");
      expect(log).not.toContain("subject");
    });
  },
  {
    clock,
    env: () => ({
      SMTP_URL: mail.url,
      RECAPTCHA_SECRET: "test-secret",
      RECAPTCHA_VERIFY_URL: `http://127.0.0.1:${(captcha.address() as AddressInfo).port}/siteverify`,
      VARIA_CONTACT_EMAIL: "sales@varia.test",
      VARIA_DEMO_MODE: "true",
      LOG_LEVEL: "info",
      VARIA_XERO_REVOCATION_URL: `${xero.url}/connect/revocation`,
      VARIA_QUICKBOOKS_REVOCATION_URL: `${quickBooks.url}/v2/oauth2/tokens/revoke`,
      VARIA_SSO_XERO_CLIENT_ID: xeroClient.clientId,
      VARIA_SSO_XERO_CLIENT_SECRET: xeroClient.clientSecret,
      VARIA_SSO_INTUIT_CLIENT_ID: intuitClient.clientId,
      VARIA_SSO_INTUIT_CLIENT_SECRET: intuitClient.clientSecret,
    }),
    logStream: { write: (line: string) => void logLines.push(line) },
  },
);

describeWithServer("demo sign-up outside demo mode", (ctx) => {
  it("does not exist: Demo/Signup and Demo/Verify answer 404 and nothing is mailed or made", async () => {
    await ctx().createOrganisation("demo");
    const browser = new Browser(ctx().tenantUrl("demo"));
    const email = `nodemo.${ctx().kind}@bigcorp.example.com`;
    const signup = await browser.request("POST", "/api/Demo/Signup", {
      name: "Visiting Vera",
      email,
      phoneDetected: false,
    });
    expect(signup.status).toBe(404);
    const verify = await browser.request("POST", "/api/Demo/Verify", { email, code: "123456" });
    expect(verify.status).toBe(404);
    const requests = await ctx().database.db.selectFrom("demo_requests").select("id").execute();
    expect(requests).toEqual([]);
    const organisations = await ctx().database.db.selectFrom("organisations").select("tenant").execute();
    expect(organisations).toEqual([{ tenant: "demo" }]);
  });
});
