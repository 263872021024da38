import { describe, expect, it } from "vitest";
import { base32Decode, base32Encode, generateTotpSecret, hotp, otpauthUri, verifyTotp } from "./totp";

// RFC 6238 appendix B: the SHA-1 seed "12345678901234567890", 8-digit codes; we use the last 6.
const rfcSecret = base32Encode(Buffer.from("12345678901234567890"));
const at = (seconds: number) => new Date(seconds * 1000);

describe("totp", () => {
  it("matches the RFC 6238 test vectors", () => {
    expect(hotp(rfcSecret, Math.floor(59 / 30))).toBe("287082");
    expect(hotp(rfcSecret, Math.floor(1111111109 / 30))).toBe("081804");
    expect(hotp(rfcSecret, Math.floor(1234567890 / 30))).toBe("005924");
    expect(hotp(rfcSecret, Math.floor(2000000000 / 30))).toBe("279037");
  });

  it("accepts one step either side, not two", () => {
    const code = hotp(rfcSecret, 1000);
    expect(verifyTotp(rfcSecret, code, at(1000 * 30))).toBe(1000);
    expect(verifyTotp(rfcSecret, code, at(1001 * 30 + 29))).toBe(1000);
    expect(verifyTotp(rfcSecret, code, at(999 * 30))).toBe(1000);
    expect(verifyTotp(rfcSecret, code, at(1002 * 30))).toBeNull();
    expect(verifyTotp(rfcSecret, code, at(998 * 30))).toBeNull();
  });

  it("accepts a code once: a step at or before the last used one never matches", () => {
    const code = hotp(rfcSecret, 1000);
    expect(verifyTotp(rfcSecret, code, at(1000 * 30), 1000)).toBeNull();
    expect(verifyTotp(rfcSecret, code, at(1000 * 30), 999)).toBe(1000);
    expect(verifyTotp(rfcSecret, "12345", at(1000 * 30))).toBeNull();
  });

  it("makes 160-bit secrets and an otpauth URI an authenticator app reads", () => {
    const secret = generateTotpSecret();
    expect(base32Decode(secret)).toHaveLength(20);
    expect(generateTotpSecret()).not.toBe(secret);
    const uri = new URL(otpauthUri("Varia", "ann@acme.example.com", secret));
    expect(uri.protocol).toBe("otpauth:");
    expect(uri.host).toBe("totp");
    expect(decodeURIComponent(uri.pathname)).toBe("/Varia:ann@acme.example.com");
    expect(uri.searchParams.get("secret")).toBe(secret);
    expect(uri.searchParams.get("issuer")).toBe("Varia");
    expect(uri.searchParams.get("digits")).toBe("6");
    expect(uri.searchParams.get("period")).toBe("30");
  });
});
