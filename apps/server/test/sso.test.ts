import { afterAll, beforeAll, expect, it } from "vitest";
import { Browser, describeWithServer } from "./harness";
import { type ForgeMode, followToVaria, startForgingProvider, startOidcProvider } from "./oidc-stand-ins";

// Links point at the configured public address; the test maps them to the server's real port.
const publicUrl = "http://localhost:8080";
const google = { clientId: "varia-google", clientSecret: "google secret" };
const microsoft = { clientId: "varia-microsoft", clientSecret: "microsoft secret" };

let op: Awaited<ReturnType<typeof startOidcProvider>>;
let forger: Awaited<ReturnType<typeof startForgingProvider>>;
beforeAll(async () => {
  op = await startOidcProvider({
    ...google,
    redirectUris: [
      "http://sso.localhost:8080/api/Auth/SingleSignOnCallback/Google",
      "http://localhost:8080/api/Auth/SingleSignUpCallback/Google",
    ],
  });
  forger = await startForgingProvider(microsoft.clientId);
});
afterAll(async () => {
  await op.close();
  await forger.close();
});

describeWithServer(
  "single sign-on",
  (ctx) => {
    const port = () => new URL(ctx().url).port;
    /** The Varia address the provider sent the browser back to, on the test server's port. */
    const local = (url: URL) => `${url.pathname}${url.search}`;
    const variaOrigins = (url: URL) => url.port === "8080";

    async function passwordBrowser(tenant: string) {
      const org = await ctx().createOrganisation(tenant);
      const browser = new Browser(ctx().tenantUrl(tenant));
      await browser.request("POST", "/api/login", { email: org.email, password: org.password });
      return { org, browser };
    }

    /** Runs the flow from the sign-in address to Varia's callback and returns Varia's answer. */
    async function flow(browser: Browser, path: string) {
      const start = await browser.request("GET", path);
      expect(start.status).toBe(302);
      const authorize = new URL(start.headers.get("location")!);
      const back = await followToVaria(authorize.href, variaOrigins);
      return { authorize, back, answer: await browser.request("GET", local(back)) };
    }

    it("sends the browser to the provider with PKCE S256, state, nonce and the exact redirect URI", async () => {
      const browser = new Browser(ctx().tenantUrl("sso"));
      const start = await browser.request("GET", "/api/Auth/SingleSignOn/Google");
      const url = new URL(start.headers.get("location")!);
      expect(url.origin).toBe(op.issuer);
      expect(url.searchParams.get("code_challenge_method")).toBe("S256");
      expect(url.searchParams.get("code_challenge")).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(url.searchParams.get("state")).toBeTruthy();
      expect(url.searchParams.get("nonce")).toBeTruthy();
      expect(url.searchParams.get("redirect_uri")).toBe(
        "http://sso.localhost:8080/api/Auth/SingleSignOnCallback/Google",
      );
      expect(browser.cookie("varia_sso")).toBe(url.searchParams.get("state"));
      // A provider this server has no settings for sends the browser back, saying so.
      const xero = await browser.request("GET", "/api/Auth/SingleSignOn/Xero");
      expect([xero.status, xero.headers.get("location")]).toEqual([
        302,
        `/?error=${encodeURIComponent("Single sign-on with Xero is not configured")}`,
      ]);
      const quickBooks = await browser.request("GET", "/api/Auth/SingleSignUp/Quickbooks");
      expect([quickBooks.status, quickBooks.headers.get("location")]).toEqual([
        302,
        `/sign-up?error=${encodeURIComponent("Sign-up with QuickBooks is not available on this server")}`,
      ]);
      const missing = await browser.request("GET", "/api/Auth/SingleSignOn/");
      expect([missing.status, missing.json.message]).toEqual([
        400,
        "The parameter 'provider' must be defined.",
      ]);
    });

    it("links an identity to the signed-in user, then signs in by (issuer, sub); replayed state is refused", async () => {
      const { org, browser } = await passwordBrowser("sso");
      op.state.nextAccount = `alice-${ctx().kind}`;
      const linked = await flow(browser, "/api/Auth/SingleSignOn/Google");
      expect(linked.answer.status).toBe(302);
      expect(linked.answer.headers.get("location")).toBe("/");
      const identity = await ctx()
        .database.db.selectFrom("user_identities")
        .selectAll()
        .where("user_id", "=", org.userId)
        .executeTakeFirstOrThrow();
      expect(identity).toMatchObject({ issuer: op.issuer, subject: `alice-${ctx().kind}` });

      const fresh = new Browser(ctx().tenantUrl("sso"));
      const signIn = await flow(fresh, "/api/Auth/SingleSignOn/Google");
      expect(signIn.answer.headers.get("location")).toBe("/");
      const ping = await fresh.request("GET", "/api/Account/AuthorisedPing");
      expect(ping.status).toBe(200);
      expect(ping.json.profile).toMatchObject({ email: org.email, loginMethod: "SingleSignOnGoogle" });

      // The same callback again: the state was used.
      const replay = new Browser(ctx().tenantUrl("sso"));
      const again = await replay.request("GET", local(signIn.back), undefined, {
        cookie: `varia_sso=${signIn.authorize.searchParams.get("state")}`,
      });
      expect(again.headers.get("location")).toBe(
        `/?error=${encodeURIComponent("Single sign-on failed, please try again")}`,
      );
      expect(replay.cookie("varia_session")).toBeUndefined();
    });

    it("never matches by e-mail: an unlinked identity with a user's e-mail does not sign in", async () => {
      const sso = await ctx()
        .database.db.selectFrom("organisations")
        .select("id")
        .where("tenant", "=", "sso")
        .executeTakeFirstOrThrow();
      await ctx()
        .database.db.insertInto("users")
        .values({
          organisation_id: sso.id,
          id: crypto.randomUUID(),
          email: `carol-${ctx().kind}@bigcorp.example.com`,
          name: "Carol",
          password_hash: null,
          mfa_secret: null,
          disabled_at: null,
        })
        .execute();
      op.state.nextAccount = `carol-${ctx().kind}`;
      const browser = new Browser(ctx().tenantUrl("sso"));
      const { answer } = await flow(browser, "/api/Auth/SingleSignOn/Google");
      expect(answer.headers.get("location")).toBe(
        `/?error=${encodeURIComponent("No account is linked to this sign-in. Sign in with your password first to link it.")}`,
      );
      expect(browser.cookie("varia_session")).toBeUndefined();
      // A tenant whose redirect URI the provider does not know is refused by the provider.
      await ctx().createOrganisation("ssoother");
      const other = await new Browser(ctx().tenantUrl("ssoother")).request(
        "GET",
        "/api/Auth/SingleSignOn/Google",
      );
      expect((await fetch(other.headers.get("location")!, { redirect: "manual" })).status).toBe(400);
    });

    it("refuses forged ID tokens: wrong issuer, wrong audience, bad nonce, alg none, bad signature", async () => {
      const { org, browser } = await passwordBrowser("ssoforge");
      forger.state.mode = "good";
      forger.state.subject = `forged-${ctx().kind}`;
      const linked = await flow(browser, "/api/Auth/SingleSignOn/Microsoft");
      expect(linked.answer.headers.get("location")).toBe("/");
      const good = new Browser(ctx().tenantUrl("ssoforge"));
      expect((await flow(good, "/api/Auth/SingleSignOn/Microsoft")).answer.headers.get("location")).toBe("/");
      expect((await good.request("GET", "/api/Account/AuthorisedPing")).json.profile).toMatchObject({
        email: org.email,
      });
      for (const mode of [
        "wrongIssuer",
        "wrongAudience",
        "badNonce",
        "algNone",
        "badSignature",
      ] as ForgeMode[]) {
        forger.state.mode = mode;
        const attacker = new Browser(ctx().tenantUrl("ssoforge"));
        const { answer } = await flow(attacker, "/api/Auth/SingleSignOn/Microsoft");
        expect(answer.headers.get("location"), mode).toBe(
          `/?error=${encodeURIComponent("Single sign-on failed, please try again")}`,
        );
        expect(attacker.cookie("varia_session"), mode).toBeUndefined();
      }
    });

    it("refuses a callback whose state is not the browser's (login CSRF)", async () => {
      await ctx().createOrganisation("ssocsrf");
      forger.state.mode = "good";
      const attacker = new Browser(ctx().tenantUrl("ssocsrf"));
      const start = await attacker.request("GET", "/api/Auth/SingleSignOn/Microsoft");
      const back = await followToVaria(start.headers.get("location")!, variaOrigins);
      const victim = new Browser(ctx().tenantUrl("ssocsrf"));
      const answer = await victim.request("GET", local(back));
      expect(answer.headers.get("location")).toContain("/?error=");
      expect(victim.cookie("varia_session")).toBeUndefined();
    });

    it("signs up a new organisation keyed by the identity and continues on its own site", async () => {
      op.state.nextAccount = `founder-${ctx().kind}`;
      const app = new Browser(`http://localhost:${port()}`);
      const { answer } = await flow(app, "/api/Auth/SingleSignUp/Google");
      expect(answer.status).toBe(302);
      expect(answer.headers.get("location")).toMatch(/^http/);
      const handoff = new URL(answer.headers.get("location")!);
      expect(handoff.hostname).toMatch(/^bigcorp-[a-z0-9]+\.localhost$/);
      const site = new Browser(`http://${handoff.hostname}:${port()}`);
      const landed = await site.request("GET", local(handoff));
      expect(landed.headers.get("location")).toBe("/sign-up/data");
      const ping = await site.request("GET", "/api/Account/AuthorisedPing");
      expect(ping.json.profile).toMatchObject({
        email: `founder-${ctx().kind}@bigcorp.example.com`,
        userIsAdmin: true,
        organisationSignUpStep: "Data",
        loginMethod: "SingleSignOnGoogle",
      });
      // The handoff works once.
      expect(
        (
          await new Browser(`http://${handoff.hostname}:${port()}`).request("GET", local(handoff))
        ).headers.get("location"),
      ).toContain("/?error=");
    });
  },
  {
    env: () => ({
      VARIA_PUBLIC_URL: publicUrl,
      VARIA_SSO_GOOGLE_ISSUER: op.issuer,
      VARIA_SSO_GOOGLE_CLIENT_ID: google.clientId,
      VARIA_SSO_GOOGLE_CLIENT_SECRET: google.clientSecret,
      VARIA_SSO_MICROSOFT_ISSUER: forger.issuer,
      VARIA_SSO_MICROSOFT_CLIENT_ID: microsoft.clientId,
      VARIA_SSO_MICROSOFT_CLIENT_SECRET: microsoft.clientSecret,
    }),
  },
);
