import { contracts } from "@varia/contracts";
import { sql } from "kysely";
import { expect, it } from "vitest";
import { createTokenForUser } from "../src/admin/organisations";
import { Browser, describeWithServer } from "./harness";

describeWithServer("account and sessions", (ctx) => {
  it("answers 401 to a ping without a session", async () => {
    const browser = new Browser(ctx().tenantUrl("nobody"));
    const ping = await browser.request("GET", "/api/Account/AuthorisedPing");
    expect(ping.status).toBe(401);
    expect(ping.json.message).toBe("Unauthorized");
  });

  it("signs in with e-mail and password, and the profile says who", async () => {
    const org = await ctx().createOrganisation("acme");
    const browser = new Browser(ctx().tenantUrl("acme"));
    const login = await browser.request("POST", "/api/login", {
      email: org.email.toUpperCase(),
      password: org.password,
    });
    expect(login.status).toBe(200);
    expect(login.json).toEqual({ requiredActions: [] });
    const setCookie = login.headers.getSetCookie().join("\n");
    expect(setCookie).toMatch(/varia_session=[^;]+;.*HttpOnly/i);
    expect(setCookie).toMatch(/varia_session=[^;]+;.*SameSite=Lax/i);
    expect(setCookie).toMatch(/XSRF-TOKEN=[^;]+/);
    const ping = await browser.request("GET", "/api/Account/AuthorisedPing");
    expect(ping.status).toBe(200);
    const profile = ping.json.profile as Record<string, unknown>;
    expect(profile.email).toBe(org.email);
    expect(profile.organisationName).toBe("acme Ltd");
    expect(profile.userIsAdmin).toBe(true);
    expect(profile.organisationModule).toBe(2);
  });

  it("refuses a wrong password and an unknown account with the same answer", async () => {
    const org = await ctx().createOrganisation("wrongpw");
    const browser = new Browser(ctx().tenantUrl("wrongpw"));
    const wrong = await browser.request("POST", "/api/login", {
      email: org.email,
      password: "not the password",
    });
    const unknown = await browser.request("POST", "/api/login", {
      email: "ghost@wrongpw.example.com",
      password: "x",
    });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.json.message).toBe("Unable to login. Either email or password is incorrect");
    expect(unknown.json).toEqual(wrong.json);
    expect(browser.cookie("varia_session")).toBeUndefined();
  });

  it("stores sessions hashed and gives a new id on every sign-in", async () => {
    const org = await ctx().createOrganisation("rotate");
    const browser = new Browser(ctx().tenantUrl("rotate"));
    await browser.request("POST", "/api/login", { email: org.email, password: org.password });
    const first = browser.cookie("varia_session");
    await browser.request("POST", "/api/login", { email: org.email, password: org.password });
    const second = browser.cookie("varia_session");
    expect(first).toBeTruthy();
    expect(second).not.toBe(first);
    const rows = await ctx().database.db.selectFrom("sessions").select("id_hash").execute();
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.some((r) => r.id_hash === first || r.id_hash === second)).toBe(false);
  });

  it("ends the session on the server at logout, a POST with the session's XSRF token", async () => {
    const org = await ctx().createOrganisation("leave");
    const browser = new Browser(ctx().tenantUrl("leave"));
    await browser.request("POST", "/api/login", { email: org.email, password: org.password });
    const stolen = browser.cookie("varia_session");
    // A link or an image cannot sign anyone out, nor a POST from another site without the token.
    expect((await browser.request("GET", "/api/logout")).status).toBe(404);
    for (const token of [undefined, "forged.token"]) {
      const forged = await browser.request(
        "POST",
        "/api/logout",
        undefined,
        token ? { "x-xsrf-token": token } : {},
      );
      expect(forged.status).toBe(403);
      expect(forged.json.message).toBe("The XSRF token is missing or invalid.");
    }
    expect((await browser.request("GET", "/api/Account/AuthorisedPing")).status).toBe(200);
    const out = await browser.request("POST", "/api/logout", undefined, {
      "x-xsrf-token": browser.cookie("XSRF-TOKEN") ?? "",
    });
    expect(out.status).toBe(200);
    expect(browser.cookie("varia_session")).toBeUndefined();
    const replay = new Browser(ctx().tenantUrl("leave"));
    const ping = await replay.request("GET", "/api/Account/AuthorisedPing", undefined, {
      cookie: `varia_session=${stolen}`,
    });
    expect(ping.status).toBe(401);
  });

  it("does not honour a session on another tenant's host", async () => {
    const org = await ctx().createOrganisation("home");
    await ctx().createOrganisation("elsewhere");
    const browser = new Browser(ctx().tenantUrl("home"));
    await browser.request("POST", "/api/login", { email: org.email, password: org.password });
    const session = browser.cookie("varia_session");
    const other = new Browser(ctx().tenantUrl("elsewhere"));
    const ping = await other.request("GET", "/api/Account/AuthorisedPing", undefined, {
      cookie: `varia_session=${session}`,
    });
    expect(ping.status).toBe(401);
  });

  it("accepts an API token only on a host that addresses its organisation", async () => {
    const port = new URL(ctx().url).port;
    const org = await ctx().createOrganisation("tokens");
    await ctx().createOrganisation("thief");
    const defaultTenant = ctx().config.defaultTenant!;
    const home = await ctx().createOrganisation(defaultTenant);
    const tokenOf = async (tenant: string, email: string) =>
      (await createTokenForUser(ctx().database.db, { tenant, email, name: "ci" })).token;
    const token = await tokenOf("tokens", org.email);
    const defaultToken = await tokenOf(defaultTenant, home.email);
    const ping = async (origin: string, bearer: string) =>
      (
        await new Browser(origin).request("GET", "/api/Account/AuthorisedPing", undefined, {
          authorization: `Bearer ${bearer}`,
        })
      ).status;

    const own = await new Browser(ctx().tenantUrl("tokens")).request(
      "GET",
      "/api/Account/AuthorisedPing",
      undefined,
      { authorization: `Bearer ${token}` },
    );
    expect(own.status).toBe(200);
    expect((own.json.profile as Record<string, unknown>).loginMethod).toBe("ApiToken");
    // Hosts that name no tenant address the default one: a token of any other organisation is
    // refused there, as it is on another tenant's host.
    const elsewhere = [
      ctx().tenantUrl("thief"),
      `http://localhost:${port}`,
      `http://127.0.0.1:${port}`,
      `http://[::1]:${port}`,
      `http://app.localhost:${port}`,
      `http://www.localhost:${port}`,
      `http://${defaultTenant}.localhost:${port}`,
    ];
    for (const origin of elsewhere) expect(await ping(origin, token), origin).toBe(401);
    // The default tenant's token counts on those hosts, and on no other tenant's.
    for (const origin of elsewhere.slice(1)) expect(await ping(origin, defaultToken), origin).toBe(200);
    expect(await ping(ctx().tenantUrl("tokens"), defaultToken)).toBe(401);

    expect(await ping(ctx().tenantUrl("tokens"), `${token}x`)).toBe(401);
    const stored = await sql<{
      n: string;
    }>`select count(*) as n from api_tokens where token_hash = ${token}`.execute(ctx().database.db);
    expect(Number(stored.rows[0]?.n)).toBe(0);
  });

  it("rejects a bad body with 400 naming the field, and an unexpected content type with 415", async () => {
    const browser = new Browser(ctx().tenantUrl("acme"));
    const bad = await browser.request("POST", "/api/login", { email: "", password: "x" });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.json.errors)).toContain("email");
    const xml = await browser.request("POST", "/api/login", undefined, { "content-type": "application/xml" });
    expect(xml.status).toBe(415);
  });

  it("answers the permission, terms and menu pings for a signed-in admin", async () => {
    const org = await ctx().createOrganisation("pings");
    const browser = new Browser(ctx().tenantUrl("pings"));
    await browser.request("POST", "/api/login", { email: org.email, password: org.password });
    const permission = await browser.request("GET", "/api/Account/PermissionPing");
    expect(permission.json.userIsAdmin).toBe(true);
    const terms = await browser.request("GET", "/api/Account/TermsOfServicePing");
    expect(terms.json).toEqual({
      success: true,
      hasOnceAgreedToTermsOfServiceAgreement: false,
      hasAcceptedLatestEffectiveVersion: false,
    });
    const menu = await browser.request("GET", "/api/Account/GetAuthorisedMenu");
    const paths = (menu.json.items as { path: string }[]).map((i) => i.path);
    expect(paths).toContain("/variance/dashboard/stockTypeOverview");
    const periods = await browser.request("GET", "/api/variance/VarianceOverview/ActualPeriods");
    expect(periods.status).toBe(200);
    expect(periods.json).toEqual([]);
  });

  it("records the terms acknowledgement, only with the session's XSRF token", async () => {
    const org = await ctx().createOrganisation("terms");
    const browser = new Browser(ctx().tenantUrl("terms"));
    await browser.request("POST", "/api/login", { email: org.email, password: org.password });
    const withoutToken = await browser.request("POST", "/api/Account/AcknowledgeTermsOfService", {
      accepted: true,
    });
    expect(withoutToken.status).toBe(403);
    const forged = await browser.request(
      "POST",
      "/api/Account/AcknowledgeTermsOfService",
      { accepted: true },
      { "x-xsrf-token": "forged.token" },
    );
    expect(forged.status).toBe(403);
    const ok = await browser.request(
      "POST",
      "/api/Account/AcknowledgeTermsOfService",
      { accepted: true },
      { "x-xsrf-token": browser.cookie("XSRF-TOKEN") ?? "" },
    );
    expect(ok.status).toBe(200);
    expect(ok.json).toEqual({
      success: true,
      hasOnceAgreedToTermsOfServiceAgreement: true,
      hasAcceptedLatestEffectiveVersion: true,
    });
    const ping = await browser.request("GET", "/api/Account/TermsOfServicePing");
    expect(ping.json.hasAcceptedLatestEffectiveVersion).toBe(true);
  });

  it("serves an OpenAPI document with every contract", async () => {
    const doc = await new Browser(ctx().url).request("GET", "/api/openapi.json");
    expect(doc.status).toBe(200);
    const operations = Object.values(
      doc.json.paths as Record<string, Record<string, { operationId: string }>>,
    )
      .flatMap((methods) => Object.values(methods))
      .map((op) => op.operationId)
      .sort();
    expect(operations).toEqual(
      Object.values(contracts)
        .map((c) => c.name)
        .sort(),
    );
  });

  it("answers health and readiness", async () => {
    const browser = new Browser(ctx().url);
    expect((await browser.request("GET", "/healthz")).status).toBe(200);
    expect((await browser.request("GET", "/readyz")).json).toEqual({ status: "ready" });
  });
});
