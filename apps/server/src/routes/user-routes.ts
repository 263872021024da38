import { randomUUID } from "node:crypto";
import {
  createUser,
  deleteUser,
  getUserDetail,
  getUserList,
  sendPasswordLink as sendPasswordLinkContract,
  type UserSummary,
  updateUserDetail,
  updateUserProfile,
  userPasswordStatus,
} from "@varia/contracts";
import type { FastifyInstance } from "fastify";
import type { Kysely } from "kysely";
import { sql } from "kysely";
import { assertCanActOn, assertCanGrant, assertCanMakeAdmin } from "../auth/caller-reach";
import { endPasswordTokens } from "../auth/password-tokens";
import { deleteUserSessions } from "../auth/sessions";
import type { Schema } from "../db/schema";
import { AppError } from "../errors";
import type { AuthContext } from "../http/auth-context";
import { registerContract } from "../http/contract-route";
import type { AppDeps } from "../http/deps";
import { sendPasswordLink } from "./password-routes";

async function rolesOf(db: Kysely<Schema>, organisationId: string) {
  const rows = await db
    .selectFrom("user_roles")
    .select(["user_id", "role_id"])
    .where("organisation_id", "=", organisationId)
    .execute();
  const byUser = new Map<string, string[]>();
  for (const row of rows) byUser.set(row.user_id, [...(byUser.get(row.user_id) ?? []), row.role_id]);
  return byUser;
}

const disabledNoLink = "This user is disabled and cannot sign in: enable them, then send a link.";

