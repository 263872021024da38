import { expect, it } from "vitest";
import { clientAddressKey } from "../src/auth/throttle";
import { Browser, describeWithServer, TestClock } from "./harness";

const clock = new TestClock();
const lockedReason =
  "Your account has reached the maximum number of failed login attempts and has been temporarily locked. Please try again later";

/**
 * The lockout keyed by account and client address, with a slower ceiling per account across all
 * addresses. Clients are told apart by X-Forwarded-For: this server trusts its proxy.
 */
describeWithServer(
  "lockout by account and address",
  (ctx) => {
    /** A browser of the tenant's site whose requests come from `address`. */
    const from = (tenant: string, address: string) => {
      const browser = new Browser(ctx().tenantUrl(tenant));
      return (path: string, body: unknown) =>
        browser.request("POST", path, body, { "x-forwarded-for": address });
    };

    it("a stranger's ten wrong passwords lock out the stranger's address, not the user elsewhere", async () => {
      const org = await ctx().createOrganisation("victim");
      const stranger = from("victim", "203.0.113.7");
      for (let i = 0; i < 10; i++)
        expect((await stranger("/api/login", { email: org.email, password: `guess ${i}` })).status).toBe(401);
      const locked = await stranger("/api/login", { email: org.email, password: org.password });
      expect(locked.status).toBe(429);
      expect(locked.json.message).toBe(lockedReason);
      expect(Number(locked.headers.get("retry-after"))).toBe(15 * 60);
      // The user, signing in from another address, is not locked out.
      const user = await from("victim", "198.51.100.20")("/api/login", {
        email: org.email,
        password: org.password,
      });
      expect(user.status).toBe(200);
      // The stranger's lock ends after 15 minutes.
      clock.advance(15 * 60_000);
      expect((await stranger("/api/login", { email: org.email, password: org.password })).status).toBe(200);
    });

    it("counts an IPv6 client by its /64, so rotating addresses within it gains nothing", async () => {
      const org = await ctx().createOrganisation("six");
      for (let i = 0; i < 10; i++) {
        const answer = await from("six", `2001:db8:1:2::${(i + 1).toString(16)}`)("/api/login", {
          email: org.email,
          password: `guess ${i}`,
        });
        expect(answer.status).toBe(401);
      }
      const rotated = await from("six", "2001:db8:1:2:ffff::99")("/api/login", {
        email: org.email,
        password: org.password,
      });
      expect(rotated.status).toBe(429);
      expect(
        (await from("six", "2001:db8:1:3::1")("/api/login", { email: org.email, password: org.password }))
          .status,
      ).toBe(200);
    });

    it("locks the account everywhere for an hour after 100 failures from many addresses", async () => {
      const org = await ctx().createOrganisation("ceiling");
      // Ten addresses, ten failures each: every one of them reaches its own lock on its tenth.
      for (let a = 1; a <= 10; a++) {
        const client = from("ceiling", `192.0.2.${a}`);
        for (let i = 0; i < 10; i++)
          expect((await client("/api/login", { email: org.email, password: `guess ${a}.${i}` })).status).toBe(
            401,
          );
        clock.advance(60_000);
      }
      const fresh = await from("ceiling", "198.51.100.99")("/api/login", {
        email: org.email,
        password: org.password,
      });
      expect(fresh.status).toBe(429);
      expect(fresh.json.message).toBe(lockedReason);
      // An hour from the hundredth failure (a minute ago).
      expect(Number(fresh.headers.get("retry-after"))).toBe(3600 - 60);
      clock.advance(3600_000 - 60_000);
      const later = await from("ceiling", "198.51.100.99")("/api/login", {
        email: org.email,
        password: org.password,
      });
      expect(later.status).toBe(200);
    });

    it("globalLogin and login share the counters, both ways", async () => {
      const org = await ctx().createOrganisation("shared");
      const port = new URL(ctx().url).port;
      const app = new Browser(`http://app.localhost:${port}`);
      const global = (address: string, password: string) =>
        app.request(
          "POST",
          "/api/globalLogin",
          { email: org.email, password },
          { "x-forwarded-for": address },
        );
      for (let i = 0; i < 10; i++) expect((await global("203.0.113.50", `guess ${i}`)).status).toBe(401);
      const login = await from("shared", "203.0.113.50")("/api/login", {
        email: org.email,
        password: org.password,
      });
      expect(login.status).toBe(429);
      expect(login.json.message).toBe(lockedReason);

      const tenantSite = from("shared", "203.0.113.51");
      for (let i = 0; i < 10; i++)
        expect((await tenantSite("/api/login", { email: org.email, password: `guess ${i}` })).status).toBe(
          401,
        );
      const locked = await global("203.0.113.51", org.password);
      expect(locked.status).toBe(429);
      expect(locked.json.message).toBe(lockedReason);
      expect((await global("203.0.113.52", org.password)).status).toBe(200);
    });
  },
  { clock, env: () => ({ VARIA_TRUST_PROXY: "true" }) },
);

it("keys addresses: IPv4 as it is, IPv4-mapped IPv6 as IPv4, IPv6 by its /64", () => {
  expect(clientAddressKey("203.0.113.7")).toBe("203.0.113.7");
  expect(clientAddressKey("::ffff:203.0.113.7")).toBe("203.0.113.7");
  expect(clientAddressKey("2001:db8:1:2::1")).toBe("2001:db8:1:2::/64");
  expect(clientAddressKey("2001:0db8:0001:0002:ffff:0:0:99")).toBe("2001:db8:1:2::/64");
  expect(clientAddressKey("2001:db8::1")).toBe("2001:db8:0:0::/64");
  expect(clientAddressKey("::1")).toBe("0:0:0:0::/64");
});
