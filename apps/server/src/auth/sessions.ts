import type { Kysely } from "kysely";
import type { Schema } from "../db/schema";
import { hashSecret, randomSecret } from "./secret-tokens";

/** Idle expiry: 12 hours, or 30 days with "Stay logged in" (docs/security.md, "Sessions"). */
export const sessionIdleMs = { normal: 12 * 3600_000, stayLoggedIn: 30 * 24 * 3600_000 } as const;

/** However often it is used, a session ends this long after its sign-in: 7 days, or 90 with "Stay logged in". */
export const sessionLifetimeMs = { normal: 7 * 24 * 3600_000, stayLoggedIn: 90 * 24 * 3600_000 } as const;

/** A session's expiry after a use at `now`: its idle time on, but never past its lifetime from `created`. */
function expiryAfterUse(stayLoggedIn: boolean, created: Date, now: Date): Date {
  const idle = stayLoggedIn ? sessionIdleMs.stayLoggedIn : sessionIdleMs.normal;
  const lifetime = stayLoggedIn ? sessionLifetimeMs.stayLoggedIn : sessionLifetimeMs.normal;
  return new Date(Math.min(now.getTime() + idle, created.getTime() + lifetime));
}

export interface NewSession {
  organisationId: string;
  userId: string;
  loginMethod: string;
  stayLoggedIn: boolean;
  /** The tenant whose host the session is used on, when not its organisation's (demo copies). */
  hostTenant?: string | null;
}

/** Creates a session and returns its id; only the id's hash is stored. */
export async function createSession(
  db: Kysely<Schema>,
  session: NewSession,
  now = new Date(),
): Promise<string> {
  const id = randomSecret(32);
  await db
    .insertInto("sessions")
    .values({
      id_hash: hashSecret(id),
      organisation_id: session.organisationId,
      user_id: session.userId,
      login_method: session.loginMethod,
      stay_logged_in: session.stayLoggedIn,
      host_tenant: session.hostTenant ?? null,
      created_at: now,
      last_seen_at: now,
      expires_at: expiryAfterUse(session.stayLoggedIn, now, now),
    })
    .execute();
  return id;
}

export interface SessionRow {
  organisationId: string;
  userId: string;
  loginMethod: string;
  hostTenant: string | null;
}

/** Finds a live session by id and slides its idle expiry up to its lifetime; an expired one is deleted. */
export async function touchSession(
  db: Kysely<Schema>,
  id: string,
  now = new Date(),
): Promise<SessionRow | null> {
  const idHash = hashSecret(id);
  const row = await db.selectFrom("sessions").selectAll().where("id_hash", "=", idHash).executeTakeFirst();
  if (!row) return null;
  if (new Date(row.expires_at).getTime() <= now.getTime()) {
    await db.deleteFrom("sessions").where("id_hash", "=", idHash).execute();
    return null;
  }
  // Write at most once a minute: a busy dashboard makes many calls.
  if (now.getTime() - new Date(row.last_seen_at).getTime() > 60_000) {
    await db
      .updateTable("sessions")
      .set({
        last_seen_at: now,
        expires_at: expiryAfterUse(row.stay_logged_in, new Date(row.created_at), now),
      })
      .where("id_hash", "=", idHash)
      .execute();
  }
  return {
    organisationId: row.organisation_id,
    userId: row.user_id,
    loginMethod: row.login_method,
    hostTenant: row.host_tenant,
  };
}

export async function deleteSession(db: Kysely<Schema>, id: string): Promise<void> {
  await db.deleteFrom("sessions").where("id_hash", "=", hashSecret(id)).execute();
}

/** Ends every session of a user (password change, MFA reset, disabling), except `keepId`'s. */
export async function deleteUserSessions(
  db: Kysely<Schema>,
  organisationId: string,
  userId: string,
  keepId?: string,
): Promise<void> {
  let query = db
    .deleteFrom("sessions")
    .where("organisation_id", "=", organisationId)
    .where("user_id", "=", userId);
  if (keepId) query = query.where("id_hash", "<>", hashSecret(keepId));
  await query.execute();
}
