import { expect, it } from "vitest";
import { Browser, describeWithServer, TestClock } from "./harness";

const clock = new TestClock();

describeWithServer(
  "terms of service",
  (ctx) => {
    it("asks again when a new version takes effect, and records the acknowledgement", async () => {
      const org = await ctx().createOrganisation("tos");
      const browser = new Browser(ctx().tenantUrl("tos"));
      await browser.request("POST", "/api/login", {
        email: org.email,
        password: org.password,
        stayLoggedIn: true,
      });
      const xsrf = { "x-xsrf-token": browser.cookie("XSRF-TOKEN") ?? "" };
      const ping = () => browser.request("GET", "/api/Account/TermsOfServicePing").then((r) => r.json);
      expect(await ping()).toEqual({
        success: true,
        hasOnceAgreedToTermsOfServiceAgreement: false,
        hasAcceptedLatestEffectiveVersion: false,
      });
      await browser.request("POST", "/api/Account/AcknowledgeTermsOfService", { accepted: true }, xsrf);
      expect((await ping()).hasAcceptedLatestEffectiveVersion).toBe(true);

      // A version with a future effective date changes nothing until that date.
      await ctx()
        .database.db.insertInto("terms_versions")
        .values({ effective_at: new Date(clock.now().getTime() + 24 * 3600_000), body: "Version 2" })
        .execute();
      expect((await ping()).hasAcceptedLatestEffectiveVersion).toBe(true);
      clock.advance(24 * 3600_000);
      expect(await ping()).toEqual({
        success: true,
        hasOnceAgreedToTermsOfServiceAgreement: true,
        hasAcceptedLatestEffectiveVersion: false,
      });
      const refused = await browser.request(
        "POST",
        "/api/Account/AcknowledgeTermsOfService",
        { accepted: false },
        xsrf,
      );
      expect(refused.status).toBe(400);
      await browser.request("POST", "/api/Account/AcknowledgeTermsOfService", { accepted: true }, xsrf);
      expect((await ping()).hasAcceptedLatestEffectiveVersion).toBe(true);
    });
  },
  { clock },
);
