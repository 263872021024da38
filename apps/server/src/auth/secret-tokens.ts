import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";

/** A random secret of `bytes` bytes (at least 16, i.e. 128 bits), base64url. */
export function randomSecret(bytes = 32): string {
  if (bytes < 16) throw new Error("secrets carry at least 128 bits");
  return randomBytes(bytes).toString("base64url");
}

/** How secrets are stored: SHA-256, hex. Secrets are random, so a fast hash is enough. */
export function hashSecret(secret: string): string {
  return createHash("sha256").update(secret, "utf8").digest("hex");
}

export function hmac(key: string, message: string): string {
  return createHmac("sha256", key).update(message, "utf8").digest("base64url");
}

export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