/** UserManagement (docs/api.md, "The calls by area"): list, detail, create, update, delete, password links. */
export async function userRoutes(app: FastifyInstance, deps: AppDeps) {
  const { db } = deps;

  async function summaries(organisationId: string, userId?: string): Promise<UserSummary[]> {
    let query = db
      .selectFrom("users")
      .select(["id", "name", "email", "is_admin", "mfa_enabled", "disabled_at"])
      .where("organisation_id", "=", organisationId)
      .orderBy("name");
    if (userId) query = query.where("id", "=", userId);
    const [users, roles] = await Promise.all([query.execute(), rolesOf(db, organisationId)]);
    return users.map((u) => ({
      userID: u.id,
      name: u.name,
      email: u.email,
      userIsAdmin: u.is_admin,
      roleIDs: roles.get(u.id) ?? [],
      multiFactorAuthenticationStatus: u.mfa_enabled ? "enabled" : "disabled",
      disabled: u.disabled_at !== null,
    }));
  }

  async function targetUser(auth: AuthContext, userId: string) {
    const user = await db
      .selectFrom("users")
      .selectAll()
      .where("organisation_id", "=", auth.organisation.id)
      .where("id", "=", userId)
      .executeTakeFirst();
    if (!user) throw new AppError("NotFound", "No such user");
    await assertCanActOn(db, auth, user);
    return user;
  }

  /**
   * Roles given to a user must exist and grant nothing the caller lacks; only a caller acting as an
   * admin makes an admin (see auth/caller-reach.ts: a token counts by its scope, not its user's flag).
   */
  async function checkAssignment(auth: AuthContext, roleIds: readonly string[], makeAdmin: boolean) {
    if (makeAdmin) assertCanMakeAdmin(auth);
    if (roleIds.length === 0) return;
    const roles = await db
      .selectFrom("roles")
      .select("id")
      .where("organisation_id", "=", auth.organisation.id)
      .where("id", "in", [...roleIds])
      .execute();
    if (roles.length !== new Set(roleIds).size)
      throw new AppError("BadRequest", "Unknown role", [{ field: "roleIDs", message: "Unknown role" }]);
    const granted = await db
      .selectFrom("role_abilities")
      .select([
        "module_system_name as moduleSystemName",
        "feature_system_name as featureSystemName",
        "ability_system_name as abilitySystemName",
      ])
      .where("organisation_id", "=", auth.organisation.id)
      .where("role_id", "in", [...roleIds])
      .execute();
    assertCanGrant(auth, granted, "roleIDs", "You cannot give a role with an ability you do not hold");
  }

  async function setRoles(tx: Kysely<Schema>, organisationId: string, userId: string, roleIds: string[]) {
    await tx
      .deleteFrom("user_roles")
      .where("organisation_id", "=", organisationId)
      .where("user_id", "=", userId)
      .execute();
    const unique = [...new Set(roleIds)];
    if (unique.length)
      await tx
        .insertInto("user_roles")
        .values(
          unique.map((roleId) => ({ organisation_id: organisationId, user_id: userId, role_id: roleId })),
        )
        .execute();
  }

  async function emailTaken(organisationId: string, email: string, exceptUserId?: string) {
    let query = db
      .selectFrom("users")
      .select("id")
      .where("organisation_id", "=", organisationId)
      .where(sql`lower(email)`, "=", email.toLowerCase());
    if (exceptUserId) query = query.where("id", "<>", exceptUserId);
    return (await query.executeTakeFirst()) !== undefined;
  }

  const emailInUse = () =>
    new AppError("Conflict", "A user with this e-mail exists", [
      { field: "email", message: "A user with this e-mail exists" },
    ]);

  registerContract(app, deps, getUserList, ({ auth }) => summaries(auth!.organisation.id));

  registerContract(app, deps, getUserDetail, async ({ auth, query }) => {
    const [user] = await summaries(auth!.organisation.id, query.userID);
    if (!user) throw new AppError("NotFound", "No such user");
    // The screen offers no change the server would refuse (docs/settings.md, "Users, roles and tokens").
    let changeRefusal: string | null = null;
    try {
      await assertCanActOn(db, auth!, {
        organisation_id: auth!.organisation.id,
        id: user.userID,
        is_admin: user.userIsAdmin,
      });
    } catch (refusal) {
      if (!(refusal instanceof AppError)) throw refusal;
      const details = (refusal.errors ?? []).map((e) => e.message).join("; ");
      changeRefusal = details ? `${refusal.message} (${details}).` : `${refusal.message}.`;
    }
    return { ...user, changeRefusal };
  });

  registerContract(app, deps, userPasswordStatus, async ({ auth, query }) => {
    const user = await db
      .selectFrom("users")
      .select(["id", "password_hash"])
      .where("organisation_id", "=", auth!.organisation.id)
      .where("id", "=", query.userID)
      .executeTakeFirst();
    if (!user) throw new AppError("NotFound", "No such user");
    const pending = await db
      .selectFrom("password_tokens")
      .select("id")
      .where("organisation_id", "=", auth!.organisation.id)
      .where("user_id", "=", user.id)
      .where("kind", "=", "set")
      .where("used_at", "is", null)
      .where("expires_at", ">", deps.now())
      .executeTakeFirst();
    return { hasPassword: user.password_hash !== null, passwordLinkPending: pending !== undefined };
  });

  registerContract(app, deps, sendPasswordLinkContract, async ({ auth, query }) => {
    const user = await targetUser(auth!, query.userID);
    // A disabled user cannot sign in, so a link would only invite them to set a password they cannot
    // use (docs/settings.md, "Users, roles and tokens").
    if (user.disabled_at) throw new AppError("BadRequest", disabledNoLink);
    await sendPasswordLink(deps, auth!.organisation, user, "set");
  });

  registerContract(app, deps, createUser, async ({ auth, body, request }) => {
    const organisationId = auth!.organisation.id;
    await checkAssignment(auth!, body.roleIDs, body.userIsAdmin);
    if (await emailTaken(organisationId, body.email)) throw emailInUse();
    const userId = randomUUID();
    await db.transaction().execute(async (tx) => {
      await tx
        .insertInto("users")
        .values({
          organisation_id: organisationId,
          id: userId,
          email: body.email,
          name: body.name,
          password_hash: null,
          is_admin: body.userIsAdmin,
          mfa_secret: null,
          disabled_at: null,
        })
        .execute();
      await setRoles(tx, organisationId, userId, body.roleIDs);
    });
    await sendPasswordLink(
      deps,
      auth!.organisation,
      { id: userId, email: body.email, name: body.name },
      "set",
    );
    request.log.info({ user: userId, by: auth!.user.id }, "user created");
    return { userID: userId };
  });

  registerContract(app, deps, updateUserDetail, async ({ auth, body }) => {
    const organisationId = auth!.organisation.id;
    const user = await targetUser(auth!, body.userID);
    if (user.id === auth!.user.id && (body.disabled || (user.is_admin && !body.userIsAdmin)))
      throw new AppError("BadRequest", "You cannot disable yourself or remove your own admin flag");
    await checkAssignment(auth!, body.roleIDs, body.userIsAdmin && !user.is_admin);
    if (await emailTaken(organisationId, body.email, user.id)) throw emailInUse();
    await db.transaction().execute(async (tx) => {
      await tx
        .updateTable("users")
        .set({
          name: body.name,
          email: body.email,
          is_admin: body.userIsAdmin,
          disabled_at: body.disabled ? (user.disabled_at ?? deps.now()) : null,
        })
        .where("organisation_id", "=", organisationId)
        .where("id", "=", user.id)
        .execute();
      await setRoles(tx, organisationId, user.id, body.roleIDs);
    });
    // Disabling, or a change of privileges, ends the user's sessions.
    if (body.disabled || body.userIsAdmin !== user.is_admin)
      await deleteUserSessions(db, organisationId, user.id);
    // Disabling, or a new address, ends the links already mailed: the old mailbox may not be theirs.
    if (body.disabled || body.email.toLowerCase() !== user.email.toLowerCase())
      await endPasswordTokens(db, organisationId, user.id, deps.now());
  });

  registerContract(app, deps, updateUserProfile, async ({ auth, body }) => {
    await db
      .updateTable("users")
      .set({ name: body.name })
      .where("organisation_id", "=", auth!.organisation.id)
      .where("id", "=", auth!.user.id)
      .execute();
  });

  registerContract(app, deps, deleteUser, async ({ auth, query }) => {
    if (query.userID === auth!.user.id) throw new AppError("BadRequest", "You cannot delete yourself");
    const user = await targetUser(auth!, query.userID);
    await db
      .deleteFrom("users")
      .where("organisation_id", "=", auth!.organisation.id)
      .where("id", "=", user.id)
      .execute();
  });
}
