import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import type { AccountingPackage, ImportSchedule } from "@varia/contracts";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { queueScheduledImport } from "../src/connectors/connections";
import { type AccountingConnector, ConnectorError, type ExternalSource } from "../src/connectors/connector";
import type { ConnectorRegistry } from "../src/connectors/index";
import { convertQuickBooks, type QuickBooksExport } from "../src/connectors/quickbooks/convert-quickbooks";
import { quickBooksConnector } from "../src/connectors/quickbooks/quickbooks-api";
import { xeroConnector } from "../src/connectors/xero/xero-api";
import { hour24, scheduleCron } from "../src/imports/import-schedules";
import "../src/db/integration-schema";
import { type AccountingStandIn, startQuickBooksStandIn, startXeroStandIn } from "./accounting-stand-ins";
import { Browser, describeWithServer, finishedJob, heldGrant } from "./harness";
import { MailReceiver } from "./mail-receiver";
import { followToVaria, startOidcProvider } from "./oidc-stand-ins";

const sample = join(import.meta.dirname, "fixtures", "quickbooks-sample");
const quickBooksSample = {
  invoices: readFileSync(join(sample, "invoice_data.csv"), "utf8"),
  invoiceLines: readFileSync(join(sample, "invoice_line_data.csv"), "utf8"),
  items: readFileSync(join(sample, "item_data.csv"), "utf8"),
};

const base: ImportSchedule = {
  dataSourceId: "x",
  timeZone: "Pacific/Auckland",
  country: "NewZealand",
  interval: "Daily",
  hour: 6,
  minute: 30,
  amPm: "AM",
};

describe("a schedule's cron expression", () => {
  it("turns the 12-hour clock into 24 hours: 12 AM is 0, 12 PM is 12", () => {
    expect([hour24(12, "AM"), hour24(1, "AM"), hour24(11, "AM")]).toEqual([0, 1, 11]);
    expect([hour24(12, "PM"), hour24(1, "PM"), hour24(11, "PM")]).toEqual([12, 13, 23]);
  });

  it("is minute hour dayOfMonth * * monthly, minute hour * * weekday weekly, daily and hourly", () => {
    expect(scheduleCron({ ...base, interval: "Monthly", dayOfMonth: 15, hour: 6, amPm: "PM" })).toBe(
      "30 18 15 * *",
    );
    expect(scheduleCron({ ...base, interval: "Weekly", dayOfWeek: "Sunday", hour: 12, amPm: "AM" })).toBe(
      "30 0 * * 0",
    );
    expect(scheduleCron({ ...base, interval: "Weekly", dayOfWeek: "Saturday" })).toBe("30 6 * * 6");
    expect(scheduleCron({ ...base, interval: "Daily", hour: 12, amPm: "PM", minute: 0 })).toBe("0 12 * * *");
    expect(scheduleCron({ ...base, interval: "Hourly", minute: 5 })).toBe("5 * * * *");
  });
});

/**
 * A stand-in accounting API on a free port: `/sources` lists the companies the bearer may read
 * (QuickBooks names one by `realm`), `/invoices/<id>` answers the QuickBooks sample's tables. It
 * records the tokens it was sent, and answers `failWith` (for `failTimes` calls) when told.
 */
async function startAccountingApi() {
  const state = {
    tokens: [] as string[],
    failWith: 0,
    failTimes: 0,
    sources: [
      { externalId: "9130", name: "Craig's Design" },
      { externalId: "9131", name: "Amy's Bird Sanctuary" },
    ],
  };
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1];
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(body));
    };
    if (!token) return send(401, { error: "no token" });
    state.tokens.push(token);
    if (state.failTimes > 0) {
      state.failTimes--;
      return send(state.failWith, { error: `failing with ${state.failWith}` });
    }
    if (url.pathname === "/sources") {
      const realm = url.searchParams.get("realm");
      return send(200, realm ? state.sources.filter((s) => s.externalId === realm) : state.sources);
    }
    if (url.pathname.startsWith("/invoices/")) return send(200, quickBooksSample);
    return send(404, { error: "not found" });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, state, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/**
 * A small connector reaching the stand-in API over HTTP, as the real ones reach the providers; it
 * revokes as the real connector does, at the revocation endpoint of the provider's stand-in.
 */
