import { describe, expect, it } from "vitest";
import { redactRecordText } from "../src/routes/front-end-routes";
import { Browser, describeWithServer } from "./harness";

/** The server's log lines, as JSON. */
const lines: Record<string, unknown>[] = [];
const logStream = {
  write(line: string) {
    lines.push(JSON.parse(line));
  },
};

describe("redactRecordText", () => {
  it("replaces secret-like query values and long token-like runs, and keeps ordinary paths", () => {
    expect(redactRecordText("/variance/settings/lists")).toBe("/variance/settings/lists");
    expect(
      redactRecordText("/passwordRese/8d7e3f3c-7a51-4a7e-9d2b-3f0c2a1b4c5d/AbCdEfGhIjKlMnOpQrStUvWxYz012345"),
    ).toBe("/passwordRese/[redacted]/[redacted]");
    expect(redactRecordText("/x?secretToken=abc&page=2&code=123456")).toBe(
      "/x?secretToken=[redacted]&page=2&code=[redacted]",
    );
  });
});

describeWithServer(
  "front-end calls: the login view's organisation and the analytics records",
  (ctx) => {
    it("tells the login view the display name of the host's organisation, and nothing else", async () => {
      await ctx().createOrganisation("shown");
      await ctx()
        .database.db.updateTable("organisations")
        .set({ name: "Shown & Co" })
        .where("tenant", "=", "shown")
        .execute();
      const ask = async (host: string) => {
        const answer = await new Browser(host).request("GET", "/api/Account/LoginOrganisation");
        expect(answer.status).toBe(200);
        return answer.json;
      };
      expect(await ask(ctx().tenantUrl("shown"))).toEqual({ organisationName: "Shown & Co" });
      expect(await ask(ctx().tenantUrl("nobody-here"))).toEqual({ organisationName: null });
      // A host that names no tenant (app.…, a bare host) means the default tenant, as for the
      // sign-in itself: `demo` by default, which this server has not got.
      expect(ctx().config.defaultTenant).toBe("demo");
      expect(await ask(ctx().tenantUrl("app"))).toEqual({ organisationName: null });
      await ctx().createOrganisation("demo");
      expect(await ask(ctx().tenantUrl("app"))).toEqual({ organisationName: "demo Ltd" });
    });

    it("writes each analytics record to the log with the caller, a front-end 404 as such, secrets redacted", async () => {
      lines.length = 0;
      const org = await ctx().createOrganisation("records");
      const browser = new Browser(ctx().tenantUrl("records"));
      await browser.request("POST", "/api/login", { email: org.email, password: org.password });
      const records = [
        {
          recordType: "FrontEnd404",
          recordData: "/variance/nowhere",
          keys: { key1: "/variance/nowhere" },
          timeAgoMs: 1200,
        },
        {
          recordType: "FrontEnd404",
          recordData: "/passwordReset/x/AbCdEfGhIjKlMnOpQrStUvWxYz012345/extra",
          keys: {},
          timeAgoMs: 0,
        },
        {
          recordType: "FeatureUsage",
          recordData: "card: expand",
          keys: { key1: "card", key2: "expand" },
          timeAgoMs: 10,
        },
      ];
      const sent = await browser.request("PUT", "/api/analytics/general", records, {
        "x-xsrf-token": browser.cookie("XSRF-TOKEN") ?? "",
      });
      expect(sent.status).toBe(200);
      const logged = lines.filter((l) => l.frontEnd);
      expect(logged.map((l) => [l.msg, l.frontEnd, l.organisation, l.user])).toEqual([
        [
          "front-end 404",
          {
            recordType: "FrontEnd404",
            recordData: "/variance/nowhere",
            keys: { key1: "/variance/nowhere" },
            timeAgoMs: 1200,
          },
          org.organisationId,
          org.userId,
        ],
        [
          "front-end 404",
          {
            recordType: "FrontEnd404",
            recordData: "/passwordReset/x/[redacted]/extra",
            keys: {},
            timeAgoMs: 0,
          },
          org.organisationId,
          org.userId,
        ],
        [
          "front-end record",
          {
            recordType: "FeatureUsage",
            recordData: "card: expand",
            keys: { key1: "card", key2: "expand" },
            timeAgoMs: 10,
          },
          org.organisationId,
          org.userId,
        ],
      ]);
      expect(JSON.stringify(lines)).not.toContain("AbCdEfGhIjKlMnOpQrStUvWxYz012345");

      const tooMany = await browser.request(
        "PUT",
        "/api/analytics/general",
        Array.from({ length: 101 }, () => records[0]),
        { "x-xsrf-token": browser.cookie("XSRF-TOKEN") ?? "" },
      );
      expect(tooMany.status).toBe(400);
      const anonymous = await new Browser(ctx().tenantUrl("records")).request(
        "PUT",
        "/api/analytics/general",
        records,
      );
      expect(anonymous.status).toBe(401);
      expect(lines.filter((l) => l.frontEnd)).toHaveLength(3);
    });

    it("writes a request's address without the secret of a password link, a sign-up handoff or an SSO state", async () => {
      lines.length = 0;
      const secret = "Qm9vdHN0cmFwU2VjcmV0VmFsdWUtb2YtNDMtY2hhcnM";
      const id = "8d7e3f3c-7a51-4a7e-9d2b-3f0c2a1b4c5d";
      const browser = new Browser(ctx().tenantUrl("records"));
      const asked = [
        `/passwordReset/${id}/${secret}`,
        `/passwordSet/${id}/${secret}?from=mail`,
        `/api/Auth/SingleSignUpCallback/xero?handoff=${secret}`,
        `/api/Auth/SingleSignOnCallback/xero?code=${secret}&state=${secret}`,
        `/api/ResetPassword/IsTokenValid?tokenID=${id}&secretToken=${secret}`,
      ];
      for (const path of asked) await browser.request("GET", path);
      const urls = lines
        .filter((l) => l.msg === "incoming request")
        .map((l) => (l.req as { url: string }).url);
      expect(urls).toEqual([
        `/passwordReset/${id}/[redacted]`,
        `/passwordSet/${id}/[redacted]?from=mail`,
        "/api/Auth/SingleSignUpCallback/xero?handoff=[redacted]",
        "/api/Auth/SingleSignOnCallback/xero?code=[redacted]&state=[redacted]",
        "/api/ResetPassword/IsTokenValid?tokenID=[redacted]&secretToken=[redacted]",
      ]);
      expect(JSON.stringify(lines)).not.toContain(secret);
    });
  },
  { logStream, env: () => ({ LOG_LEVEL: "info" }) },
);
