import { expect, it } from "vitest";
import { createTokenForUser } from "../src/admin/organisations";
import { Browser, describeWithServer } from "./harness";

const operatorToken = "metrics-operator-token-0123456789abcdef";

describeWithServer(
  "metrics for the operator",
  (ctx) => {
    it("serves /metrics only with the operator's token, on whatever host", async () => {
      const org = await ctx().createOrganisation("metered");
      const { token } = await createTokenForUser(ctx().database.db, {
        tenant: "metered",
        email: org.email,
        name: "m",
      });
      const signedIn = new Browser(ctx().tenantUrl("metered"));
      await signedIn.request("POST", "/api/login", { email: org.email, password: org.password });
      for (const [label, browser, headers] of [
        ["anyone", new Browser(ctx().url), {}],
        ["a tenant's admin, signed in", signedIn, {}],
        [
          "a tenant's API token",
          new Browser(ctx().tenantUrl("metered")),
          { authorization: `Bearer ${token}` },
        ],
        ["a wrong token", new Browser(ctx().url), { authorization: `Bearer ${operatorToken}x` }],
      ] as const) {
        const answer = await browser.request("GET", "/metrics", undefined, headers);
        expect(answer.status, label).toBe(401);
        expect(answer.text, label).not.toContain("varia_");
      }
      const operator = { authorization: `Bearer ${operatorToken}` };
      for (const origin of [ctx().url, ctx().tenantUrl("metered")])
        expect((await new Browser(origin).request("GET", "/metrics", undefined, operator)).status).toBe(200);
    });

    it("counts requests by route pattern, never by path", async () => {
      const browser = new Browser(ctx().url);
      await browser.request("GET", "/api/Account/AuthorisedPing?token=secret-value");
      const metrics = await browser.request("GET", "/metrics", undefined, {
        authorization: `Bearer ${operatorToken}`,
      });
      expect(metrics.status).toBe(200);
      expect(metrics.text).toMatch(
        /varia_http_request_duration_seconds_count\{method="GET",route="\/api\/Account\/AuthorisedPing",status="401"\} [1-9]/,
      );
      expect(metrics.text).not.toContain("secret-value");
      expect(metrics.text).toMatch(/varia_process_resident_memory_bytes \d+/);
    });
  },
  { env: () => ({ VARIA_METRICS_TOKEN: operatorToken }) },
);

describeWithServer("metrics without an operator's token", (ctx) => {
  it("are not served at all", async () => {
    const answer = await new Browser(ctx().url).request("GET", "/metrics");
    expect(answer.status).toBe(404);
    expect(answer.text).not.toContain("varia_");
  });
});