function standInConnector(integrationType: AccountingPackage): AccountingConnector {
  async function get<T>(apiUrl: string, accessToken: string, path: string): Promise<T> {
    const response = await fetch(`${apiUrl}${path}`, { headers: { authorization: `Bearer ${accessToken}` } });
    if (!response.ok)
      throw new ConnectorError(
        `The stand-in answered ${response.status}`,
        response.status,
        response.status === 429 || response.status >= 500,
      );
    return (await response.json()) as T;
  }
  return {
    integrationType,
    listSources: (access, hint) =>
      get<ExternalSource[]>(
        access.apiUrl,
        access.accessToken,
        `/sources${hint ? `?realm=${encodeURIComponent(hint)}` : ""}`,
      ),
    readInvoices: async (access, source) =>
      convertQuickBooks(
        await get<QuickBooksExport>(access.apiUrl, access.accessToken, `/invoices/${source.externalId}`),
      ),
    revoke: (integrationType === "Quickbooks" ? quickBooksConnector : xeroConnector).revoke,
  };
}

const publicUrl = "http://localhost:8080";
const oidcClient = { clientId: "varia-accounting", clientSecret: "accounting secret" };
let op: Awaited<ReturnType<typeof startOidcProvider>>;
let api: Awaited<ReturnType<typeof startAccountingApi>>;
/** Intuit's and Xero's revocation endpoints (their APIs are not read here: the connectors read `api`). */
let intuit: AccountingStandIn;
let xeroIdentity: AccountingStandIn;
const logLines: string[] = [];
const mail = new MailReceiver();
beforeAll(async () => {
  await mail.start();
  op = await startOidcProvider({
    ...oidcClient,
    refreshTokens: true,
    redirectUris: [
      "http://localhost:8080/api/Auth/SingleSignUpCallback/Intuit",
      "http://localhost:8080/api/Auth/SingleSignUpCallback/Xero",
      // An organisation that connects Xero after signing up with a password, on its own site.
      "http://intconn-pglite.localhost:8080/api/Auth/SingleSignOnCallback/Xero",
      "http://intconn-postgres.localhost:8080/api/Auth/SingleSignOnCallback/Xero",
    ],
  });
  api = await startAccountingApi();
  intuit = await startQuickBooksStandIn({
    accessToken: "not read",
    realmId: "9131",
    companyName: "Amy's Bird Sanctuary",
    invoices: [],
    items: [],
    client: oidcClient,
  });
  xeroIdentity = await startXeroStandIn({ accessToken: "not read", tenants: [], client: oidcClient });
});
afterAll(async () => {
  await mail.close();
  await op.close();
  await api.close();
  await intuit.close();
  await xeroIdentity.close();
});

