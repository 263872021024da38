import { describe, expect, it } from "vitest";
import { generatePassword, hashPassword, verifyPassword } from "./passwords";
import { issueXsrfToken, verifyXsrfToken } from "./xsrf";

describe("passwords", () => {
  it("hashes with argon2id and verifies only the right password", async () => {
    const hash = await hashPassword("correct horse battery staple");
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await verifyPassword("correct horse battery staple", hash)).toBe(true);
    expect(await verifyPassword("correct horse battery stapler", hash)).toBe(false);
    expect(await verifyPassword("x", "not a hash")).toBe(false);
  });

  it("salts every hash", async () => {
    expect(await hashPassword("same password here")).not.toBe(await hashPassword("same password here"));
  });

  it("generates 20-character passwords", () => {
    const a = generatePassword();
    expect(a).toHaveLength(20);
    expect(generatePassword()).not.toBe(a);
  });
});

describe("xsrf", () => {
  it("accepts the token issued for the session, sent as cookie and header", () => {
    const token = issueXsrfToken("key", "session-1");
    expect(verifyXsrfToken("key", "session-1", token, token)).toBe(true);
  });

  it("refuses a token of another session, a planted pair, a mismatch or a missing header", () => {
    const token = issueXsrfToken("key", "session-1");
    expect(verifyXsrfToken("key", "session-2", token, token)).toBe(false);
    expect(verifyXsrfToken("other key", "session-1", token, token)).toBe(false);
    expect(verifyXsrfToken("key", "session-1", "abc.def", "abc.def")).toBe(false);
    expect(verifyXsrfToken("key", "session-1", token, undefined)).toBe(false);
    expect(verifyXsrfToken("key", "session-1", token, issueXsrfToken("key", "session-1"))).toBe(false);
  });
});
