import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { hashPassword } from "../src/auth/passwords";
import { backupsToKeep } from "../src/settings/organisation-settings";
import { Browser, describeWithServer, TestClock } from "./harness";
import { reportCsv, tenantWithData } from "./report-fixture";

// 2 March 2026: New Zealand keeps daylight saving time (UTC+13), India never does (UTC+05:30).
const clock = new TestClock(Date.parse("2026-03-02T09:00:00Z"));

/** A signed-in browser with a helper for calls that need the XSRF header. */
async function signedIn(origin: string, email: string, password: string) {
  const browser = new Browser(origin);
  const login = await browser.request("POST", "/api/login", { email, password });
  expect(login.json).toEqual({ requiredActions: [] });
  const call = (method: string, path: string, body?: unknown) =>
    browser.request(method, path, body, { "x-xsrf-token": browser.cookie("XSRF-TOKEN") ?? "" });
  return { browser, call };
}

/** The fields a 400 answer names. */
const fields = (answer: { json: Record<string, unknown> }) =>
  (answer.json.errors as { field: string }[]).map((e) => e.field);

const settingsPath = "/api/variance/OrganisationSettings/SubscriptionSettings";
const months = "dateFrom=2025-05&dateTo=2025-06";

describeWithServer(
  "organisation settings",
  (ctx) => {
    let org: Awaited<ReturnType<typeof tenantWithData>>;
    let admin: Awaited<ReturnType<typeof signedIn>>;
    /** The settings as they are before each test changes them (and puts them back). */
    let initial: Record<string, unknown>;
    const body = (changes: Record<string, unknown> = {}) => {
      const {
        organisationName,
        currencyCode,
        defaultCategory,
        itemCategories,
        mfaPolicy,
        timeZone,
        backupsToKeep,
      } = initial;
      return {
        organisationName,
        currencyCode,
        defaultCategory,
        itemCategories,
        mfaPolicy,
        timeZone,
        backupsToKeep,
        ...changes,
      };
    };
    const put = (changes: Record<string, unknown>) => admin.call("PUT", settingsPath, body(changes));

    beforeAll(async () => {
      org = await tenantWithData(ctx(), "orgset", reportCsv);
      admin = await signedIn(ctx().tenantUrl("orgset"), org.email, org.password);
      initial = (await admin.call("GET", settingsPath)).json;
    });

    it("lists the supported currencies, each with the locale its money is written in", async () => {
      const answer = await org.call("GET", "/api/variance/OrganisationSettings/Currencies");
      const list = answer.json.supportedCurrencies as { key: string; name: string; forcedLocale: string }[];
      expect(list).toContainEqual({ key: "USD", name: "US dollar", forcedLocale: "en-US" });
      expect(list).toContainEqual({ key: "EUR", name: "Euro", forcedLocale: "en-IE" });
      expect(new Set(list.map((c) => c.key)).size).toBe(list.length);
      for (const { key, forcedLocale } of list) {
        expect(key).toMatch(/^[A-Z]{3}$/);
        expect(Intl.NumberFormat.supportedLocalesOf([forcedLocale]), forcedLocale).toEqual([forcedLocale]);
      }
      expect(
        new Intl.NumberFormat("en-IE", {
          style: "currency",
          currency: "EUR",
          currencyDisplay: "narrowSymbol",
        }).format(1234),
      ).toBe("€1,234.00");
    });

    it("answers a new organisation's settings: the defaults, and the categories its import gave its items", () => {
      expect(initial).toEqual({
        organisationID: org.organisationId,
        tenant: "orgset",
        organisationName: "orgset Ltd",
        currencyCode: "USD",
        forcedLocale: "en-US",
        defaultCategory: "Recurring",
        itemCategories: [
          {
            stockItemID: expect.any(String),
            code: "HW",
            name: "Router",
            stockType: "Product",
            category: "Adhoc",
          },
          {
            stockItemID: expect.any(String),
            code: "PRO",
            name: "Pro plan",
            stockType: "Subscription",
            category: "Recurring",
          },
          {
            stockItemID: expect.any(String),
            code: "SEAT",
            name: "Seats",
            stockType: "Subscription",
            category: "Recurring",
          },
          {
            stockItemID: expect.any(String),
            code: "SUP",
            name: "Support",
            stockType: "Hourly",
            category: "Recurring",
          },
        ],
        mfaPolicy: "off",
        timeZone: "UTC",
        backupsToKeep: 10,
        termsVersions: [
          {
            termsVersionID: expect.any(Number),
            effectiveAt: "2026-01-01T00:00:00.000Z",
            current: true,
            acceptedUsers: 0,
          },
        ],
      });
    });

    it("renames the organisation and changes its currency: the profile and the login view follow", async () => {
      const saved = await put({ organisationName: "  Orgset Holdings  ", currencyCode: "EUR" });
      expect(saved.status).toBe(200);
      expect(saved.json).toMatchObject({
        organisationName: "Orgset Holdings",
        currencyCode: "EUR",
        forcedLocale: "en-IE",
      });
      const profile = (await admin.call("GET", "/api/Account/AuthorisedPing")).json.profile as Record<
        string,
        unknown
      >;
      expect([profile.organisationName, profile.subscriptionCurrencyCode]).toEqual([
        "Orgset Holdings",
        "EUR",
      ]);
      // The same through an API token: the profile is read on every call.
      const viaToken = (await org.call("GET", "/api/Account/AuthorisedPing")).json.profile;
      expect(viaToken.subscriptionCurrencyCode).toBe("EUR");
      const login = await new Browser(ctx().tenantUrl("orgset")).request(
        "GET",
        "/api/Account/LoginOrganisation",
      );
      expect(login.json).toEqual({ organisationName: "Orgset Holdings" });
      const back = await put({});
      expect(back.json).toEqual(initial);
    });

    it("refuses bad fields with 400s naming each, and changes nothing", async () => {
      const cases: [Record<string, unknown>, string[]][] = [
        [{ organisationName: "" }, ["organisationName"]],
        [{ currencyCode: "XYZ" }, ["currencyCode"]],
        [{ defaultCategory: "Sometimes" }, ["defaultCategory"]],
        [{ mfaPolicy: "always" }, ["mfaPolicy"]],
        [{ timeZone: "Mars/Olympus_Mons" }, ["timeZone"]],
        [{ backupsToKeep: 0 }, ["backupsToKeep"]],
        [{ backupsToKeep: 101 }, ["backupsToKeep"]],
        [{ itemCategories: [{ code: "NOPE", category: "Adhoc" }] }, ["itemCategories.0.code"]],
        [
          {
            itemCategories: [
              { code: "PRO", category: "Exclude" },
              { code: "PRO", category: "Adhoc" },
            ],
          },
          ["itemCategories.1.code"],
        ],
        [{ itemCategories: [{ code: "PRO", category: "Never" }] }, ["itemCategories.0.category"]],
        [{ organisationName: "Half written", timeZone: "Nowhere/Else" }, ["timeZone"]],
      ];
      for (const [changes, expected] of cases) {
        const answer = await put(changes);
        expect(answer.status, JSON.stringify(changes)).toBe(400);
        expect(fields(answer)).toEqual(expected);
      }
      const missing = await admin.call("PUT", settingsPath, { organisationName: "Only a name" });
      expect(missing.status).toBe(400);
      expect(fields(missing)).toEqual([
        "currencyCode",
        "defaultCategory",
        "itemCategories",
        "mfaPolicy",
        "timeZone",
        "backupsToKeep",
      ]);
      expect((await admin.call("GET", settingsPath)).json).toEqual(initial);
    });

    it("changes every number at once when an item's category or the default category changes", async () => {
      const kpi = async (filter = "") =>
        (await org.call("GET", `/api/variance/VarianceOverview/OverviewKpi?${months}${filter}`)).json;
      const all = await kpi();
      const pro = await kpi("&stockItem=PRO");
      const seat = await kpi("&stockItem=SEAT");
      expect(pro.mrrCents).toBeGreaterThan(0);

      const categories = initial.itemCategories as { code: string; category: string }[];
      const adhocPro = await put({
        itemCategories: categories.map((c) => (c.code === "PRO" ? { ...c, category: "Adhoc" } : c)),
      });
      expect(adhocPro.status).toBe(200);
      const withoutPro = await kpi();
      expect([withoutPro.mrrCents, withoutPro.mrrFromCents]).toEqual([
        all.mrrCents - pro.mrrCents,
        all.mrrFromCents - pro.mrrFromCents,
      ]);
      const variance = (await org.call("GET", `/api/variance/DashboardAlpha/GetVariance?${months}`)).json;
      expect(Math.round(variance.totalTo * 100)).toBe(withoutPro.mrrCents);

      // Only SEAT keeps a category of its own (Recurring); every other item takes the default, Adhoc.
      await put({ defaultCategory: "Adhoc", itemCategories: [{ code: "SEAT", category: "Recurring" }] });
      const seatsOnly = await kpi();
      expect([seatsOnly.mrrCents, seatsOnly.mrrFromCents]).toEqual([seat.mrrCents, seat.mrrFromCents]);
      const settings = (await admin.call("GET", settingsPath)).json;
      expect(
        (settings.itemCategories as { code: string; category: string }[]).map(
          (c) => `${c.code}:${c.category}`,
        ),
      ).toEqual(["SEAT:Recurring"]);

      await put({});
      expect(await kpi()).toEqual(all);
      expect((await admin.call("GET", settingsPath)).json).toEqual(initial);
    });

    it("requiring MFA ends the sessions of users without it, but the caller's, and asks them to enrol", async () => {
      const email = "member@orgset.example.com";
      const password = "a member's long password";
      await ctx()
        .database.db.insertInto("users")
        .values({
          organisation_id: org.organisationId,
          id: randomUUID(),
          email,
          name: "Member",
          password_hash: await hashPassword(password),
          mfa_secret: null,
          disabled_at: null,
        })
        .execute();
      const member = await signedIn(ctx().tenantUrl("orgset"), email, password);
      expect((await put({ mfaPolicy: "optional" })).status).toBe(200);
      expect((await member.call("GET", "/api/Account/AuthorisedPing")).status).toBe(200);

      expect((await put({ mfaPolicy: "required" })).json.mfaPolicy).toBe("required");
      expect((await member.call("GET", "/api/Account/AuthorisedPing")).status).toBe(401);
      expect((await admin.call("GET", "/api/Account/AuthorisedPing")).status).toBe(200);
      const again = await new Browser(ctx().tenantUrl("orgset")).request("POST", "/api/login", {
        email,
        password,
      });
      expect(again.json.requiredActions).toEqual(["AuthenticateMultiFactor"]);
      expect(again.json.authenticateMultiFactor).toMatchObject({
        optional: false,
        totpSecret: expect.any(String),
      });

      expect((await put({ mfaPolicy: "off" })).status).toBe(200);
      const relaxed = await new Browser(ctx().tenantUrl("orgset")).request("POST", "/api/login", {
        email,
        password,
      });
      expect(relaxed.json).toEqual({ requiredActions: [] });
    });

    describe("time zones", () => {
      it("lists the IANA zones from the runtime, with their offset now and their name, by offset", async () => {
        const zones = (await org.call("GET", "/api/System/GetTimeZones")).json as {
          id: string;
          name: string;
        }[];
        expect(zones.length).toBeGreaterThan(400);
        expect(new Set(zones.map((z) => z.id)).size).toBe(zones.length);
        expect(zones).toContainEqual({ id: "UTC", name: "(UTC+00:00) UTC" });
        expect(zones).toContainEqual({
          id: "Pacific/Auckland",
          name: "(UTC+13:00) Pacific/Auckland, New Zealand Time",
        });
        expect(zones).toContainEqual({
          id: "Asia/Kolkata",
          name: "(UTC+05:30) Asia/Kolkata, India Standard Time",
        });
        expect(zones.map((z) => z.id)).not.toContain("Asia/Calcutta");
        const offsets = zones.map((z) => {
          const [, sign, h, m] = /^\(UTC([+-])(\d\d):(\d\d)\)/.exec(z.name)!;
          return (sign === "-" ? -1 : 1) * (Number(h) * 60 + Number(m));
        });
        expect(offsets).toEqual([...offsets].sort((a, b) => a - b));
        expect(offsets[0]).toBeGreaterThanOrEqual(-12 * 60);
        expect(offsets.at(-1)).toBe(14 * 60); // Kiribati's Line Islands
      });

      it("takes a zone by its old name or a link, and keeps its listed id", async () => {
        expect((await put({ timeZone: "Asia/Calcutta" })).json.timeZone).toBe("Asia/Kolkata");
        expect((await put({ timeZone: "US/Eastern" })).json.timeZone).toBe("America/New_York");
        expect((await put({ timeZone: "Pacific/Auckland" })).json.timeZone).toBe("Pacific/Auckland");
        await put({});
      });
    });

    it("keeps the number of automatic backups to keep, for whoever prunes them, per organisation", async () => {
      const other = await ctx().createOrganisation("orgset-other");
      expect((await put({ backupsToKeep: 3 })).json.backupsToKeep).toBe(3);
      expect(await backupsToKeep(ctx().database.db, org.organisationId)).toBe(3);
      expect(await backupsToKeep(ctx().database.db, other.organisationId)).toBe(10);
      const theirs = await signedIn(ctx().tenantUrl("orgset-other"), other.email, other.password);
      expect((await theirs.call("GET", settingsPath)).json).toMatchObject({
        organisationName: "orgset-other Ltd",
        backupsToKeep: 10,
        itemCategories: [],
      });
      await put({});
    });

    it("counts the organisation's users who accepted each terms version", async () => {
      await admin.call("POST", "/api/Account/AcknowledgeTermsOfService", { accepted: true });
      const versions = (await admin.call("GET", settingsPath)).json.termsVersions;
      expect(versions).toEqual([{ ...(initial.termsVersions as object[])[0], acceptedUsers: 1 }]);
    });
  },
  { clock },
);
