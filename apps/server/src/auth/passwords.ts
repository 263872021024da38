import { argon2, randomBytes, timingSafeEqual } from "node:crypto";

/** argon2id with the OWASP parameters of docs/security.md, "Passwords": m = 19 MiB, t = 2, p = 1. */
const parameters = { memory: 19_456, passes: 2, parallelism: 1, tagLength: 32 } as const;

function derive(password: string, nonce: Buffer, p: { memory: number; passes: number; parallelism: number }) {
  return new Promise<Buffer>((resolve, reject) => {
    argon2(
      "argon2id",
      { message: Buffer.from(password, "utf8"), nonce, ...p, tagLength: parameters.tagLength },
      (error, key) => (error ? reject(error) : resolve(key)),
    );
  });
}

/** Hashes a password into a PHC string (`$argon2id$v=19$m=...,t=...,p=...$salt$hash`). */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, parameters);
  const b64 = (b: Buffer) => b.toString("base64").replace(/=+$/, "");
  return `$argon2id$v=19$m=${parameters.memory},t=${parameters.passes},p=${parameters.parallelism}$${b64(salt)}$${b64(key)}`;
}

const phc = /^\$argon2id\$v=19\$m=(\d+),t=(\d+),p=(\d+)\$([A-Za-z0-9+/]+)\$([A-Za-z0-9+/]+)$/;

/** Checks a password against a PHC hash in constant time; a malformed hash never matches. */
export async function verifyPassword(password: string, hash: string): Promise<boolean> {
  const match = phc.exec(hash);
  if (!match) return false;
  const [, m, t, p, salt, expected] = match;
  const expectedKey = Buffer.from(expected ?? "", "base64");
  const key = await derive(password, Buffer.from(salt ?? "", "base64"), {
    memory: Number(m),
    passes: Number(t),
    parallelism: Number(p),
  });
  return key.length === expectedKey.length && timingSafeEqual(key, expectedKey);
}

let dummyHash: Promise<string> | undefined;

/** Spends the time of one verification, so that an unknown account answers as slowly as a known one. */
export async function verifyAgainstDummy(password: string): Promise<false> {
  dummyHash ??= hashPassword("dummy password for timing equality");
  await verifyPassword(password, await dummyHash);
  return false;
}

/** A random password for generated accounts: 20 characters from an unambiguous alphabet. */
export function generatePassword(): string {
  const alphabet = "abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789";
  const bytes = randomBytes(20);
  return Array.from(bytes, (b) => alphabet[b % alphabet.length]).join("");
}
