import { expect, it } from "vitest";
import "../src/db/usage-schema";
import { Browser, describeWithServer, TestClock } from "./harness";

const clock = new TestClock();

describeWithServer(
  "the workspace's analytics records (PUT analytics/general)",
  (ctx) => {
    const signIn = async (
      tenant: string,
      existing?: { email: string; password: string; organisationId: string; userId: string },
    ) => {
      const org = existing ?? (await ctx().createOrganisation(tenant));
      const browser = new Browser(ctx().tenantUrl(tenant));
      const login = await browser.request("POST", "/api/login", { email: org.email, password: org.password });
      expect(login.status).toBe(200);
      const xsrf = { "x-xsrf-token": browser.cookie("XSRF-TOKEN") ?? "" };
      const put = (body: unknown, headers: Record<string, string> = xsrf) =>
        browser.request("PUT", "/api/analytics/general", body, headers);
      return { org, put };
    };
    const rows = (organisationId: string) =>
      ctx()
        .database.db.selectFrom("usage_records")
        .selectAll()
        .where("organisation_id", "=", organisationId)
        .orderBy("id")
        .execute();

    it("stores each record with its user, dated by the server's clock less its age", async () => {
      const { org, put } = await signIn("usage");
      const sent = await put([
        {
          recordType: "FeatureUsage",
          recordData: "Waterfall: Expand",
          keys: { key1: "Waterfall", key2: "Expand" },
          timeAgoMs: 1500,
        },
        { recordType: "FrontEnd404", recordData: "/nope", keys: { key1: "/nope" }, timeAgoMs: 0 },
      ]);
      expect(sent.status).toBe(200);
      const stored = await rows(org.organisationId);
      expect(stored.map((r) => [r.record_type, r.record_data, r.key1, r.key2, r.key3, r.user_id])).toEqual([
        ["FeatureUsage", "Waterfall: Expand", "Waterfall", "Expand", null, org.userId],
        ["FrontEnd404", "/nope", "/nope", null, null, org.userId],
      ]);
      expect(new Date(stored[0]!.occurred_at).getTime()).toBe(clock.now().getTime() - 1500);
      expect(new Date(stored[1]!.occurred_at).getTime()).toBe(clock.now().getTime());
    });

    it("refuses a bad record with the field named and stores none of the call's records", async () => {
      const { org, put } = await signIn("usage-bad");
      const bad = await put([
        { recordType: "FeatureUsage", recordData: "ok", keys: {}, timeAgoMs: 0 },
        { recordType: "Feature Usage!", recordData: "x", keys: {}, timeAgoMs: -1 },
      ]);
      expect(bad.status).toBe(400);
      const fields = (bad.json as { errors: { field: string }[] }).errors.map((e) => e.field).sort();
      expect(fields).toEqual(["1.recordType", "1.timeAgoMs"]);
      expect((await put([])).status).toBe(400);
      const tooMany = Array.from({ length: 101 }, () => ({
        recordType: "A",
        recordData: "",
        keys: {},
        timeAgoMs: 0,
      }));
      expect((await put(tooMany)).status).toBe(400);
      expect(await rows(org.organisationId)).toEqual([]);
      // A cookie session needs its XSRF token to write.
      expect((await put([{ recordType: "A", recordData: "", keys: {}, timeAgoMs: 0 }], {})).status).toBe(403);
    });

    it("keeps 180 days: older records of the organisation go when new ones come", async () => {
      const { org, put } = await signIn("usage-old");
      await put([{ recordType: "FeatureUsage", recordData: "old", keys: {}, timeAgoMs: 0 }]);
      clock.advance(181 * 86_400_000);
      // The session has long expired: a new one.
      const again = await signIn("usage-old", org);
      expect(
        (await again.put([{ recordType: "FeatureUsage", recordData: "new", keys: {}, timeAgoMs: 0 }])).status,
      ).toBe(200);
      expect((await rows(org.organisationId)).map((r) => r.record_data)).toEqual(["new"]);
    });
  },
  { clock },
);
