import { afterAll, beforeAll, expect, it } from "vitest";
import { Browser, describeWithServer, TestClock } from "./harness";
import { MailReceiver } from "./mail-receiver";

const clock = new TestClock();
const mail = new MailReceiver();
beforeAll(() => mail.start());
afterAll(() => mail.close());

const neutral = 200;

function linkIn(text: string, page: string) {
  const match = new RegExp(`(https?://[^\\s]+)/${page}/([0-9a-f-]{36})/([A-Za-z0-9_-]+)`).exec(text);
  if (!match) throw new Error(`no ${page} link in ${JSON.stringify(text)}`);
  return { origin: match[1], tokenID: match[2]!, secretToken: match[3]! };
}

describeWithServer(
  "password reset and set",
  (ctx) => {
    it("mails a reset link built from configuration, with the same answer for an unknown e-mail", async () => {
      const org = await ctx().createOrganisation("resets");
      const browser = new Browser(ctx().tenantUrl("resets"));
      const known = await browser.request("POST", "/api/ResetPassword/ResetPasswordRequest", {
        email: org.email,
      });
      const unknown = await browser.request("POST", "/api/ResetPassword/ResetPasswordRequest", {
        email: "nobody@resets.example.com",
      });
      expect([known.status, known.text]).toEqual([neutral, ""]);
      expect([unknown.status, unknown.text]).toEqual([known.status, known.text]);
      const received = await mail.waitFor(org.email, (m) => m.subject === "Reset your Varia password");
      const link = linkIn(received.text, "passwordReset");
      // The address comes from VARIA_PUBLIC_URL, not from the Host header of the request.
      expect(link.origin).toBe("https://resets.varia.test");
      expect(mail.mails.some((m) => m.to.includes("nobody@resets.example.com"))).toBe(false);
    });

    it("checks the link, refuses a common password, sets the new one once, and ends sessions", async () => {
      const org = await ctx().createOrganisation("resetflow");
      const signedIn = new Browser(ctx().tenantUrl("resetflow"));
      await signedIn.request("POST", "/api/login", { email: org.email, password: org.password });
      const browser = new Browser(ctx().tenantUrl("resetflow"));
      await browser.request("POST", "/api/ResetPassword/ResetPasswordRequest", { email: org.email });
      const link = linkIn((await mail.waitFor(org.email)).text, "passwordReset");
      const query = `tokenID=${link.tokenID}&secretToken=${link.secretToken}`;
      // A usable link answers its account's address (for password managers); a forged one, nothing.
      expect((await browser.request("GET", `/api/ResetPassword/IsTokenValid?${query}`)).json).toEqual({
        isValid: true,
        email: org.email,
      });
      const forged = `tokenID=${link.tokenID}&secretToken=${link.secretToken.slice(0, -2)}xx`;
      expect((await browser.request("GET", `/api/ResetPassword/IsTokenValid?${forged}`)).json).toEqual({
        isValid: false,
      });
      const common = await browser.request("POST", "/api/ResetPassword/ResetPassword", {
        ...link,
        password: "qwerty123456",
      });
      expect(common.status).toBe(400);
      expect(common.json.errors).toEqual([
        {
          field: "password",
          message:
            "This password is too common: it appears in lists of leaked passwords. Please choose another.",
        },
      ]);
      const short = await browser.request("POST", "/api/ResetPassword/ResetPassword", {
        ...link,
        password: "short one",
      });
      expect(short.json.message).toBe("The password must have at least 12 characters.");
      const ok = await browser.request("POST", "/api/ResetPassword/ResetPassword", {
        ...link,
        password: "a brand new long passphrase",
      });
      expect(ok.status).toBe(200);
      // The account's address, for the sign-in form that follows; only once the link has worked.
      expect(ok.json).toEqual({ email: org.email });
      const again = await browser.request("POST", "/api/ResetPassword/ResetPassword", {
        ...link,
        password: "another long passphrase",
      });
      expect(again.status).toBe(400);
      // A used link is no longer usable, and tells nothing of its account.
      expect((await browser.request("GET", `/api/ResetPassword/IsTokenValid?${query}`)).json).toEqual({
        isValid: false,
      });
      expect((await signedIn.request("GET", "/api/Account/AuthorisedPing")).status).toBe(401);
      const login = await browser.request("POST", "/api/login", {
        email: org.email,
        password: "a brand new long passphrase",
      });
      expect(login.status).toBe(200);
    });

    it("lets a reset link expire after an hour", async () => {
      const org = await ctx().createOrganisation("resetexpiry");
      const browser = new Browser(ctx().tenantUrl("resetexpiry"));
      await browser.request("POST", "/api/ResetPassword/ResetPasswordRequest", { email: org.email });
      const link = linkIn((await mail.waitFor(org.email)).text, "passwordReset");
      clock.advance(3600_000);
      const late = await browser.request("POST", "/api/ResetPassword/ResetPassword", {
        ...link,
        password: "a brand new long passphrase",
      });
      expect(late.status).toBe(400);
      expect(late.json.message).toBe("This link is invalid or has expired. Please request a new one.");
    });

    it("changes the password in the app with the current one, and rotates the session", async () => {
      const org = await ctx().createOrganisation("inapp");
      const browser = new Browser(ctx().tenantUrl("inapp"));
      const login = await browser.request("POST", "/api/login", { email: org.email, password: org.password });
      expect(login.json).toEqual({ requiredActions: [] });
      // The public address is https: the session cookie is Secure and __Host- prefixed.
      const before = browser.cookie("__Host-varia_session");
      expect(before).toBeTruthy();
      const xsrf = () => ({ "x-xsrf-token": browser.cookie("XSRF-TOKEN") ?? "" });
      const wrong = await browser.request(
        "POST",
        "/api/ResetPassword/ResetPasswordInApp",
        { oldPassword: "not my password", newPassword: "a brand new long passphrase" },
        xsrf(),
      );
      expect(wrong.status).toBe(400);
      expect(wrong.json.errors).toEqual([
        { field: "oldPassword", message: "The current password is incorrect" },
      ]);
      const ok = await browser.request(
        "POST",
        "/api/ResetPassword/ResetPasswordInApp",
        { oldPassword: org.password, newPassword: "a brand new long passphrase" },
        xsrf(),
      );
      expect([ok.status, ok.json]).toEqual([200, undefined]);
      expect(browser.cookie("__Host-varia_session")).not.toBe(before);
      expect((await browser.request("GET", "/api/Account/AuthorisedPing")).status).toBe(200);
    });

    it("ends a user's unused links when an admin gives them a new address or disables them", async () => {
      const org = await ctx().createOrganisation("relinks");
      const admin = new Browser(ctx().tenantUrl("relinks"));
      await admin.request("POST", "/api/login", { email: org.email, password: org.password });
      const xsrf = { "x-xsrf-token": admin.cookie("XSRF-TOKEN") ?? "" };
      const usable = async (link: { tokenID: string; secretToken: string }) =>
        (
          await admin.request(
            "GET",
            `/api/ResetPassword/IsTokenValid?tokenID=${link.tokenID}&secretToken=${link.secretToken}`,
          )
        ).json.isValid;
      const mia = { name: "Mia Moved", email: "mia@old.example.com", userIsAdmin: false, roleIDs: [] };
      const created = await admin.request("POST", "/api/variance/UserManagement/CreateUser", mia, xsrf);
      const userID = created.json.userID as string;
      const update = (changes: Record<string, unknown>) =>
        admin.request(
          "POST",
          "/api/variance/UserManagement/UpdateDetail",
          { userID, ...mia, ...changes },
          xsrf,
        );
      const first = linkIn((await mail.waitFor("mia@old.example.com")).text, "passwordSet");
      expect(await usable(first)).toBe(true);
      // A new name (the address in another case too) leaves the link as it was.
      expect((await update({ name: "Mia M.", email: "MIA@old.example.com" })).status).toBe(200);
      expect(await usable(first)).toBe(true);
      // A new address: the link in the old mailbox sets nothing any more.
      expect((await update({ email: "mia@new.example.com" })).status).toBe(200);
      expect(await usable(first)).toBe(false);
      const refused = await admin.request("POST", "/api/ResetPassword/ResetPassword", {
        tokenID: first.tokenID,
        secretToken: first.secretToken,
        password: "a long password from the old mailbox",
      });
      expect(refused.status).toBe(400);
      mia.email = "mia@new.example.com";
      expect(
        (
          await admin.request(
            "POST",
            `/api/variance/UserManagement/SendPasswordLink?userID=${userID}`,
            {},
            xsrf,
          )
        ).status,
      ).toBe(200);
      const second = linkIn((await mail.waitFor("mia@new.example.com")).text, "passwordSet");
      expect(await usable(second)).toBe(true);
      // Disabled: no link of hers sets a password.
      expect((await update({ disabled: true })).status).toBe(200);
      expect(await usable(second)).toBe(false);
    });

    it("serves the reset pages with no referrer", async () => {
      const page = await new Browser(ctx().tenantUrl("resets")).request("GET", "/passwordReset/abc/def");
      expect(page.headers.get("referrer-policy")).toBe("no-referrer");
      const set = await new Browser(ctx().tenantUrl("resets")).request("GET", "/passwordSet/abc/def");
      expect(set.headers.get("referrer-policy")).toBe("no-referrer");
    });
  },
  { clock, env: () => ({ SMTP_URL: mail.url, VARIA_PUBLIC_URL: "https://app.varia.test" }) },
);
