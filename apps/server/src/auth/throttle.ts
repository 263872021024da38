import type { Kysely } from "kysely";
import type { Schema } from "../db/schema";
import { hashSecret } from "./secret-tokens";

/**
 * Failed sign-ins and rate-limited calls, counted in the database so that every server instance
 * sees the same counts. Keys are stored hashed: an e-mail typed at the login is never kept in clear.
 */

/**
 * The fast lock of a password (and of an MFA code): 10 failures within 15 min lock for 15 min. For
 * a sign-in it is keyed by the account and the client's address (`signInKeys`), so a stranger who
 * types wrong passwords locks out their own address, never the user signing in from elsewhere.
 */
export const lockoutPolicy = { failures: 10, windowMs: 15 * 60_000, lockMs: 15 * 60_000 } as const;

/**
 * The slower ceiling of a sign-in, across every address: 100 failures on one account within 24 h
 * lock it for an hour, wherever the next try comes from (NIST SP 800-63B 5.2.2 allows at most 100
 * failed attempts on an account), so guessing from many addresses stays bounded too.
 */
export const accountCeilingPolicy = { failures: 100, windowMs: 24 * 3600_000, lockMs: 3600_000 } as const;

export type LockPolicy = { failures: number; windowMs: number; lockMs: number };

/** How long an event may count: the ceiling's window and lock, and a margin. */
const eventsKeptMs = 2 * 24 * 3600_000;

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
  // Keep the table small: events older than the longest window and lock count for nothing.
  if (Math.random() < 0.02) {
    await db
      .deleteFrom("auth_events")
      .where("at", "<", new Date(now.getTime() - eventsKeptMs))
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
  policy: LockPolicy = lockoutPolicy,
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

/**
 * A client address as the lockout counts it: an IPv4 address as it is (also when written as
 * IPv4-mapped IPv6), an IPv6 address by its /64, which one client usually holds whole.
 */
export function clientAddressKey(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1]!;
  if (!address.includes(":")) return address;
  const [head = "", tail = ""] = address.toLowerCase().split("::");
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const groups = address.includes("::")
    ? [...left, ...Array<string>(Math.max(0, 8 - left.length - right.length)).fill("0"), ...right]
    : left;
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ""))
    .join(":")}::/64`;
}

/**
 * The counters of one sign-in, shared by `login` and `globalLogin`: the account is the e-mail
 * typed (whether or not a user has it, and in whichever organisation), counted per client address
 * for the fast lock and across all addresses for the ceiling.
 */
export function signInKeys(email: string, address: string) {
  const account = `signin:${email.trim().toLowerCase()}`;
  return { account, fromAddress: `${account}:${clientAddressKey(address)}` };
}

/** Seconds until a sign-in may be tried again (the longer of the two locks), or null. */
export async function signInLockedFor(
  db: Kysely<Schema>,
  keys: ReturnType<typeof signInKeys>,
  now: Date,
): Promise<number | null> {
  const fast = await lockedForSeconds(db, keys.fromAddress, now, lockoutPolicy);
  const ceiling = await lockedForSeconds(db, keys.account, now, accountCeilingPolicy);
  return fast === null && ceiling === null ? null : Math.max(fast ?? 0, ceiling ?? 0);
}

/** Counts a failed sign-in against both locks. */
export async function recordSignInFailure(
  db: Kysely<Schema>,
  keys: ReturnType<typeof signInKeys>,
  now: Date,
): Promise<void> {
  await recordEvent(db, keys.fromAddress, now);
  await recordEvent(db, keys.account, now);
}