describeWithServer(
  "integration",
  (ctx) => {
    const port = () => new URL(ctx().url).port;
    const local = (url: URL) => `${url.pathname}${url.search}`;

    /** Signs up through the provider; Intuit's callback also carries the company (`realmId`). */
    async function signUp(provider: "Quickbooks" | "Xero", account: string, realmId?: string) {
      op.state.nextAccount = account;
      const app = new Browser(`http://localhost:${port()}`);
      const start = await app.request("GET", `/api/Auth/SingleSignUp/${provider}`);
      expect(start.status).toBe(302);
      const back = await followToVaria(start.headers.get("location")!, (url) => url.port === "8080");
      if (realmId) back.searchParams.set("realmId", realmId);
      const answer = await app.request("GET", local(back));
      const handoff = new URL(answer.headers.get("location")!);
      const site = new Browser(`http://${handoff.hostname}:${port()}`);
      const landed = await site.request("GET", local(handoff));
      expect(landed.headers.get("location")).toBe("/sign-up/data");
      const organisation = await ctx()
        .database.db.selectFrom("organisations")
        .select("id")
        .where("tenant", "=", handoff.hostname.split(".")[0]!)
        .executeTakeFirstOrThrow();
      const post = (path: string, body: unknown) =>
        site.request("POST", path, body, { "x-xsrf-token": site.cookie("XSRF-TOKEN") ?? "" });
      return { site, post, organisationId: organisation.id };
    }

    const logged = (msg: string, connection: string) =>
      logLines
        .map((line) => JSON.parse(line) as Record<string, unknown>)
        .filter((line) => line.msg === msg && line.connection === connection);

    let founder: Awaited<ReturnType<typeof signUp>>;
    let sourceId: string;

    it("keeps Intuit's grant as the connection, encrypted, and lists the company named by realmId", async () => {
      const seen = api.state.tokens.length;
      founder = await signUp("Quickbooks", `qb-founder-${ctx().kind}`, "9131");
      const sources = await founder.site.request("GET", "/api/Integration/GetDataSources");
      expect(sources.status).toBe(200);
      expect(sources.json).toEqual([
        {
          id: expect.any(String),
          integrationGuid: expect.any(String),
          integrationType: "Quickbooks",
          name: "Amy's Bird Sanctuary",
          schedule: null,
          lastJobGuid: null,
        },
      ]);
      sourceId = (sources.json as unknown as { id: string }[])[0]!.id;
      const token = api.state.tokens[seen]!;
      expect(token).toBeTruthy();
      const connection = await ctx()
        .database.db.selectFrom("connections")
        .selectAll()
        .where("organisation_id", "=", founder.organisationId)
        .executeTakeFirstOrThrow();
      expect(connection).toMatchObject({ integration_type: "Quickbooks", issuer: op.issuer });
      expect(connection.access_token_encrypted).not.toContain(token);
      expect(connection.access_token_encrypted).toMatch(/^v1\./);
      expect(connection.refresh_token_encrypted).toMatch(/^v1\./);
      // Another organisation's filter, or an unknown connection, lists nothing.
      const unknown = await founder.site.request(
        "GET",
        "/api/Integration/GetDataSources?IntegrationGuid=8d7e3f3c-7a51-4a7e-9d2b-3f0c2a1b4c5d",
      );
      expect(unknown.json).toEqual([]);
      const filtered = await founder.site.request(
        "GET",
        `/api/Integration/GetDataSources?IntegrationGuid=${connection.id}`,
      );
      expect(filtered.json).toHaveLength(1);
    });

    it("signs up through Xero even when listing its organisations fails: no sources, no token logged", async () => {
      api.state.failWith = 500;
      api.state.failTimes = 1;
      const xero = await signUp("Xero", `xero-founder-${ctx().kind}`);
      expect(api.state.failTimes).toBe(0);
      expect((await xero.site.request("GET", "/api/Integration/GetDataSources")).json).toEqual([]);
      const ping = await xero.site.request("GET", "/api/Account/AuthorisedPing");
      expect(ping.json.profile).toMatchObject({ organisationSignUpStep: "Data" });
      const connection = await ctx()
        .database.db.selectFrom("connections")
        .select("integration_type")
        .where("organisation_id", "=", xero.organisationId)
        .executeTakeFirstOrThrow();
      expect(connection.integration_type).toBe("Xero");
      expect(
        logLines.some((line) => line.includes("listing the data sources of a new connection failed")),
      ).toBe(true);
      for (const token of api.state.tokens) expect(logLines.join("\n")).not.toContain(token);
    });

    it("saves a schedule: a known time zone and the organisation's own source, registered with pg-boss", async () => {
      const schedule = {
        ...base,
        dataSourceId: sourceId,
        interval: "Monthly",
        dayOfMonth: 15,
        hour: 6,
        amPm: "PM",
      };
      const badZone = await founder.post("/api/Integration/AddSchedule", {
        ...schedule,
        timeZone: "Mars/Olympus",
      });
      expect(badZone.status).toBe(400);
      expect(badZone.json.errors).toEqual([
        { field: "timeZone", message: "'Mars/Olympus' is not a time zone" },
      ]);
      const noDay = await founder.post("/api/Integration/AddSchedule", { ...schedule, dayOfMonth: null });
      expect(noDay.status).toBe(400);
      expect(JSON.stringify(noDay.json.errors)).toContain("dayOfMonth");
      const unknown = await founder.post("/api/Integration/AddSchedule", {
        ...schedule,
        dataSourceId: "8d7e3f3c-7a51-4a7e-9d2b-3f0c2a1b4c5d",
      });
      expect(unknown.status).toBe(404);
      expect(await ctx().server.jobs.getSchedule(sourceId)).toBeNull();

      expect((await founder.post("/api/Integration/AddSchedule", schedule)).status).toBe(200);
      expect(await ctx().server.jobs.getSchedule(sourceId)).toMatchObject({
        cron: "30 18 15 * *",
        timezone: "Pacific/Auckland",
        data: { organisationId: founder.organisationId, dataSourceId: sourceId },
      });
      // Saved again as weekly: replaced, and the day of the month is gone.
      const weekly = { ...schedule, interval: "Weekly", dayOfWeek: "Tuesday", timeZone: "Europe/London" };
      expect((await founder.post("/api/Integration/AddSchedule", weekly)).status).toBe(200);
      expect(await ctx().server.jobs.getSchedule(sourceId)).toMatchObject({
        cron: "30 18 * * 2",
        timezone: "Europe/London",
      });
      const [listed] = (await founder.site.request("GET", "/api/Integration/GetDataSources"))
        .json as unknown as {
        schedule: unknown;
      }[];
      expect(listed!.schedule).toEqual({ ...weekly, dayOfMonth: null });

      // pg-boss cannot take the cron: the schedule shown stays the one that runs.
      const failing = vi
        .spyOn(ctx().server.jobs, "schedule")
        .mockRejectedValueOnce(new Error("the job queue is out of order"));
      try {
        const daily = { ...weekly, interval: "Daily", hour: 9 };
        expect((await founder.post("/api/Integration/AddSchedule", daily)).status).toBe(500);
        const [kept] = (await founder.site.request("GET", "/api/Integration/GetDataSources"))
          .json as unknown as { schedule: unknown }[];
        expect(kept!.schedule).toEqual(listed!.schedule);
        expect(await ctx().server.jobs.getSchedule(sourceId)).toMatchObject({ cron: "30 18 * * 2" });
      } finally {
        failing.mockRestore();
      }
    });

    it("imports now through the connector: the normal import, an undo record, and sign-up moves to Configure", async () => {
      const weekly = {
        ...base,
        dataSourceId: sourceId,
        interval: "Weekly",
        dayOfWeek: "Tuesday",
      };
      const queued = await founder.post("/api/Integration/AddScheduleImportData", weekly);
      expect(queued.status).toBe(200);
      const jobGuid = queued.json.jobGuid as string;
      const job = await finishedJob(founder.site, jobGuid);
      expect(job).toMatchObject({ status: "Completed", fileName: "QuickBooks: Amy's Bird Sanctuary" });
      expect(job.rowsImported).toBeGreaterThan(0);
      const [listed] = (await founder.site.request("GET", "/api/Integration/GetDataSources"))
        .json as unknown as {
        lastJobGuid: string;
      }[];
      expect(listed!.lastJobGuid).toBe(jobGuid);
      const undo = await ctx()
        .database.db.selectFrom("backups")
        .select("reason")
        .where("organisation_id", "=", founder.organisationId)
        .where("import_job_id", "=", jobGuid)
        .execute();
      expect(undo).toEqual([{ reason: "BeforeImport" }]);
      const ping = await founder.site.request("GET", "/api/Account/AuthorisedPing");
      expect(ping.json.profile).toMatchObject({ organisationSignUpStep: "Configure" });
    });

    it("refreshes an expired access token with the refresh grant and stores the new one encrypted", async () => {
      const db = ctx().database.db;
      const before = await db
        .selectFrom("connections")
        .selectAll()
        .where("organisation_id", "=", founder.organisationId)
        .executeTakeFirstOrThrow();
      await db
        .updateTable("connections")
        .set({ access_expires_at: new Date(Date.now() - 60_000) })
        .where("organisation_id", "=", founder.organisationId)
        .execute();
      const oldTokens = new Set(api.state.tokens);
      const run = await founder.post("/api/Integration/RunSchedule", { dataSourceId: sourceId });
      expect(run.status).toBe(200);
      expect(await finishedJob(founder.site, run.json.jobGuid as string)).toMatchObject({
        status: "Completed",
      });
      const used = api.state.tokens.at(-1)!;
      expect(oldTokens.has(used)).toBe(false);
      const after = await db
        .selectFrom("connections")
        .selectAll()
        .where("organisation_id", "=", founder.organisationId)
        .executeTakeFirstOrThrow();
      expect(after.access_token_encrypted).not.toBe(before.access_token_encrypted);
      expect(after.access_token_encrypted).not.toContain(used);
      expect(new Date(after.access_expires_at as unknown as string).getTime()).toBeGreaterThan(Date.now());
    });

    it("retries a provider's passing failure; a refusal ends the job Failed with its message", async () => {
      api.state.failWith = 503;
      api.state.failTimes = 1;
      const retried = await founder.post("/api/Integration/RunSchedule", { dataSourceId: sourceId });
      expect(await finishedJob(founder.site, retried.json.jobGuid as string)).toMatchObject({
        status: "Completed",
      });
      const attempts = await ctx()
        .database.db.selectFrom("import_jobs")
        .select("attempts")
        .where("organisation_id", "=", founder.organisationId)
        .where("id", "=", retried.json.jobGuid as string)
        .executeTakeFirstOrThrow();
      expect(attempts.attempts).toBe(2);

      api.state.failWith = 403;
      api.state.failTimes = 1;
      const refused = await founder.post("/api/Integration/RunSchedule", { dataSourceId: sourceId });
      expect(await finishedJob(founder.site, refused.json.jobGuid as string)).toMatchObject({
        status: "Failed",
        message: "The stand-in answered 403",
      });
    });

    it("answers the sign-up configuration and configures the organisation in one go", async () => {
      const read = await founder.site.request("GET", "/api/Integration/GetSignUpConfiguration");
      expect(read.status).toBe(200);
      const skus = read.json.skus as { code: string; name: string }[];
      expect(skus.length).toBeGreaterThan(2);
      const [first, second, third] = skus.map((s) => s.code);
      // A code that names no item: 400 naming it, nothing changed.
      const bad = await founder.post("/api/Integration/ConfigureOrganisation", {
        organisationName: "Amy's Birds",
        defaultCategory: "Adhoc",
        recurringSkus: [first],
        adhocSkus: ["NO-SUCH-ITEM"],
      });
      expect(bad.status).toBe(400);
      expect(bad.json.errors).toEqual([{ field: "adhocSkus.0", message: "no item 'NO-SUCH-ITEM'" }]);
      const twice = await founder.post("/api/Integration/ConfigureOrganisation", {
        organisationName: "Amy's Birds",
        defaultCategory: "Adhoc",
        recurringSkus: [first],
        adhocSkus: [first],
      });
      expect(twice.status).toBe(400);
      expect((await founder.site.request("GET", "/api/Integration/GetSignUpConfiguration")).json).toEqual(
        read.json,
      );

      const ok = await founder.post("/api/Integration/ConfigureOrganisation", {
        organisationName: "Amy's Birds",
        defaultCategory: "Adhoc",
        recurringSkus: [first, second],
        adhocSkus: [third],
      });
      expect(ok.status).toBe(200);
      expect((await founder.site.request("GET", "/api/Integration/GetSignUpConfiguration")).json).toEqual({
        organisationName: "Amy's Birds",
        defaultCategory: "Adhoc",
        skus,
        recurringSkus: [first, second].sort(),
        adhocSkus: [third],
      });
      const ping = await founder.site.request("GET", "/api/Account/AuthorisedPing");
      expect(ping.json.profile).toMatchObject({ organisationSignUpStep: null });

      expect((await founder.post("/api/Integration/SetSignUpStep", { step: "Data" })).status).toBe(200);
      const again = await founder.site.request("GET", "/api/Account/AuthorisedPing");
      expect(again.json.profile).toMatchObject({ organisationSignUpStep: "Data" });
    });

    it("queues the source's import at a schedule's occurrence, and drops the schedule of a source gone", async () => {
      const jobs = ctx().server.jobs;
      const uploads = join(ctx().config.dataDir, "uploads");
      const data = { organisationId: founder.organisationId, dataSourceId: sourceId };
      const queued = await queueScheduledImport(jobs, uploads, data);
      expect(await finishedJob(founder.site, queued!.jobGuid)).toMatchObject({
        status: "Completed",
        fileName: "QuickBooks: Amy's Bird Sanctuary",
      });
      const row = await ctx()
        .database.db.selectFrom("import_jobs")
        .select(["kind", "user_id"])
        .where("organisation_id", "=", founder.organisationId)
        .where("id", "=", queued!.jobGuid)
        .executeTakeFirstOrThrow();
      expect(row).toEqual({ kind: "Connector", user_id: null });

      const gone = "0b3e6a4c-0000-4000-8000-000000000001";
      await jobs.schedule(gone, "0 6 * * *", "UTC", {
        organisationId: founder.organisationId,
        dataSourceId: gone,
      });
      expect(
        await queueScheduledImport(jobs, uploads, {
          organisationId: founder.organisationId,
          dataSourceId: gone,
        }),
      ).toBeNull();
      expect(await jobs.getSchedule(gone)).toBeNull();
      expect(await jobs.getSchedule(sourceId)).not.toBeNull();
    });

    it("mails the admins when a scheduled import fails, with a link from configuration; not for a user's own import", async () => {
      const { tenant } = await ctx()
        .database.db.selectFrom("organisations")
        .select("tenant")
        .where("id", "=", founder.organisationId)
        .executeTakeFirstOrThrow();
      const admin = `qb-founder-${ctx().kind}@bigcorp.example.com`;
      const subject = "Varia could not import Amy's Bird Sanctuary from QuickBooks";
      // Started by a user, who follows it on the screen: no mail.
      api.state.failWith = 401;
      api.state.failTimes = 1;
      const mine = await founder.post("/api/Integration/RunSchedule", { dataSourceId: sourceId });
      expect(await finishedJob(founder.site, mine.json.jobGuid as string)).toMatchObject({
        status: "Failed",
      });
      // At a schedule's occurrence, with nobody watching: every admin is told.
      api.state.failWith = 401;
      api.state.failTimes = 1;
      const uploads = join(ctx().config.dataDir, "uploads");
      const queued = await queueScheduledImport(ctx().server.jobs, uploads, {
        organisationId: founder.organisationId,
        dataSourceId: sourceId,
      });
      expect(await finishedJob(founder.site, queued!.jobGuid)).toMatchObject({
        status: "Failed",
        message: "The stand-in answered 401",
      });
      const received = await mail.waitFor(admin, (m) => m.subject === subject);
      expect(received.text).toContain(
        "The scheduled import of Amy's Bird Sanctuary from QuickBooks failed: The stand-in answered 401",
      );
      expect(received.text).toContain(`http://${tenant}.localhost:8080/integration/overview`);
      // Jobs run one after another, and the user's ended first: no other mail than the schedule's
      // (which waitFor took).
      expect(mail.mails.filter((m) => m.to.includes(admin) && m.subject === subject)).toHaveLength(0);
    });

    it("connects an organisation that signed up with a password; connecting again keeps one connection", async () => {
      const tenant = `intconn-${ctx().kind}`;
      const org = await ctx().createOrganisation(tenant);
      const browser = new Browser(ctx().tenantUrl(tenant));
      await browser.request("POST", "/api/login", { email: org.email, password: org.password });
      const connect = async () => {
        op.state.nextAccount = `xero-connector-${ctx().kind}`;
        const asked = await browser.request("POST", "/api/Connectors/Xero/AuthorisationURL", undefined, {
          "x-xsrf-token": browser.cookie("XSRF-TOKEN") ?? "",
        });
        expect(asked.status).toBe(200);
        const authorize = new URL((asked.json as { url: string }).url);
        expect(authorize.origin).toBe(op.issuer);
        expect(authorize.searchParams.get("redirect_uri")).toBe(
          `http://${tenant}.localhost:8080/api/Auth/SingleSignOnCallback/Xero`,
        );
        const back = await followToVaria(authorize.href, (url) => url.port === "8080");
        return browser.request("GET", local(back));
      };
      const answer = await connect();
      expect([answer.status, answer.headers.get("location")]).toEqual([302, "/integration/overview"]);
      const listed = (await browser.request("GET", "/api/Integration/GetDataSources")).json as unknown as {
        name: string;
        integrationType: string;
        integrationGuid: string;
      }[];
      // By name.
      expect(listed.map((s) => [s.name, s.integrationType])).toEqual([
        ["Amy's Bird Sanctuary", "Xero"],
        ["Craig's Design", "Xero"],
      ]);
      // The same Xero identity again: new tokens on the same connection, no source twice.
      expect((await connect()).headers.get("location")).toBe("/integration/overview");
      const again = (await browser.request("GET", "/api/Integration/GetDataSources")).json as unknown as {
        integrationGuid: string;
      }[];
      expect(again.map((s) => s.integrationGuid)).toEqual(listed.map((s) => s.integrationGuid));
      // The organisation stays signed up with its password: no sign-up step appears.
      const ping = await browser.request("GET", "/api/Account/AuthorisedPing");
      expect(ping.json.profile).toMatchObject({ organisationSignUpStep: null });
      // Disconnect: the connection, its sources and their schedules go; another organisation's
      // connection is not found.
      const xsrf = { "x-xsrf-token": browser.cookie("XSRF-TOKEN") ?? "" };
      const guid = listed[0]!.integrationGuid;
      const sourceIds = (again as unknown as { id: string }[]).map((s) => s.id);
      const schedule = { ...base, dataSourceId: sourceIds[0]! };
      expect((await browser.request("POST", "/api/Integration/AddSchedule", schedule, xsrf)).status).toBe(
        200,
      );
      expect(await ctx().server.jobs.getSchedule(sourceIds[0]!)).not.toBeNull();
      expect(
        (
          await founder.site.request("DELETE", `/api/Connections/${guid}`, undefined, {
            "x-xsrf-token": founder.site.cookie("XSRF-TOKEN") ?? "",
          })
        ).status,
      ).toBe(404);
      const refreshToken = (await heldGrant(ctx().database, org.organisationId)).refreshToken;
      const revoked = xeroIdentity.revocations.length;
      expect((await browser.request("DELETE", `/api/Connections/${guid}`, undefined, xsrf)).status).toBe(200);
      expect(xeroIdentity.revocations.slice(revoked)).toEqual([{ token: refreshToken, ...oidcClient }]);
      expect((await browser.request("GET", "/api/Integration/GetDataSources")).json).toEqual([]);
      expect(await ctx().server.jobs.getSchedule(sourceIds[0]!)).toBeNull();
      expect((await browser.request("DELETE", `/api/Connections/${guid}`, undefined, xsrf)).status).toBe(404);

      // A connection's state is the organisation's: the callback on another tenant's site is refused.
      const asked = await browser.request("POST", "/api/Connectors/Xero/AuthorisationURL", undefined, {
        "x-xsrf-token": browser.cookie("XSRF-TOKEN") ?? "",
      });
      const back = await followToVaria((asked.json as { url: string }).url, (url) => url.port === "8080");
      back.hostname = `intother-${ctx().kind}.localhost`;
      const elsewhere = await new Browser(`http://${back.hostname}:${port()}`).request("GET", local(back));
      expect(elsewhere.headers.get("location")).toContain("?error=");
    });

    it("lists a QuickBooks connection's company again by its realm, with the name QuickBooks gives it now", async () => {
      const [connection] = (await founder.site.request("GET", "/api/Connections")).json as unknown as {
        integrationGuid: string;
        integrationType: string;
        dataSources: { id: string; name: string; lastJobGuid: string | null }[];
      }[];
      expect(connection).toMatchObject({
        integrationType: "Quickbooks",
        dataSources: [{ id: sourceId, name: "Amy's Bird Sanctuary" }],
      });
      const named = api.state.sources;
      api.state.sources = named.map((s) =>
        s.externalId === "9131" ? { ...s, name: "Amy's Bird Sanctuary Ltd" } : s,
      );
      try {
        const configured = await founder.post(
          `/api/Connections/${connection!.integrationGuid}/Configure`,
          undefined,
        );
        expect(configured.status).toBe(200);
        // The one company of the realm (QuickBooks reaches no other), renamed, keeping its id and last job.
        expect(configured.json.dataSources).toEqual([
          { ...connection!.dataSources[0]!, name: "Amy's Bird Sanctuary Ltd" },
        ]);
      } finally {
        api.state.sources = named;
      }
    });

    it("keeps organisations apart: another one's data source is not found and never listed", async () => {
      const other = await ctx().createOrganisation(`intother-${ctx().kind}`);
      const browser = new Browser(ctx().tenantUrl(`intother-${ctx().kind}`));
      await browser.request("POST", "/api/login", { email: other.email, password: other.password });
      const post = (path: string, body: unknown) =>
        browser.request("POST", path, body, { "x-xsrf-token": browser.cookie("XSRF-TOKEN") ?? "" });
      expect((await browser.request("GET", "/api/Integration/GetDataSources")).json).toEqual([]);
      const schedule = { ...base, dataSourceId: sourceId };
      expect((await post("/api/Integration/AddSchedule", schedule)).status).toBe(404);
      expect((await post("/api/Integration/AddScheduleImportData", schedule)).status).toBe(404);
      expect((await post("/api/Integration/RunSchedule", { dataSourceId: sourceId })).status).toBe(404);
      expect((await post("/api/Integration/RunSchedule", { dataSourceId: "not-a-uuid" })).status).toBe(404);
      // The founder's schedule is untouched.
      expect(await ctx().server.jobs.getSchedule(sourceId)).toMatchObject({ timezone: "Pacific/Auckland" });
    });

    it("disconnecting QuickBooks revokes the connection's refresh token at Intuit, with Varia's client credentials", async () => {
      const grant = await heldGrant(ctx().database, founder.organisationId);
      const seen = intuit.revocations.length;
      const gone = await founder.site.request("DELETE", `/api/Connections/${grant.id}`, undefined, {
        "x-xsrf-token": founder.site.cookie("XSRF-TOKEN") ?? "",
      });
      expect(gone.status).toBe(200);
      expect(intuit.revocations.slice(seen)).toEqual([{ token: grant.refreshToken, ...oidcClient }]);
      expect((await founder.site.request("GET", "/api/Connections")).json).toEqual([]);
      expect(await ctx().server.jobs.getSchedule(sourceId)).toBeNull();
      expect(logged("accounting package disconnected", grant.id)).toEqual([
        expect.objectContaining({ revoked: true, sources: 1 }),
      ]);
      expect(logLines.join("\n")).not.toContain(grant.refreshToken);
    });

    it("disconnects QuickBooks all the same when Intuit is out of reach: a warning without the token", async () => {
      const leaver = await signUp("Quickbooks", `qb-unreached-${ctx().kind}`, "9130");
      const grant = await heldGrant(ctx().database, leaver.organisationId);
      const seen = intuit.revocations.length;
      intuit.failNext({ path: "/v2/oauth2/tokens/revoke", drop: true });
      const gone = await leaver.site.request("DELETE", `/api/Connections/${grant.id}`, undefined, {
        "x-xsrf-token": leaver.site.cookie("XSRF-TOKEN") ?? "",
      });
      expect(gone.status).toBe(200);
      expect((await leaver.site.request("GET", "/api/Connections")).json).toEqual([]);
      expect(intuit.revocations.length).toBe(seen);
      expect(
        logged(
          "the grant could not be revoked at the provider; the connection is deleted all the same",
          grant.id,
        ),
      ).toEqual([
        expect.objectContaining({
          level: 40,
          organisation: leaver.organisationId,
          provider: "Intuit",
          status: null,
          reason: "QuickBooks could not be reached for the revocation",
        }),
      ]);
      expect(logged("accounting package disconnected", grant.id)).toEqual([
        expect.objectContaining({ revoked: false }),
      ]);
      expect(logLines.join("\n")).not.toContain(grant.refreshToken);
    });

    it("deletes the connections, sources and schedules with their organisation", async () => {
      const db = ctx().database.db;
      await db.deleteFrom("organisations").where("id", "=", founder.organisationId).execute();
      for (const table of ["connections", "data_sources", "import_schedules"] as const) {
        const left = await db
          .selectFrom(table)
          .select("organisation_id")
          .where("organisation_id", "=", founder.organisationId)
          .execute();
        expect(left, table).toEqual([]);
      }
    });
  },
  {
    env: () => ({
      VARIA_PUBLIC_URL: publicUrl,
      SMTP_URL: mail.url,
      LOG_LEVEL: "info",
      VARIA_QUICKBOOKS_API_URL: api.url,
      VARIA_XERO_API_URL: api.url,
      VARIA_QUICKBOOKS_REVOCATION_URL: `${intuit.url}/v2/oauth2/tokens/revoke`,
      VARIA_XERO_REVOCATION_URL: `${xeroIdentity.url}/connect/revocation`,
      VARIA_SSO_INTUIT_ISSUER: op.issuer,
      VARIA_SSO_INTUIT_CLIENT_ID: oidcClient.clientId,
      VARIA_SSO_INTUIT_CLIENT_SECRET: oidcClient.clientSecret,
      VARIA_SSO_XERO_ISSUER: op.issuer,
      VARIA_SSO_XERO_CLIENT_ID: oidcClient.clientId,
      VARIA_SSO_XERO_CLIENT_SECRET: oidcClient.clientSecret,
    }),
    logStream: { write: (line: string) => void logLines.push(line) },
    connectors: (): ConnectorRegistry => ({
      Quickbooks: standInConnector("Quickbooks"),
      Xero: standInConnector("Xero"),
    }),
  },
);
