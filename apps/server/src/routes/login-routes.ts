import {
  adminResetMultiFactorAuthentication,
  globalLogin,
  type LoginResponse,
  login,
  logout,
  resetMultiFactorAuthentication,
} from "@varia/contracts";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { sql } from "kysely";
import { assertCanActOn } from "../auth/caller-reach";
import { verifyAgainstDummy, verifyPassword } from "../auth/passwords";
import { deleteSession, deleteUserSessions } from "../auth/sessions";
import {
  clearSessionCookies,
  lockedError,
  startSession,
  tenantSiteUrl,
  tooManyRequests,
} from "../auth/sign-in";
import {
  clientAddressKey,
  lockedForSeconds,
  recordEvent,
  recordSignInFailure,
  signInKeys,
  signInLockedFor,
  takeRateLimit,
} from "../auth/throttle";
import { generateTotpSecret, otpauthUri, verifyTotp } from "../auth/totp";
import { AppError } from "../errors";
import type { Organisation, User } from "../http/auth-context";
import { findOrganisationByTenant, requestTenant } from "../http/auth-context";
import { registerContract } from "../http/contract-route";
import type { AppDeps } from "../http/deps";

const invalidLogin = () =>
  new AppError("Unauthorized", "Unable to login. Either email or password is incorrect");
const incorrectCode = () => new AppError("Unauthorized", "Incorrect code, please try again");

type MfaStep = "none" | "verify" | "enrolRequired" | "enrolOptional";

const resetOwnMfaElsewhere =
  "Reset your own multi-factor authentication from your profile: it asks for your password and a code.";

/** What the sign-in asks after the password: a code, an enrolment (required or optional), or nothing. */
export function mfaStep(organisation: Organisation, user: User): MfaStep {
  if (user.mfa_enabled) return "verify";
  if (organisation.mfa_setting === "required") return "enrolRequired";
  if (organisation.mfa_setting === "optional" && !user.mfa_skipped_at) return "enrolOptional";
  return "none";
}

const fifteenMinutes = 15 * 60_000;

/** Per-address limit of the public sign-in, reset and demo calls (on top of the per-account lockout). */
export async function limitByAddress(deps: AppDeps, request: FastifyRequest, bucket: string) {
  const wait = await takeRateLimit(
    deps.db,
    `ip:${bucket}:${clientAddressKey(request.ip)}`,
    { limit: deps.config.authRateLimitPerIp, windowMs: fifteenMinutes },
    deps.now(),
  );
  if (wait) throw tooManyRequests(wait);
}

/**
 * Checks a TOTP code of a user (the enabled secret, or the one being enrolled), throttled like the
 * password, and accepted once: the step is recorded with a conditional update.
 */
export async function checkTotpCode(deps: AppDeps, user: User, code: string): Promise<boolean> {
  const { db } = deps;
  const now = deps.now();
  const key = `mfa:${user.organisation_id}:${user.id}`;
  const locked = await lockedForSeconds(db, key, now);
  if (locked) throw lockedError(locked);
  const lastStep = user.mfa_last_step === null ? null : Number(user.mfa_last_step);
  const step = user.mfa_secret ? verifyTotp(user.mfa_secret, code, now, lastStep) : null;
  if (step !== null) {
    const updated = await db
      .updateTable("users")
      .set({ mfa_last_step: step })
      .where("organisation_id", "=", user.organisation_id)
      .where("id", "=", user.id)
      .where((eb) => eb.or([eb("mfa_last_step", "is", null), eb("mfa_last_step", "<", String(step))]))
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) === 1) return true;
  }
  await recordEvent(db, key, now);
  return false;
}

/**
 * Checks the signed-in user's current password before a change to their own account (a new
 * password, an MFA reset), throttled like a sign-in: 10 failures in 15 minutes lock the check for
 * 15 minutes (docs/security.md, "Lockout"), so a borrowed session cannot guess the password.
 */
export async function checkCurrentPassword(deps: AppDeps, user: User, password: string): Promise<boolean> {
  const now = deps.now();
  const key = `password:${user.organisation_id}:${user.id}`;
  const locked = await lockedForSeconds(deps.db, key, now);
  if (locked) throw lockedError(locked);
  if (user.password_hash && (await verifyPassword(password, user.password_hash))) return true;
  await recordEvent(deps.db, key, now);
  return false;
}

