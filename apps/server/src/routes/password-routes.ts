import { isTokenValid, resetPassword, resetPasswordInApp, resetPasswordRequest } from "@varia/contracts";
import type { FastifyInstance } from "fastify";
import { sql } from "kysely";
import { passwordProblem } from "../auth/password-policy";
import {
  consumePasswordToken,
  createPasswordToken,
  findPasswordToken,
  type PasswordTokenKind,
} from "../auth/password-tokens";
import { hashPassword } from "../auth/passwords";
import { hashSecret } from "../auth/secret-tokens";
import { deleteUserSessions } from "../auth/sessions";
import { startSession, tenantSiteUrl } from "../auth/sign-in";
import { takeRateLimit } from "../auth/throttle";
import { AppError } from "../errors";
import { findOrganisationByTenant, type Organisation, requestTenant } from "../http/auth-context";
import { registerContract } from "../http/contract-route";
import type { AppDeps } from "../http/deps";
import { checkCurrentPassword, checkTotpCode, limitByAddress } from "./login-routes";

const invalidLink = () =>
  new AppError("BadRequest", "This link is invalid or has expired. Please request a new one.", [
    { field: "secretToken", message: "This link is invalid or has expired. Please request a new one." },
  ]);

function weakPassword(field: string, message: string) {
  return new AppError("BadRequest", message, [{ field, message }]);
}

/**
 * Mails a reset (1 h) or set-password (72 h) link. The link's address comes from configuration,
 * never from the request's Host header.
 */
export async function sendPasswordLink(
  deps: AppDeps,
  organisation: Pick<Organisation, "id" | "tenant" | "name">,
  user: { id: string; email: string; name: string },
  kind: PasswordTokenKind,
): Promise<void> {
  const token = await createPasswordToken(
    deps.db,
    { organisationId: organisation.id, userId: user.id, kind },
    deps.now(),
  );
  const page = kind === "reset" ? "passwordReset" : "passwordSet";
  const link = `${tenantSiteUrl(deps.config, organisation.tenant)}/${page}/${token.id}/${token.secret}`;
  const text =
    kind === "reset"
      ? `Hello ${user.name},\n\nSomeone asked to reset the password of your Varia account at ${organisation.name}.\nTo choose a new password, open this link within the next hour:\n\n${link}\n\nIf it was not you, ignore this message: your password stays as it is.\n`
      : `Hello ${user.name},\n\nAn account was made for you at ${organisation.name} on Varia.\nTo choose your password, open this link within the next 72 hours:\n\n${link}\n`;
  await deps.mailer.send({
    to: user.email,
    subject: kind === "reset" ? "Reset your Varia password" : "Set your Varia password",
    text,
    kind: kind === "reset" ? "password-reset" : "password-set",
    userId: user.id,
  });
}

export async function passwordRoutes(app: FastifyInstance, deps: AppDeps) {
  const { db } = deps;

  registerContract(app, deps, resetPasswordRequest, async ({ body, request }) => {
    await limitByAddress(deps, request, "reset");
    const now = deps.now();
    const { tenant } = requestTenant(request, deps.config.defaultTenant);
    const organisation = await findOrganisationByTenant(db, tenant);
    // At most 3 links an hour per address typed; past that the answer is the same and nothing is sent.
    const quiet = await takeRateLimit(
      db,
      `reset:${tenant ?? ""}:${body.email.toLowerCase()}`,
      { limit: 3, windowMs: 3600_000 },
      now,
    );
    if (!organisation || quiet) return;
    const user = await db
      .selectFrom("users")
      .select(["id", "email", "name"])
      .where("organisation_id", "=", organisation.id)
      .where(sql`lower(email)`, "=", body.email.toLowerCase())
      .where("disabled_at", "is", null)
      .executeTakeFirst();
    if (!user) return;
    // Sent after answering, so that the time taken does not tell whether the account exists.
    void sendPasswordLink(deps, organisation, user, "reset").catch((error: unknown) =>
      request.log.error({ err: error }, "password reset mail failed"),
    );
  });

  async function tokenOf(request: Parameters<typeof requestTenant>[0], id: string, secret: string) {
    const organisation = await findOrganisationByTenant(
      db,
      requestTenant(request, deps.config.defaultTenant).tenant,
    );
    if (!organisation) return undefined;
    const token = await findPasswordToken(db, organisation.id, id, secret, deps.now());
    if (!token) return undefined;
    const user = await db
      .selectFrom("users")
      .select(["id", "email"])
      .where("organisation_id", "=", organisation.id)
      .where("id", "=", token.user_id)
      .executeTakeFirstOrThrow();
    return { organisation, token, user };
  }

  // A usable link answers its account's e-mail address, for the page's username field: whoever holds
  // the link can set the password and learn it anyway (docs/security.md, "Passwords").
  registerContract(app, deps, isTokenValid, async ({ query, request }) => {
    await limitByAddress(deps, request, "reset");
    const found = await tokenOf(request, query.tokenID, query.secretToken);
    return found ? { isValid: true, email: found.user.email } : { isValid: false };
  });

  registerContract(app, deps, resetPassword, async ({ body, request }) => {
    await limitByAddress(deps, request, "reset");
    const found = await tokenOf(request, body.tokenID, body.secretToken);
    if (!found) throw invalidLink();
    const { organisation, token, user } = found;
    const problem = passwordProblem(body.password, user.email);
    if (problem) throw weakPassword("password", problem);
    const hash = await hashPassword(body.password);
    if (!(await consumePasswordToken(db, organisation.id, token.id, deps.now()))) throw invalidLink();
    await db
      .updateTable("users")
      .set({ password_hash: hash })
      .where("organisation_id", "=", organisation.id)
      .where("id", "=", user.id)
      .execute();
    await deleteUserSessions(db, organisation.id, user.id);
    request.log.info({ organisation: organisation.tenant, user: user.id, kind: token.kind }, "password set");
    // Only now, to the holder of a link that has just worked: the sign-in form is filled with it.
    return { email: user.email };
  });

  registerContract(app, deps, resetPasswordInApp, async ({ auth, body, reply, request }) => {
    const { organisation, user } = auth!;
    if (!(await checkCurrentPassword(deps, user, body.oldPassword)))
      throw weakPassword("oldPassword", "The current password is incorrect");
    if (user.mfa_enabled) {
      if (!body.totpCode) throw weakPassword("totpCode", "Enter the code from your authenticator app");
      if (!(await checkTotpCode(deps, user, body.totpCode)))
        throw weakPassword("totpCode", "Incorrect code, please try again");
    }
    const problem = passwordProblem(body.newPassword, user.email);
    if (problem) throw weakPassword("newPassword", problem);
    await db
      .updateTable("users")
      .set({ password_hash: await hashPassword(body.newPassword) })
      .where("organisation_id", "=", organisation.id)
      .where("id", "=", user.id)
      .execute();
    // Every other session ends; this one continues under a new id, as long-lived as it was.
    const current = auth!.sessionId
      ? await db
          .selectFrom("sessions")
          .select(["stay_logged_in", "host_tenant"])
          .where("id_hash", "=", hashSecret(auth!.sessionId))
          .executeTakeFirst()
      : undefined;
    await deleteUserSessions(db, organisation.id, user.id);
    if (current)
      await startSession(deps, reply, {
        organisationId: organisation.id,
        userId: user.id,
        method: auth!.method,
        stayLoggedIn: current.stay_logged_in,
        hostTenant: current.host_tenant,
      });
    request.log.info({ organisation: organisation.tenant, user: user.id }, "password changed");
  });
}
