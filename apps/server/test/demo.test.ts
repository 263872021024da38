import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { sql } from "kysely";
import { afterAll, beforeAll, expect, it } from "vitest";
import { Browser, describeWithServer, TestClock } from "./harness";
import { MailReceiver } from "./mail-receiver";

const clock = new TestClock();
const mail = new MailReceiver();

/** A stand-in for reCAPTCHA's verify endpoint: the token says what it answers. */
const captchaCalls: URLSearchParams[] = [];
const captcha: Server = createServer((request, response) => {
  let body = "";
  request.on("data", (chunk: Buffer) => {
    body += chunk.toString();
  });
  request.on("end", () => {
    const form = new URLSearchParams(body);
    captchaCalls.push(form);
    const token = form.get("response");
    const answer =
      form.get("secret") !== "test-secret"
        ? { success: false, "error-codes": ["invalid-input-secret"] }
        : token === "human"
          ? { success: true, score: 0.9, action: "demoSignup" }
          : token === "bot"
            ? { success: true, score: 0.1, action: "demoSignup" }
            : { success: false, "error-codes": ["invalid-input-response"] };
    response.setHeader("content-type", "application/json");
    response.end(JSON.stringify(answer));
  });
});

beforeAll(async () => {
  await mail.start();
  await new Promise<void>((resolve) => captcha.listen(0, "127.0.0.1", resolve));
});
afterAll(async () => {
  await mail.close();
  captcha.close();
});

const codeOf = (subject: string) => /(\d{6})$/.exec(subject)?.[1] ?? "";

