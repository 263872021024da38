import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import type { Schema } from "../db/schema";
import { hashSecret, randomSecret, safeEqual } from "./secret-tokens";

/** docs/security.md, "Passwords": a reset link lasts 1 h, a set-password link 72 h; both single use. */
export const passwordTokenLifetimeMs = { reset: 3600_000, set: 72 * 3600_000 } as const;
export type PasswordTokenKind = keyof typeof passwordTokenLifetimeMs;

/**
 * Ends a user's unused links: a new link replaces them, and a link mailed to an address that is no
 * longer the user's, or to a user who is disabled, must not set a password (docs/security.md, "Passwords").
 */
export async function endPasswordTokens(
  db: Kysely<Schema>,
  organisationId: string,
  userId: string,
  now: Date,
): Promise<void> {
  await db
    .updateTable("password_tokens")
    .set({ used_at: now })
    .where("organisation_id", "=", organisationId)
    .where("user_id", "=", userId)
    .where("used_at", "is", null)
    .execute();
}

/** Creates a link token (id + 256-bit secret, stored hashed); earlier unused ones of the user end. */
export async function createPasswordToken(
  db: Kysely<Schema>,
  input: { organisationId: string; userId: string; kind: PasswordTokenKind },
  now: Date,
): Promise<{ id: string; secret: string }> {
  const id = randomUUID();
  const secret = randomSecret(32);
  await endPasswordTokens(db, input.organisationId, input.userId, now);
  await db
    .insertInto("password_tokens")
    .values({
      organisation_id: input.organisationId,
      id,
      user_id: input.userId,
      kind: input.kind,
      secret_hash: hashSecret(secret),
      expires_at: new Date(now.getTime() + passwordTokenLifetimeMs[input.kind]),
      used_at: null,
    })
    .execute();
  return { id, secret };
}

/** The live token of an organisation with this id and secret, or undefined. */
export async function findPasswordToken(
  db: Kysely<Schema>,
  organisationId: string,
  id: string,
  secret: string,
  now: Date,
) {
  const row = await db
    .selectFrom("password_tokens")
    .selectAll()
    .where("organisation_id", "=", organisationId)
    .where("id", "=", id)
    .executeTakeFirst();
  if (!row || !safeEqual(row.secret_hash, hashSecret(secret))) return undefined;
  if (row.used_at || new Date(row.expires_at).getTime() <= now.getTime()) return undefined;
  return row;
}

/** Marks a token used; false when another request used it first. */
export async function consumePasswordToken(
  db: Kysely<Schema>,
  organisationId: string,
  id: string,
  now: Date,
): Promise<boolean> {
  const result = await db
    .updateTable("password_tokens")
    .set({ used_at: now })
    .where("organisation_id", "=", organisationId)
    .where("id", "=", id)
    .where("used_at", "is", null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