export async function loginRoutes(app: FastifyInstance, deps: AppDeps) {
  const { db } = deps;

  registerContract(app, deps, login, async ({ body, auth, request, reply }): Promise<LoginResponse> => {
    await limitByAddress(deps, request, "login");
    const now = deps.now();
    const { tenant } = requestTenant(request, deps.config.defaultTenant);
    // The lock is per e-mail typed, whether or not an account has it: the answer tells nothing.
    const keys = signInKeys(body.email, request.ip);
    const locked = await signInLockedFor(db, keys, now);
    if (locked) throw lockedError(locked);
    const organisation = await findOrganisationByTenant(db, tenant);
    const user = organisation
      ? await db
          .selectFrom("users")
          .selectAll()
          .where("organisation_id", "=", organisation.id)
          .where(sql`lower(email)`, "=", body.email.toLowerCase())
          .where("disabled_at", "is", null)
          .executeTakeFirst()
      : undefined;
    const ok = user?.password_hash
      ? await verifyPassword(body.password, user.password_hash)
      : await verifyAgainstDummy(body.password);
    if (!ok || !user || !organisation) {
      await recordSignInFailure(db, keys, now);
      throw invalidLogin();
    }

    const step = mfaStep(organisation, user);
    if (step !== "none") {
      const answer = body.actionsCompleted.includes("AuthenticateMultiFactor")
        ? body.authenticateMultiFactor
        : undefined;
      if (!answer?.totpCode && !answer?.skip) {
        // The password step alone signs nobody in: no session exists until the code is checked.
        if (step === "verify")
          return {
            requiredActions: ["AuthenticateMultiFactor"],
            authenticateMultiFactor: { optional: false },
          };
        const secret = generateTotpSecret();
        await db
          .updateTable("users")
          .set({ mfa_secret: secret, mfa_enabled: false })
          .where("organisation_id", "=", user.organisation_id)
          .where("id", "=", user.id)
          .execute();
        return {
          requiredActions: ["AuthenticateMultiFactor"],
          authenticateMultiFactor: {
            optional: step === "enrolOptional",
            totpSecret: secret,
            totpUri: otpauthUri(`Varia (${organisation.name})`, user.email, secret),
          },
        };
      }
      if (answer.totpCode) {
        if (!(await checkTotpCode(deps, user, answer.totpCode))) throw incorrectCode();
        if (!user.mfa_enabled)
          await db
            .updateTable("users")
            .set({ mfa_enabled: true, mfa_skipped_at: null })
            .where("organisation_id", "=", user.organisation_id)
            .where("id", "=", user.id)
            .execute();
      } else {
        if (step !== "enrolOptional")
          throw new AppError("BadRequest", "Multi-factor authentication is required", [
            { field: "authenticateMultiFactor", message: "Multi-factor authentication is required" },
          ]);
        await db
          .updateTable("users")
          .set({ mfa_skipped_at: now, mfa_secret: null })
          .where("organisation_id", "=", user.organisation_id)
          .where("id", "=", user.id)
          .execute();
      }
    }

    await startSession(deps, reply, {
      organisationId: organisation.id,
      userId: user.id,
      method: "Password",
      stayLoggedIn: body.stayLoggedIn,
      previousSessionId: auth?.sessionId,
    });
    request.log.info({ organisation: organisation.tenant, user: user.id }, "signed in");
    return { requiredActions: [] };
  });

  registerContract(app, deps, globalLogin, async ({ body, request }) => {
    await limitByAddress(deps, request, "login");
    const now = deps.now();
    // The same counters as `login`: guessing here counts there, and a lock there holds here.
    const keys = signInKeys(body.email, request.ip);
    const locked = await signInLockedFor(db, keys, now);
    if (locked) throw lockedError(locked);
    const candidates = await db
      .selectFrom("users")
      .innerJoin("organisations", "organisations.id", "users.organisation_id")
      .select(["users.password_hash", "organisations.tenant", "organisations.name"])
      .where(sql`lower(users.email)`, "=", body.email.toLowerCase())
      .where("users.disabled_at", "is", null)
      .where("users.password_hash", "is not", null)
      .orderBy("organisations.name")
      .limit(20)
      .execute();
    const organisations: { tenant: string; organisationName: string; url: string }[] = [];
    for (const candidate of candidates) {
      if (await verifyPassword(body.password, candidate.password_hash!))
        organisations.push({
          tenant: candidate.tenant,
          organisationName: candidate.name,
          url: tenantSiteUrl(deps.config, candidate.tenant),
        });
    }
    if (candidates.length === 0) await verifyAgainstDummy(body.password);
    if (organisations.length === 0) {
      await recordSignInFailure(db, keys, now);
      throw invalidLogin();
    }
    return { organisations };
  });

  registerContract(app, deps, logout, async ({ auth, reply }) => {
    if (auth?.sessionId) await deleteSession(db, auth.sessionId);
    clearSessionCookies(deps, reply);
  });

  registerContract(app, deps, resetMultiFactorAuthentication, async ({ auth, body }) => {
    const { user } = auth!;
    if (!user.mfa_enabled)
      throw new AppError("BadRequest", "Multi-factor authentication is not enabled", [
        { field: "totpCode", message: "Multi-factor authentication is not enabled" },
      ]);
    const passwordOk = await checkCurrentPassword(deps, user, body.password);
    const codeOk = passwordOk && (await checkTotpCode(deps, user, body.totpCode));
    if (!passwordOk || !codeOk)
      throw new AppError("BadRequest", "The password or the code is incorrect", [
        { field: passwordOk ? "totpCode" : "password", message: "The password or the code is incorrect" },
      ]);
    await db
      .updateTable("users")
      .set({ mfa_enabled: false, mfa_secret: null, mfa_last_step: null, mfa_skipped_at: null })
      .where("organisation_id", "=", user.organisation_id)
      .where("id", "=", user.id)
      .execute();
    await deleteUserSessions(db, user.organisation_id, user.id, auth!.sessionId);
  });

  registerContract(app, deps, adminResetMultiFactorAuthentication, async ({ auth, body }) => {
    // One's own MFA is reset from the profile, which asks for the password and a code (throttled):
    // a borrowed signed-in browser must not turn it off (docs/security.md, "Multi-factor authentication").
    if (body.userID === auth!.user.id) throw new AppError("BadRequest", resetOwnMfaElsewhere);
    const target = await db
      .selectFrom("users")
      .select(["organisation_id", "id", "is_admin"])
      .where("organisation_id", "=", auth!.organisation.id)
      .where("id", "=", body.userID)
      .executeTakeFirst();
    if (!target) throw new AppError("NotFound", "No such user");
    await assertCanActOn(db, auth!, target);
    await db
      .updateTable("users")
      .set({ mfa_enabled: false, mfa_secret: null, mfa_last_step: null, mfa_skipped_at: null })
      .where("organisation_id", "=", auth!.organisation.id)
      .where("id", "=", target.id)
      .execute();
    await deleteUserSessions(db, auth!.organisation.id, target.id);
  });
}
