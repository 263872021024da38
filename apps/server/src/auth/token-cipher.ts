import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import type { Kysely } from "kysely";
import type { Schema } from "../db/schema";
import { getServerSecret } from "./server-secret";

/**
 * Encrypts the accounting providers' tokens for storage (docs/security.md, "Provider tokens"):
 * AES-256-GCM with a key derived by HKDF-SHA256 from the server secret `provider-tokens`, a random
 * 96-bit IV per value, and the row it belongs to as associated data, so that a value copied into
 * another organisation's row does not decrypt.
 */
export class TokenCipher {
  private constructor(private readonly key: Buffer) {}

  static async open(db: Kysely<Schema>): Promise<TokenCipher> {
    const secret = await getServerSecret(db, "provider-tokens");
    const key = Buffer.from(hkdfSync("sha256", secret, "varia", "provider tokens v1", 32));
    return new TokenCipher(key);
  }

  /** `v1.<iv>.<tag>.<ciphertext>`, base64url. */
  encrypt(plain: string, context: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv("aes-256-gcm", this.key, iv);
    cipher.setAAD(Buffer.from(context));
    const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
    return ["v1", iv, cipher.getAuthTag(), body]
      .map((p) => (typeof p === "string" ? p : p.toString("base64url")))
      .join(".");
  }

  /** Throws when the value was altered or belongs to another context. */
  decrypt(stored: string, context: string): string {
    const [version, iv, tag, body] = stored.split(".");
    if (version !== "v1" || !iv || !tag || body === undefined) throw new Error("not an encrypted token");
    const decipher = createDecipheriv("aes-256-gcm", this.key, Buffer.from(iv, "base64url"));
    decipher.setAAD(Buffer.from(context));
    decipher.setAuthTag(Buffer.from(tag, "base64url"));
    return Buffer.concat([decipher.update(Buffer.from(body, "base64url")), decipher.final()]).toString(
      "utf8",
    );
  }
}
