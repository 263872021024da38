import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { TokenCipher } from "../src/auth/token-cipher";
import { queueScheduledImport } from "../src/connectors/connections";
import type { XeroInvoice, XeroItem } from "../src/connectors/xero/xero-api";
import "../src/db/integration-schema";
import { type AccountingStandIn, startXeroStandIn, type XeroStandInTenant } from "./accounting-stand-ins";
import { Browser, describeWithServer, finishedJob, heldGrant } from "./harness";
import { MailReceiver } from "./mail-receiver";
import { followToVaria, startOidcProvider } from "./oidc-stand-ins";

/*
 * The Connections calls, ImportJob/StartImport and the responsible users' mail (docs/integration.md,
 * "Connections in the API"), over real HTTP, with the real Xero connector reading the Xero stand-in,
 * which takes only the access tokens the stand-in identity provider issued.
 */

const items: XeroItem[] = [
  { ItemID: "i1", Code: "SUB-PRO", Name: "Pro subscription", IsTrackedAsInventory: false, IsSold: true },
];
const invoice = (n: number): XeroInvoice => ({
  InvoiceID: `inv-${n}`,
  InvoiceNumber: `INV-${String(n).padStart(4, "0")}`,
  Type: "ACCREC",
  Status: "AUTHORISED",
  Contact: { ContactID: `c-${n}`, Name: `Client ${n}` },
  DateString: "2024-03-01T00:00:00",
  LineAmountTypes: "Exclusive",
  LineItems: [{ LineItemID: `l-${n}`, ItemCode: "SUB-PRO", Quantity: 1, UnitAmount: 100, LineAmount: 100 }],
});
const tenant = (tenantId: string, tenantName: string, n: number): XeroStandInTenant => ({
  tenantId,
  tenantName,
  invoices: [invoice(n), invoice(n + 1)],
  items,
});
const harbour = tenant("7a3e1c2b-0000-4000-8000-00000000a001", "Harbour Software", 1);
const kiwi = tenant("7a3e1c2b-0000-4000-8000-00000000a002", "Kiwi Cafe", 10);
const tasman = tenant("7a3e1c2b-0000-4000-8000-00000000a003", "Tasman Tours", 20);

const oidcClient = { clientId: "varia-xero", clientSecret: "xero secret" };
const unknownGuid = "8d7e3f3c-7a51-4a7e-9d2b-3f0c2a1b4c5d";
let op: Awaited<ReturnType<typeof startOidcProvider>>;
let xero: AccountingStandIn;
/** The tenants the Xero stand-in's authorisation reaches now: the tests change them. */
const tenants: XeroStandInTenant[] = [];
const mail = new MailReceiver();
const logLines: string[] = [];

beforeAll(async () => {
  await mail.start();
  op = await startOidcProvider({
    ...oidcClient,
    refreshTokens: true,
    redirectUris: ["http://localhost:8080/api/Auth/SingleSignUpCallback/Xero"],
  });
  xero = await startXeroStandIn({ accessToken: op.hasIssued, tenants, client: oidcClient });
});
afterAll(async () => {
  await mail.close();
  await xero.close();
  await op.close();
});

type Jobs = { jobs: { dataSourceId: string; jobGuid: string }[] };

interface ConnectionJson {
  integrationGuid: string;
  integrationType: string;
  connectedAt: string;
  dataSources: { id: string; name: string; lastJobGuid: string | null }[];
  responsibleUserIDs: string[];
}

