import { createHmac, randomBytes } from "node:crypto";

/** TOTP of RFC 6238: HMAC-SHA1, 6 digits, 30-second steps, ±1 step accepted (docs/security.md, "Multi-factor authentication"). */
export const totpParameters = { digits: 6, stepSeconds: 30, window: 1 } as const;

const base32Alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

export function base32Encode(bytes: Uint8Array): string {
  let bits = 0;
  let value = 0;
  let out = "";
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += base32Alphabet[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += base32Alphabet[(value << (5 - bits)) & 31];
  return out;
}

export function base32Decode(text: string): Buffer {
  const clean = text.replace(/[\s=]/g, "").toUpperCase();
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const char of clean) {
    const index = base32Alphabet.indexOf(char);
    if (index < 0) throw new Error("not base32");
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 255);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

/** A new secret of 160 random bits, base32 as authenticator apps take it. */
export function generateTotpSecret(): string {
  return base32Encode(randomBytes(20));
}

export function totpStep(now: Date): number {
  return Math.floor(now.getTime() / 1000 / totpParameters.stepSeconds);
}

/** The code of one time step (RFC 4226 dynamic truncation). */
export function hotp(secret: string, step: number): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(step));
  const digest = createHmac("sha1", base32Decode(secret)).update(counter).digest();
  const offset = (digest[digest.length - 1] ?? 0) & 0xf;
  const binary = digest.readUInt32BE(offset) & 0x7fffffff;
  return String(binary % 10 ** totpParameters.digits).padStart(totpParameters.digits, "0");
}

export function totpCode(secret: string, now: Date): string {
  return hotp(secret, totpStep(now));
}

/**
 * Checks a code against the steps around `now`. Returns the matching step, or null. A step at or
 * before `lastUsedStep` never matches again: each code is accepted once.
 */
export function verifyTotp(
  secret: string,
  code: string,
  now: Date,
  lastUsedStep: number | null = null,
): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const current = totpStep(now);
  let matched: number | null = null;
  for (let step = current - totpParameters.window; step <= current + totpParameters.window; step++) {
    // Compare every candidate, so that the time taken does not tell which step matched.
    if (hotp(secret, step) === code && (lastUsedStep === null || step > lastUsedStep)) matched = step;
  }
  return matched;
}

/** The otpauth:// URI an authenticator app reads from a QR code. */
export function otpauthUri(issuer: string, account: string, secret: string): string {
  const label = `${encodeURIComponent(issuer)}:${encodeURIComponent(account)}`;
  const query = new URLSearchParams({
    secret,
    issuer,
    algorithm: "SHA1",
    digits: String(totpParameters.digits),
    period: String(totpParameters.stepSeconds),
  });
  return `otpauth://totp/${label}?${query}`;
}