describeWithServer(
  "demo",
  (ctx) => {
    let demoName = "";
    beforeAll(async () => {
      const db = ctx().database.db;
      const demo = await ctx().createOrganisation("demo");
      demoName = "demo Ltd";
      // Whatever data the demo organisation holds is copied, including tables this code never named.
      await sql`create table demo_widgets (
        organisation_id uuid not null references organisations (id) on delete cascade,
        id integer not null, label text not null, primary key (organisation_id, id))`.execute(db);
      await sql`insert into demo_widgets values (${demo.organisationId}, 1, 'one'), (${demo.organisationId}, 2, 'two')`.execute(
        db,
      );
    });

    const signup = (browser: Browser, email: string, recaptchaToken = "human") =>
      browser.request("POST", "/api/Demo/Signup", {
        name: "Visiting Vera",
        email,
        phoneDetected: false,
        recaptchaToken,
      });

    it("refuses addresses of blocked domains with the spec's reply", async () => {
      const answer = await signup(new Browser(ctx().tenantUrl("demo")), "vera@gmail.com");
      expect(answer.status).toBe(400);
      expect(answer.json.message).toBe("Email is not a valid business email");
      expect(answer.json.errors).toEqual([
        { field: "email", message: "Email is not a valid business email" },
      ]);
      const subdomain = await signup(new Browser(ctx().tenantUrl("demo")), "vera@mail.yahoo.com");
      expect(subdomain.status).toBe(400);
    });

    it("checks the captcha server-side: a bot's score or a bad token is refused", async () => {
      const browser = new Browser(ctx().tenantUrl("demo"));
      for (const token of ["bot", "forged", ""]) {
        const answer = await signup(browser, "vera@bigcorp.example.com", token);
        expect(answer.status).toBe(400);
        expect(answer.json.message).toBe("Demo signup failed, please try again");
      }
      expect(captchaCalls.at(-1)?.get("secret")).toBe("test-secret");
    });

    it("mails a 6-digit code that signs in to a fresh copy of the demo organisation, once", async () => {
      const email = `vera.${ctx().kind}@bigcorp.example.com`;
      const browser = new Browser(ctx().tenantUrl("demo"));
      expect((await signup(browser, email)).status).toBe(200);
      const code = codeOf((await mail.waitFor(email)).subject);
      expect(code).toMatch(/^\d{6}$/);
      const verified = await browser.request("POST", "/api/Demo/Verify", { email, code });
      expect(verified.status).toBe(200);
      const ping = await browser.request("GET", "/api/Account/AuthorisedPing");
      expect(ping.status).toBe(200);
      const profile = ping.json.profile as Record<string, unknown>;
      expect(profile).toMatchObject({
        email,
        name: "Visiting Vera",
        organisationName: demoName,
        loginMethod: "DemoCode",
        demoMode: true,
        userIsAdmin: false,
      });
      const copy = await ctx()
        .database.db.selectFrom("organisations")
        .select(["id", "tenant", "is_demo"])
        .where("id", "=", profile.organisationGUID as string)
        .executeTakeFirstOrThrow();
      expect(copy.tenant).toMatch(/^demo-/);
      expect(copy.is_demo).toBe(true);
      const widgets = await sql<{
        label: string;
      }>`select label from demo_widgets where organisation_id = ${copy.id} order by id`.execute(
        ctx().database.db,
      );
      expect(widgets.rows.map((r) => r.label)).toEqual(["one", "two"]);
      // The visitor may not invite people or mint tokens in the copy.
      expect((await browser.request("GET", "/api/variance/UserManagement/GetUserList")).status).toBe(403);
      // The code worked once.
      const again = await new Browser(ctx().tenantUrl("demo")).request("POST", "/api/Demo/Verify", {
        email,
        code,
      });
      expect(again.status).toBe(401);

      // A second visitor gets another copy.
      const other = `olga.${ctx().kind}@bigcorp.example.com`;
      const second = new Browser(ctx().tenantUrl("demo"));
      await signup(second, other);
      await second.request("POST", "/api/Demo/Verify", {
        email: other,
        code: codeOf((await mail.waitFor(other)).subject),
      });
      const secondProfile = (await second.request("GET", "/api/Account/AuthorisedPing")).json
        .profile as Record<string, unknown>;
      expect(secondProfile.organisationGUID).not.toBe(profile.organisationGUID);
    });

    it("allows 5 tries and 10 minutes", async () => {
      const email = `tries.${ctx().kind}@bigcorp.example.com`;
      const browser = new Browser(ctx().tenantUrl("demo"));
      await signup(browser, email);
      const code = codeOf((await mail.waitFor(email)).subject);
      const wrong = code === "000000" ? "111111" : "000000";
      for (let i = 0; i < 5; i++)
        expect((await browser.request("POST", "/api/Demo/Verify", { email, code: wrong })).status).toBe(401);
      expect((await browser.request("POST", "/api/Demo/Verify", { email, code })).status).toBe(401);

      await signup(browser, email);
      const fresh = codeOf((await mail.waitFor(email)).subject);
      clock.advance(10 * 60_000);
      expect((await browser.request("POST", "/api/Demo/Verify", { email, code: fresh })).status).toBe(401);
    });

    it("deletes a visitor's copy after a week, when another visitor signs in", async () => {
      const visit = async (email: string) => {
        const browser = new Browser(ctx().tenantUrl("demo"));
        await signup(browser, email);
        await browser.request("POST", "/api/Demo/Verify", {
          email,
          code: codeOf((await mail.waitFor(email)).subject),
        });
        const profile = (await browser.request("GET", "/api/Account/AuthorisedPing")).json.profile as Record<
          string,
          string
        >;
        return profile.organisationGUID;
      };
      const first = await visit(`week1.${ctx().kind}@bigcorp.example.com`);
      const exists = async (id: string | undefined) =>
        (await ctx().database.db.selectFrom("organisations").select("id").where("id", "=", id!).execute())
          .length === 1;
      clock.advance(6 * 24 * 3600_000);
      const second = await visit(`week2.${ctx().kind}@bigcorp.example.com`);
      expect(await exists(first)).toBe(true);
      clock.advance(24 * 3600_000 + 1000);
      await visit(`week3.${ctx().kind}@bigcorp.example.com`);
      expect(await exists(first)).toBe(false);
      expect(await exists(second)).toBe(true);
      expect(
        await exists(
          (
            await ctx()
              .database.db.selectFrom("organisations")
              .select("id")
              .where("tenant", "=", "demo")
              .executeTakeFirst()
          )?.id,
        ),
      ).toBe(true);
    });

    it("stores a contact message and mails it to the configured address", async () => {
      const email = `contact.${ctx().kind}@bigcorp.example.com`;
      const browser = new Browser(ctx().tenantUrl("demo"));
      await signup(browser, email);
      await browser.request("POST", "/api/Demo/Verify", {
        email,
        code: codeOf((await mail.waitFor(email)).subject),
      });
      const sent = await browser.request(
        "POST",
        "/api/Demo/ContactUs",
        { userMessage: "Please call me about pricing." },
        { "x-xsrf-token": browser.cookie("XSRF-TOKEN") ?? "" },
      );
      expect(sent.status).toBe(200);
      const received = await mail.waitFor("sales@varia.test", (m) => m.text.includes(email));
      expect(received.text).toContain("Please call me about pricing.");
      const stored = await ctx()
        .database.db.selectFrom("contact_messages")
        .select("message")
        .where("email", "=", email)
        .execute();
      expect(stored).toEqual([{ message: "Please call me about pricing." }]);
    });
  },
  {
    clock,
    env: () => ({
      SMTP_URL: mail.url,
      RECAPTCHA_SECRET: "test-secret",
      RECAPTCHA_VERIFY_URL: `http://127.0.0.1:${(captcha.address() as AddressInfo).port}/siteverify`,
      VARIA_CONTACT_EMAIL: "sales@varia.test",
    }),
  },
);
