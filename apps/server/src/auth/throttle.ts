import type { Kysely } from "kysely";
import type { Schema } from "../db/schema";
import { hashSecret } from "./secret-tokens";

/**
 * Failed sign-ins and rate-limited calls, counted in the database so that every server instance
 * sees the same counts. Keys are stored hashed: an e-mail typed at the login is never kept in clear.
 */

/** DESIGN.md 5: 10 failures on one account within 15 min lock it for 15 min. */
export const lockoutPolicy = { failures: 10, windowMs: 15 * 60_000, lockMs: 15 * 60_000 } as const;

export const lockedReason =
  "Your account has reached the maximum number of failed login attempts and has been temporarily locked. Please try again later";

export interface RateLimit {
  limit: number;
  windowMs: number;
}

export async function recordEvent(db: Kysely<Schema>, key: string, now: Date): Promise<void> {
  await db
    .insertInto("auth_events")
    .values({ key_hash: hashSecret(key), at: now })
    .execute();
  // Keep the table small: events older than a day count for nothing.
  if (Math.random() < 0.02) {
    await db
      .deleteFrom("auth_events")
      .where("at", "<", new Date(now.getTime() - 24 * 3600_000))
      .execute();
  }
}

async function eventTimes(db: Kysely<Schema>, key: string, since: Date, now: Date): Promise<number[]> {
  const rows = await db
    .selectFrom("auth_events")
    .select("at")
    .where("key_hash", "=", hashSecret(key))
    .where("at", ">", since)
    .where("at", "<=", now)
    .orderBy("at")
    .execute();
  return rows.map((r) => new Date(r.at).getTime());
}

/**
 * Seconds until the key's lock ends, or null when it is not locked. A lock starts at the failure
 * that makes `failures` within `windowMs`, and lasts `lockMs` from then.
 */
export async function lockedForSeconds(
  db: Kysely<Schema>,
  key: string,
  now: Date,
  policy = lockoutPolicy,
): Promise<number | null> {
  const times = await eventTimes(db, key, new Date(now.getTime() - policy.windowMs - policy.lockMs), now);
  let lockedUntil = 0;
  for (let i = policy.failures - 1; i < times.length; i++) {
    const last = times[i]!;
    if (last - times[i - policy.failures + 1]! < policy.windowMs)
      lockedUntil = Math.max(lockedUntil, last + policy.lockMs);
  }
  const remaining = lockedUntil - now.getTime();
  return remaining > 0 ? Math.ceil(remaining / 1000) : null;
}

/**
 * Counts one call against a rate limit. Returns null when the call may go ahead (and records it),
 * or the seconds to wait when the limit is reached (and records nothing).
 */
export async function takeRateLimit(
  db: Kysely<Schema>,
  key: string,
  limit: RateLimit,
  now: Date,
): Promise<number | null> {
  const times = await eventTimes(db, key, new Date(now.getTime() - limit.windowMs), now);
  if (times.length >= limit.limit) {
    const oldest = times[times.length - limit.limit]!;
    return Math.max(1, Math.ceil((oldest + limit.windowMs - now.getTime()) / 1000));
  }
  await recordEvent(db, key, now);
  return null;
}