describeWithServer(
  "connections",
  (ctx) => {
    const port = () => new URL(ctx().url).port;
    const local = (url: URL) => `${url.pathname}${url.search}`;

    /** Signs up through Xero; answers the organisation's site, signed in as its admin. */
    async function signUp(account: string) {
      op.state.nextAccount = account;
      const app = new Browser(`http://localhost:${port()}`);
      const start = await app.request("GET", "/api/Auth/SingleSignUp/Xero");
      const back = await followToVaria(start.headers.get("location")!, (url) => url.port === "8080");
      const handoff = new URL((await app.request("GET", local(back))).headers.get("location")!);
      const site = new Browser(`http://${handoff.hostname}:${port()}`);
      await site.request("GET", local(handoff));
      const organisation = await ctx()
        .database.db.selectFrom("organisations")
        .select(["id", "tenant"])
        .where("tenant", "=", handoff.hostname.split(".")[0]!)
        .executeTakeFirstOrThrow();
      const admin = await ctx()
        .database.db.selectFrom("users")
        .select(["id", "email"])
        .where("organisation_id", "=", organisation.id)
        .executeTakeFirstOrThrow();
      return { site, organisation, admin, ...calls(site) };
    }

    /** Unsafe calls carry the session's XSRF token. */
    function calls(site: Browser) {
      const xsrf = () => ({ "x-xsrf-token": site.cookie("XSRF-TOKEN") ?? "" });
      return {
        get: (path: string) => site.request("GET", path),
        post: (path: string, body?: unknown) => site.request("POST", path, body, xsrf()),
        del: (path: string) => site.request("DELETE", path, undefined, xsrf()),
      };
    }

    /** The log line that says who was told of the failed job, once it is written. */
    async function toldOf(jobGuid: string) {
      let told: Record<string, unknown> | undefined;
      await vi.waitFor(
        () => {
          told = logLines
            .map((line) => JSON.parse(line) as Record<string, unknown>)
            .find(
              (line) => line.msg === "told of a failed import from a data source" && line.job === jobGuid,
            );
          expect(told).toBeDefined();
        },
        { timeout: 10_000, interval: 20 },
      );
      return told!;
    }

    let founder: Awaited<ReturnType<typeof signUp>>;
    let other: ReturnType<typeof calls> & { userId: string };
    let colleague: { id: string; email: string };
    let guid: string;
    const sourceOf = (connection: ConnectionJson, name: string) =>
      connection.dataSources.find((s) => s.name === name)!;

    beforeAll(async () => {
      // Each database's run starts from the same two Xero organisations.
      tenants.splice(0, tenants.length, harbour, kiwi);
      founder = await signUp(`xero-founder-${ctx().kind}`);
      colleague = { id: randomUUID(), email: `colleague-${ctx().kind}@bigcorp.example.com` };
      await ctx()
        .database.db.insertInto("users")
        .values({
          organisation_id: founder.organisation.id,
          id: colleague.id,
          email: colleague.email,
          name: "Ada Colleague",
        })
        .execute();
      const org = await ctx().createOrganisation(`connother-${ctx().kind}`);
      const site = new Browser(ctx().tenantUrl(`connother-${ctx().kind}`));
      await site.request("POST", "/api/login", { email: org.email, password: org.password });
      other = { ...calls(site), userId: org.userId };
    });

    it("lists the organisation's connections with their sources, never a secret; another's is not found", async () => {
      const listed = await founder.get("/api/Connections");
      expect(listed.status).toBe(200);
      const [connection] = listed.json as unknown as ConnectionJson[];
      expect(listed.json).toEqual([
        {
          integrationGuid: expect.any(String),
          integrationType: "Xero",
          connectedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
          dataSources: [
            { id: expect.any(String), name: "Harbour Software", lastJobGuid: null },
            { id: expect.any(String), name: "Kiwi Cafe", lastJobGuid: null },
          ],
          responsibleUserIDs: [],
        },
      ]);
      guid = connection!.integrationGuid;
      // The same as GetDataSources gives them.
      const sources = (await founder.get("/api/Integration/GetDataSources")).json as unknown as {
        id: string;
        name: string;
      }[];
      expect(connection!.dataSources.map((s) => [s.id, s.name])).toEqual(sources.map((s) => [s.id, s.name]));
      const stored = await ctx()
        .database.db.selectFrom("connections")
        .selectAll()
        .where("organisation_id", "=", founder.organisation.id)
        .executeTakeFirstOrThrow();
      const cipher = await TokenCipher.open(ctx().database.db);
      const context = `${founder.organisation.id}/${guid}`;
      for (const secret of [
        cipher.decrypt(stored.access_token_encrypted, `${context}/access`),
        cipher.decrypt(stored.refresh_token_encrypted!, `${context}/refresh`),
        stored.access_token_encrypted,
        stored.refresh_token_encrypted!,
        stored.subject,
        op.issuer,
      ])
        expect(listed.text).not.toContain(secret);

      const one = await founder.get(`/api/Connections/${guid}/GetConnectionByGuid`);
      expect([one.status, one.json]).toEqual([200, connection]);
      expect((await founder.get(`/api/Connections/${unknownGuid}/GetConnectionByGuid`)).status).toBe(404);
      expect((await founder.get("/api/Connections/not-a-guid/GetConnectionByGuid")).status).toBe(400);
      expect((await other.get(`/api/Connections/${guid}/GetConnectionByGuid`)).status).toBe(404);
      expect((await other.get("/api/Connections")).json).toEqual([]);
    });

    it("names the responsible users: a user not of the organisation is refused with nothing written", async () => {
      const path = `/api/Connections/${guid}/Responsibilities`;
      const foreign = await founder.post(path, { userIDs: [colleague.id, other.userId] });
      expect(foreign.status).toBe(400);
      expect(foreign.json.errors).toEqual([
        { field: "userIDs.1", message: `no user '${other.userId}' in this organisation` },
      ]);
      const unknown = await founder.post(path, { userIDs: [unknownGuid] });
      expect(unknown.json.errors).toEqual([
        { field: "userIDs.0", message: `no user '${unknownGuid}' in this organisation` },
      ]);
      expect((await founder.post(path, { userIDs: [] })).status).toBe(400);
      expect((await founder.get(path)).json).toEqual([]);

      const added = await founder.post(path, { userIDs: [founder.admin.id, colleague.id, colleague.id] });
      expect(added.status).toBe(200);
      const admin = await ctx()
        .database.db.selectFrom("users")
        .select(["name", "email"])
        .where("organisation_id", "=", founder.organisation.id)
        .where("id", "=", founder.admin.id)
        .executeTakeFirstOrThrow();
      const both = [
        { userID: colleague.id, name: "Ada Colleague", email: colleague.email, disabled: false },
        { userID: founder.admin.id, name: admin.name, email: admin.email, disabled: false },
      ].sort((a, b) => a.name.localeCompare(b.name));
      expect(added.json).toEqual(both);
      expect((await founder.get(path)).json).toEqual(both);
      // Again: one already responsible stays so, once.
      expect((await founder.post(path, { userIDs: [colleague.id] })).json).toEqual(both);
      const connection = (await founder.get(`/api/Connections/${guid}/GetConnectionByGuid`)).json;
      expect(connection.responsibleUserIDs).toEqual([founder.admin.id, colleague.id].sort());

      expect((await founder.del(`${path}?userID=${founder.admin.id}`)).status).toBe(200);
      expect((await founder.get(path)).json).toEqual([
        { userID: colleague.id, name: "Ada Colleague", email: colleague.email, disabled: false },
      ]);
      expect((await founder.del(`${path}?userID=${founder.admin.id}`)).status).toBe(404);
      // Another organisation reaches none of it.
      expect((await other.get(path)).status).toBe(404);
      expect((await other.post(path, { userIDs: [other.userId] })).status).toBe(404);
      expect((await other.del(`${path}?userID=${colleague.id}`)).status).toBe(404);
      expect((await founder.get(path)).json).toHaveLength(1);
    });

    it("offers every user of the organisation to make responsible, a disabled one marked, none of another's", async () => {
      const candidates = "/api/Connections/ResponsibilityCandidates";
      const offered = await founder.get(candidates);
      expect(offered.status).toBe(200);
      const users = await ctx()
        .database.db.selectFrom("users")
        .select(["id", "name", "email"])
        .where("organisation_id", "=", founder.organisation.id)
        .orderBy("name")
        .orderBy("email")
        .execute();
      expect(offered.json).toEqual(
        users.map((u) => ({ userID: u.id, name: u.name, email: u.email, disabled: false })),
      );
      expect(users.map((u) => u.id)).toContain(colleague.id);

      await ctx()
        .database.db.updateTable("users")
        .set({ disabled_at: new Date().toISOString() })
        .where("organisation_id", "=", founder.organisation.id)
        .where("id", "=", colleague.id)
        .execute();
      try {
        const after = (await founder.get(candidates)).json as unknown as {
          userID: string;
          disabled: boolean;
        }[];
        expect(after.find((u) => u.userID === colleague.id)?.disabled).toBe(true);
        const path = `/api/Connections/${guid}/Responsibilities`;
        expect((await founder.get(path)).json).toEqual([
          { userID: colleague.id, name: "Ada Colleague", email: colleague.email, disabled: true },
        ]);
      } finally {
        await ctx()
          .database.db.updateTable("users")
          .set({ disabled_at: null })
          .where("organisation_id", "=", founder.organisation.id)
          .where("id", "=", colleague.id)
          .execute();
      }
      const theirs = (await other.get(candidates)).json as unknown as { userID: string }[];
      expect(theirs.map((u) => u.userID)).toEqual([other.userId]);
    });

    it("imports now from one source of the connection or from all of them", async () => {
      const connection = (await founder.get(`/api/Connections/${guid}/GetConnectionByGuid`))
        .json as unknown as ConnectionJson;
      const harbourId = sourceOf(connection, "Harbour Software").id;
      const kiwiId = sourceOf(connection, "Kiwi Cafe").id;
      const all = await founder.post(`/api/ImportJob/StartImport?integrationGuid=${guid}`);
      expect(all.status).toBe(200);
      const jobs = all.json.jobs as { dataSourceId: string; jobGuid: string }[];
      expect(jobs.map((j) => j.dataSourceId)).toEqual([harbourId, kiwiId]);
      for (const job of jobs)
        expect(await finishedJob(founder.site, job.jobGuid)).toMatchObject({
          status: "Completed",
          rowsImported: 2,
        });
      const after = (await founder.get(`/api/Connections/${guid}/GetConnectionByGuid`))
        .json as unknown as ConnectionJson;
      expect(after.dataSources.map((s) => s.lastJobGuid)).toEqual(jobs.map((j) => j.jobGuid));
      // Read with the tenant's header, with a token the identity provider issued.
      expect(xero.requests.some((r) => r.headers["xero-tenant-id"] === kiwi.tenantId)).toBe(true);

      const one = await founder.post(
        `/api/ImportJob/StartImport?integrationGuid=${guid}&dataSourceId=${kiwiId}`,
      );
      expect(one.json.jobs).toEqual([{ dataSourceId: kiwiId, jobGuid: expect.any(String) }]);
      expect(await finishedJob(founder.site, (one.json as unknown as Jobs).jobs[0]!.jobGuid)).toMatchObject({
        status: "Completed",
        fileName: "Xero: Kiwi Cafe",
      });

      const jobCount = async () =>
        (
          await ctx()
            .database.db.selectFrom("import_jobs")
            .select("id")
            .where("organisation_id", "=", founder.organisation.id)
            .execute()
        ).length;
      const count = await jobCount();
      const missing = await founder.post(
        `/api/ImportJob/StartImport?integrationGuid=${guid}&dataSourceId=${unknownGuid}`,
      );
      expect(missing.status).toBe(404);
      expect((await founder.post(`/api/ImportJob/StartImport?integrationGuid=${unknownGuid}`)).status).toBe(
        404,
      );
      expect(
        ((await founder.post("/api/ImportJob/StartImport")).json.errors as { field: string }[])[0]!.field,
      ).toBe("integrationGuid");
      expect((await other.post(`/api/ImportJob/StartImport?integrationGuid=${guid}`)).status).toBe(404);
      expect(
        (await other.post(`/api/ImportJob/StartImport?integrationGuid=${guid}&dataSourceId=${kiwiId}`))
          .status,
      ).toBe(404);
      expect(await jobCount()).toBe(count);

      // While a source's import runs (Xero has not answered yet), asking again answers that job.
      const seen = xero.requests.length;
      xero.failNext({ path: "/api.xro/2.0/Items", hang: true });
      const running = (
        (await founder.post(`/api/ImportJob/StartImport?integrationGuid=${guid}&dataSourceId=${kiwiId}`))
          .json as unknown as Jobs
      ).jobs[0]!.jobGuid;
      await vi.waitFor(
        () => expect(xero.requests.slice(seen).some((r) => r.path === "/api.xro/2.0/Items")).toBe(true),
        {
          timeout: 10_000,
          interval: 20,
        },
      );
      const again = (await founder.post(`/api/ImportJob/StartImport?integrationGuid=${guid}`))
        .json as unknown as Jobs;
      expect(again.jobs).toEqual([
        { dataSourceId: harbourId, jobGuid: expect.any(String) },
        { dataSourceId: kiwiId, jobGuid: running },
      ]);
      // Xero answers 503 at last: tried again, and both imports complete.
      xero.release();
      for (const job of again.jobs)
        expect(await finishedJob(founder.site, job.jobGuid)).toMatchObject({ status: "Completed" });
      expect(await jobCount()).toBe(count + 2);
    });

    it("mails the responsible users when an import from the connection fails; with none, a user's import mails nobody", async () => {
      const connection = (await founder.get(`/api/Connections/${guid}/GetConnectionByGuid`))
        .json as unknown as ConnectionJson;
      const harbourId = sourceOf(connection, "Harbour Software").id;
      const subject = "Varia could not import Harbour Software from Xero";
      const start = () =>
        founder.post(`/api/ImportJob/StartImport?integrationGuid=${guid}&dataSourceId=${harbourId}`);
      // Xero refuses the token: not retryable, the job ends Failed.
      xero.failNext({ path: "/api.xro/2.0/Items", status: 401 });
      const failed = ((await start()).json as unknown as Jobs).jobs[0]!.jobGuid;
      const job = await finishedJob(founder.site, failed);
      expect(job.status).toBe("Failed");
      const received = await mail.waitFor(colleague.email, (m) => m.subject === subject);
      expect(received.text).toContain(`The import of Harbour Software from Xero failed: ${job.message}`);
      expect(received.text).toContain(
        `http://${founder.organisation.tenant}.localhost:8080/integration/overview`,
      );
      expect(await toldOf(failed)).toMatchObject({ told: 1, as: "responsible" });
      // Only the responsible user: not the admin, who is not responsible.
      expect(mail.mails.filter((m) => m.subject === subject)).toEqual([]);

      // A scheduled import: the responsible users are told instead of the admins; a disabled one is not.
      const path = `/api/Connections/${guid}/Responsibilities`;
      const disabled = randomUUID();
      await ctx()
        .database.db.insertInto("users")
        .values({
          organisation_id: founder.organisation.id,
          id: disabled,
          email: `gone-${ctx().kind}@bigcorp.example.com`,
          name: "Gone User",
          disabled_at: new Date(),
        })
        .execute();
      expect((await founder.post(path, { userIDs: [disabled] })).status).toBe(200);
      xero.failNext({ path: "/api.xro/2.0/Items", status: 401 });
      const scheduled = await queueScheduledImport(ctx().server.jobs, join(ctx().config.dataDir, "uploads"), {
        organisationId: founder.organisation.id,
        dataSourceId: harbourId,
      });
      expect((await finishedJob(founder.site, scheduled!.jobGuid)).status).toBe("Failed");
      const told = await mail.waitFor(colleague.email, (m) => m.subject === subject);
      expect(told.text).toContain("The scheduled import of Harbour Software from Xero failed: ");
      expect(await toldOf(scheduled!.jobGuid)).toMatchObject({ told: 1, as: "responsible" });
      expect(mail.mails.filter((m) => m.subject === subject)).toEqual([]);

      // Only a disabled user left responsible: a scheduled import's failure goes to the admins.
      expect((await founder.del(`${path}?userID=${colleague.id}`)).status).toBe(200);
      xero.failNext({ path: "/api.xro/2.0/Items", status: 401 });
      const again = await queueScheduledImport(ctx().server.jobs, join(ctx().config.dataDir, "uploads"), {
        organisationId: founder.organisation.id,
        dataSourceId: harbourId,
      });
      expect((await finishedJob(founder.site, again!.jobGuid)).status).toBe("Failed");
      await mail.waitFor(founder.admin.email, (m) => m.subject === subject);
      expect(await toldOf(again!.jobGuid)).toMatchObject({ told: 1, as: "admins" });
      expect(mail.mails.filter((m) => m.subject === subject)).toEqual([]);

      // Nobody responsible: an import a user started is followed on the screen, and mails nobody.
      xero.failNext({ path: "/api.xro/2.0/Items", status: 401 });
      const unwatched = ((await start()).json as unknown as Jobs).jobs[0]!.jobGuid;
      expect((await finishedJob(founder.site, unwatched)).status).toBe("Failed");
      expect(await toldOf(unwatched)).toMatchObject({ told: 0 });
      expect(mail.mails.filter((m) => m.subject === subject)).toEqual([]);
      expect((await founder.del(`${path}?userID=${disabled}`)).status).toBe(200);
    });

    it("lists the sources again at Xero: a tenant gained is added, one lost is removed with its schedule", async () => {
      const before = (await founder.get(`/api/Connections/${guid}/GetConnectionByGuid`))
        .json as unknown as ConnectionJson;
      const kiwiId = sourceOf(before, "Kiwi Cafe").id;
      const schedule = {
        dataSourceId: kiwiId,
        timeZone: "Pacific/Auckland",
        country: "NewZealand",
        interval: "Daily",
        hour: 6,
        minute: 30,
        amPm: "AM",
      };
      expect((await founder.post("/api/Integration/AddSchedule", schedule)).status).toBe(200);
      expect(await ctx().server.jobs.getSchedule(kiwiId)).not.toBeNull();
      const lines = async () =>
        (
          await ctx()
            .database.db.selectFrom("invoice_lines")
            .select("invoice_number")
            .where("organisation_id", "=", founder.organisation.id)
            .execute()
        ).length;
      const linesBefore = await lines();
      expect(linesBefore).toBe(4);

      tenants.splice(tenants.indexOf(kiwi), 1, tasman);
      const configured = await founder.post(`/api/Connections/${guid}/Configure`);
      expect(configured.status).toBe(200);
      const after = configured.json as unknown as ConnectionJson;
      expect(after.dataSources.map((s) => s.name)).toEqual(["Harbour Software", "Tasman Tours"]);
      expect(sourceOf(after, "Harbour Software")).toEqual(sourceOf(before, "Harbour Software"));
      expect(sourceOf(after, "Tasman Tours").lastJobGuid).toBeNull();
      expect(after.responsibleUserIDs).toEqual(before.responsibleUserIDs);
      expect((await founder.get(`/api/Connections/${guid}/GetConnectionByGuid`)).json).toEqual(after);
      // The source lost goes with its schedule; the lines imported from it stay.
      expect(await ctx().server.jobs.getSchedule(kiwiId)).toBeNull();
      const schedules = await ctx()
        .database.db.selectFrom("import_schedules")
        .select("data_source_id")
        .where("organisation_id", "=", founder.organisation.id)
        .execute();
      expect(schedules).toEqual([]);
      expect(await lines()).toBe(linesBefore);

      // Listed again with nothing changed at Xero: the same connection.
      expect((await founder.post(`/api/Connections/${guid}/Configure`)).json).toEqual(after);
      expect((await other.post(`/api/Connections/${guid}/Configure`)).status).toBe(404);
      expect((await founder.post(`/api/Connections/${unknownGuid}/Configure`)).status).toBe(404);
    });

    it("refreshes an expired token once for calls that need it at the same time", async () => {
      const db = ctx().database.db;
      const organisationId = founder.organisation.id;
      await db
        .updateTable("connections")
        .set({ access_expires_at: new Date(Date.now() - 60_000) })
        .where("organisation_id", "=", organisationId)
        .where("id", "=", guid)
        .execute();
      const refreshes = () =>
        logLines
          .map((line) => JSON.parse(line) as Record<string, unknown>)
          .filter((line) => line.msg === "provider tokens refreshed" && line.connection === guid).length;
      const before = refreshes();
      const both = await Promise.all([
        founder.post(`/api/Connections/${guid}/Configure`),
        founder.post(`/api/Connections/${guid}/Configure`),
        founder.post(`/api/Connections/${guid}/Configure`),
      ]);
      expect(both.map((answer) => answer.status)).toEqual([200, 200, 200]);
      expect(refreshes()).toBe(before + 1);
      const stored = await db
        .selectFrom("connections")
        .select("access_expires_at")
        .where("organisation_id", "=", organisationId)
        .where("id", "=", guid)
        .executeTakeFirstOrThrow();
      expect(new Date(stored.access_expires_at as unknown as string).getTime()).toBeGreaterThan(Date.now());
    });

    it("asks to sign in with Xero again when it refuses the refresh (409), and says 502 when it is out of reach", async () => {
      const db = ctx().database.db;
      const organisationId = founder.organisation.id;
      const before = (await founder.get(`/api/Connections/${guid}/GetConnectionByGuid`)).json;
      const outage = xero.requests.length;
      xero.failNext({ path: "/connections", status: 503 });
      const unreachable = await founder.post(`/api/Connections/${guid}/Configure`);
      expect(unreachable.status).toBe(502);
      expect(unreachable.json.message).toContain("Xero");
      expect(xero.requests.length).toBe(outage + 1);

      // The grant is gone at the provider: the stored refresh token is one it never issued.
      const cipher = await TokenCipher.open(db);
      await db
        .updateTable("connections")
        .set({
          access_expires_at: new Date(Date.now() - 60_000),
          refresh_token_encrypted: cipher.encrypt(
            "a-revoked-refresh-token",
            `${organisationId}/${guid}/refresh`,
          ),
        })
        .where("organisation_id", "=", organisationId)
        .where("id", "=", guid)
        .execute();
      tenants.push(kiwi);
      const refused = await founder.post(`/api/Connections/${guid}/Configure`);
      expect(refused.status).toBe(409);
      expect(refused.json.message).toBe(
        "The Xero authorisation was refused (invalid_grant): sign in with it again",
      );
      expect((await founder.get(`/api/Connections/${guid}/GetConnectionByGuid`)).json).toEqual(before);
      // Whatever happened, no token reached the log.
      const stored = await db
        .selectFrom("connections")
        .selectAll()
        .where("organisation_id", "=", organisationId)
        .where("id", "=", guid)
        .executeTakeFirstOrThrow();
      const log = logLines.join("\n");
      expect(log).not.toContain(
        cipher.decrypt(stored.access_token_encrypted, `${organisationId}/${guid}/access`),
      );
      expect(log).not.toContain("a-revoked-refresh-token");
    });

    const connectionRows = async (organisationId: string) =>
      ctx()
        .database.db.selectFrom("connections")
        .select("id")
        .where("organisation_id", "=", organisationId)
        .execute();

    const logged = (msg: string, connection: string) =>
      logLines
        .map((line) => JSON.parse(line) as Record<string, unknown>)
        .filter((line) => line.msg === msg && line.connection === connection);
    const notRevoked =
      "the grant could not be revoked at the provider; the connection is deleted all the same";

    it("disconnecting revokes the connection's refresh token at Xero, with Varia's client credentials", async () => {
      const leaver = await signUp(`xero-leaver-${ctx().kind}`);
      const grant = await heldGrant(ctx().database, leaver.organisation.id);
      const seen = xero.revocations.length;
      expect((await leaver.del(`/api/Connections/${grant.id}`)).status).toBe(200);
      expect(xero.revocations.slice(seen)).toEqual([
        { token: grant.refreshToken, clientId: oidcClient.clientId, clientSecret: oidcClient.clientSecret },
      ]);
      expect(await connectionRows(leaver.organisation.id)).toEqual([]);
      expect((await leaver.get(`/api/Connections/${grant.id}/GetConnectionByGuid`)).status).toBe(404);
      expect(logged("accounting package disconnected", grant.id)).toEqual([
        expect.objectContaining({ revoked: true }),
      ]);
      expect(logged(notRevoked, grant.id)).toEqual([]);
      expect(logLines.join("\n")).not.toContain(grant.refreshToken);
    });

    it("disconnects all the same when Xero refuses the revocation (500) or is out of reach: a warning, no token logged", async () => {
      // Xero holds the revocation: the connection is still there, and the database answers meanwhile
      // (no transaction waits on Xero). Then Xero answers 500.
      const refused = await signUp(`xero-refused-${ctx().kind}`);
      const grant = await heldGrant(ctx().database, refused.organisation.id);
      const seen = xero.requests.length;
      const revocations = xero.revocations.length;
      xero.failNext({ path: "/connect/revocation", hang: true });
      const disconnecting = refused.del(`/api/Connections/${grant.id}`);
      await vi.waitFor(
        () => expect(xero.requests.slice(seen).map((r) => r.path)).toContain("/connect/revocation"),
        { timeout: 10_000, interval: 20 },
      );
      expect(await connectionRows(refused.organisation.id)).toEqual([{ id: grant.id }]);
      expect((await refused.get(`/api/Connections/${grant.id}/GetConnectionByGuid`)).status).toBe(200);
      xero.release(500);
      expect((await disconnecting).status).toBe(200);
      expect(await connectionRows(refused.organisation.id)).toEqual([]);
      expect(logged(notRevoked, grant.id)).toEqual([
        expect.objectContaining({
          level: 40,
          organisation: refused.organisation.id,
          provider: "Xero",
          status: 500,
          reason: "Xero failed to answer the revocation (500)",
        }),
      ]);
      expect(logged("accounting package disconnected", grant.id)).toEqual([
        expect.objectContaining({ revoked: false }),
      ]);

      // Xero out of reach: the connection closes without an answer.
      const unreached = await signUp(`xero-unreached-${ctx().kind}`);
      const lost = await heldGrant(ctx().database, unreached.organisation.id);
      xero.failNext({ path: "/connect/revocation", drop: true });
      expect((await unreached.del(`/api/Connections/${lost.id}`)).status).toBe(200);
      expect(await connectionRows(unreached.organisation.id)).toEqual([]);
      expect(logged(notRevoked, lost.id)).toEqual([
        expect.objectContaining({
          provider: "Xero",
          status: null,
          reason: "Xero could not be reached for the revocation",
        }),
      ]);
      expect(xero.revocations.length).toBe(revocations);
      const log = logLines.join("\n");
      expect(log).not.toContain(grant.refreshToken);
      expect(log).not.toContain(lost.refreshToken);
    });

    it("deletes the responsibilities with their user, their connection and their organisation", async () => {
      const db = ctx().database.db;
      const organisationId = founder.organisation.id;
      const path = `/api/Connections/${guid}/Responsibilities`;
      const rows = () =>
        db
          .selectFrom("connection_responsibilities")
          .select("user_id")
          .where("organisation_id", "=", organisationId)
          .execute();
      await founder.post(path, { userIDs: [founder.admin.id, colleague.id] });
      expect(await rows()).toHaveLength(2);
      await db
        .deleteFrom("users")
        .where("organisation_id", "=", organisationId)
        .where("id", "=", colleague.id)
        .execute();
      expect(await rows()).toEqual([{ user_id: founder.admin.id }]);
      expect((await founder.del(`/api/Connections/${guid}`)).status).toBe(200);
      expect(await rows()).toEqual([]);

      // With the organisation: a responsibility of another connection of it.
      const connectionId = randomUUID();
      await db
        .insertInto("connections")
        .values({
          organisation_id: organisationId,
          id: connectionId,
          integration_type: "Xero",
          issuer: "https://issuer.example.com",
          subject: "someone",
          access_token_encrypted: "v1.not-used",
        })
        .execute();
      await db
        .insertInto("connection_responsibilities")
        .values({ organisation_id: organisationId, connection_id: connectionId, user_id: founder.admin.id })
        .execute();
      expect(await rows()).toHaveLength(1);
      await db.deleteFrom("organisations").where("id", "=", organisationId).execute();
      expect(await rows()).toEqual([]);
    });
  },
  {
    env: () => ({
      VARIA_PUBLIC_URL: "http://localhost:8080",
      SMTP_URL: mail.url,
      LOG_LEVEL: "info",
      VARIA_XERO_API_URL: xero.url,
      VARIA_XERO_REVOCATION_URL: `${xero.url}/connect/revocation`,
      VARIA_QUICKBOOKS_API_URL: xero.url,
      VARIA_SSO_XERO_ISSUER: op.issuer,
      VARIA_SSO_XERO_CLIENT_ID: oidcClient.clientId,
      VARIA_SSO_XERO_CLIENT_SECRET: oidcClient.clientSecret,
    }),
    logStream: { write: (line: string) => void logLines.push(line) },
  },
);
