import { randomUUID } from "node:crypto";
import { type AbilityRef, abilities } from "@varia/contracts";
import { beforeAll, expect, it } from "vitest";
import { createApiToken } from "../src/auth/api-tokens";
import { getServerSecret } from "../src/auth/server-secret";
import { createSession } from "../src/auth/sessions";
import { issueXsrfToken } from "../src/auth/xsrf";
import { Browser, describeWithServer } from "./harness";

/**
 * Nobody hands out or acts beyond what they hold, whether they call with a session or an API
 * token: a token's scope counts, not its user's admin flag.
 */
describeWithServer("what a caller may grant and act on", (ctx) => {
  const tenant = "reach";
  let org: Awaited<ReturnType<ReturnType<typeof ctx>["createOrganisation"]>>;
  let xsrfKey: string;

  beforeAll(async () => {
    org = await ctx().createOrganisation(tenant);
    xsrfKey = await getServerSecret(ctx().database.db, "xsrf");
  });

  const db = () => ctx().database.db;
  let counter = 0;
  const email = (name: string) => `${name}-${++counter}@${tenant}.example.com`;

  /** An API token of the organisation's admin, scoped to `scope`. */
  async function adminToken(scope: AbilityRef[]) {
    const created = await createApiToken(db(), {
      organisationId: org.organisationId,
      userId: org.userId,
      name: `t${++counter}`,
      abilities: scope,
    });
    const browser = new Browser(ctx().tenantUrl(tenant));
    return (method: string, path: string, body?: unknown) =>
      browser.request(method, path, body, { authorization: `Bearer ${created.token}` });
  }

  async function role(grants: AbilityRef[]) {
    const id = randomUUID();
    await db()
      .insertInto("roles")
      .values({ organisation_id: org.organisationId, id, name: `role ${++counter}` })
      .execute();
    if (grants.length)
      await db()
        .insertInto("role_abilities")
        .values(
          grants.map((a) => ({
            organisation_id: org.organisationId,
            role_id: id,
            module_system_name: a.moduleSystemName,
            feature_system_name: a.featureSystemName,
            ability_system_name: a.abilitySystemName,
          })),
        )
        .execute();
    return id;
  }

  async function user(grants: AbilityRef[] = [], isAdmin = false) {
    const id = randomUUID();
    const address = email("user");
    await db()
      .insertInto("users")
      .values({
        organisation_id: org.organisationId,
        id,
        email: address,
        name: "Someone",
        password_hash: null,
        is_admin: isAdmin,
        mfa_secret: null,
        disabled_at: null,
      })
      .execute();
    if (grants.length)
      await db()
        .insertInto("user_roles")
        .values({ organisation_id: org.organisationId, user_id: id, role_id: await role(grants) })
        .execute();
    return { id, email: address };
  }

  /** A signed-in session of a user, with its XSRF token on every call. */
  async function sessionOf(userId: string) {
    const id = await createSession(db(), {
      organisationId: org.organisationId,
      userId,
      loginMethod: "Password",
      stayLoggedIn: false,
    });
    const xsrf = issueXsrfToken(xsrfKey, id);
    const browser = new Browser(ctx().tenantUrl(tenant));
    return (method: string, path: string, body?: unknown) =>
      browser.request(method, path, body, {
        cookie: `varia_session=${id}; XSRF-TOKEN=${xsrf}`,
        "x-xsrf-token": xsrf,
      });
  }

  const userRow = (address: string) =>
    db().selectFrom("users").select(["id", "is_admin"]).where("email", "=", address).executeTakeFirst();

  it("an admin's token holding only Users/Manage makes no admin and takes over nobody", async () => {
    const call = await adminToken([abilities.settingsUsersManage]);
    // The issue's escape: an admin with an address the token's holder controls.
    const attacker = email("attacker");
    const admin = await call("POST", "/api/variance/UserManagement/CreateUser", {
      name: "Attacker",
      email: attacker,
      userIsAdmin: true,
    });
    expect(admin.status).toBe(403);
    expect(admin.json.message).toBe("Only an admin can make an admin");
    expect(await userRow(attacker)).toBeUndefined();
    // Nor a user with a role granting what the token lacks.
    const viewer = await role([abilities.varianceDashboardView]);
    const withRole = await call("POST", "/api/variance/UserManagement/CreateUser", {
      name: "Viewer",
      email: email("viewer"),
      roleIDs: [viewer],
    });
    expect(withRole.status).toBe(403);
    expect(withRole.json.errors).toEqual([
      { field: "roleIDs", message: "Not held: Variance/Dashboard/View" },
    ]);
    // A plain user is within its reach.
    const plain = email("plain");
    expect(
      (await call("POST", "/api/variance/UserManagement/CreateUser", { name: "Plain", email: plain })).status,
    ).toBe(200);
    const plainId = (await userRow(plain))!.id;
    const promote = await call("POST", "/api/variance/UserManagement/UpdateDetail", {
      userID: plainId,
      name: "Plain",
      email: plain,
      userIsAdmin: true,
    });
    expect(promote.status).toBe(403);
    expect((await userRow(plain))!.is_admin).toBe(false);

    // Users who hold more than the token, the admin included, are out of its reach: changing their
    // e-mail and mailing a password link would hand the account to the token's holder.
    const manager = await user([abilities.settingsRolesManage]);
    for (const target of [{ id: org.userId, email: org.email }, manager]) {
      const takeover = await call("POST", "/api/variance/UserManagement/UpdateDetail", {
        userID: target.id,
        name: "Mine now",
        email: email("mine"),
        userIsAdmin: target.id === org.userId,
      });
      expect(takeover.status, target.email).toBe(403);
      const link = await call("POST", `/api/variance/UserManagement/SendPasswordLink?userID=${target.id}`);
      expect(link.status).toBe(403);
      const mfa = await call("POST", "/api/Admin/ResetMultiFactorAuthentication", { userID: target.id });
      // The admin is the token's own user: one's own MFA is reset only from the profile.
      expect(mfa.status).toBe(target.id === org.userId ? 400 : 403);
      const removed = await call("POST", `/api/variance/UserManagement/DeleteUser?userID=${target.id}`);
      // The admin is the token's own user: nobody deletes themselves.
      expect(removed.status).toBe(target.id === org.userId ? 400 : 403);
    }
    const kept = await db()
      .selectFrom("users")
      .select("email")
      .where("id", "in", [org.userId, manager.id])
      .orderBy("email")
      .execute();
    expect(kept.map((u) => u.email).sort()).toEqual([org.email, manager.email].sort());
    // What the token may do, it says so: it is no admin.
    const ping = await call("GET", "/api/Account/PermissionPing");
    expect(ping.json).toEqual({
      success: true,
      userIsAdmin: false,
      userRoleAbilities: [abilities.settingsUsersManage],
    });
  });

  it("a session without admin acts only on users who hold no more than it does", async () => {
    const managerUser = await user([abilities.settingsUsersManage, abilities.varianceDashboardView]);
    const call = await sessionOf(managerUser.id);
    const peer = await user([abilities.varianceDashboardView]);
    const above = await user([abilities.varianceDashboardView, abilities.settingsBackupsManage]);
    const update = (target: { id: string }) =>
      call("POST", "/api/variance/UserManagement/UpdateDetail", {
        userID: target.id,
        name: "Renamed",
        email: email("renamed"),
      });
    expect((await update(peer)).status).toBe(200);
    const refused = await update(above);
    expect(refused.status).toBe(403);
    expect(refused.json.errors).toEqual([{ field: "userID", message: "Not held: Variance/Backups/Manage" }]);
    expect((await call("POST", `/api/variance/UserManagement/DeleteUser?userID=${above.id}`)).status).toBe(
      403,
    );
  });

  it("a token holding only Roles/Manage edits and deletes only roles within its scope", async () => {
    const call = await adminToken([abilities.settingsRolesManage]);
    const beyond = await call("POST", "/api/variance/Role/Edit", {
      roleInfo: { name: "Viewers" },
      activeToggles: [abilities.varianceDashboardView],
    });
    expect(beyond.status).toBe(403);
    const wider = await role([abilities.varianceDashboardView]);
    const rename = await call("POST", "/api/variance/Role/Edit", {
      roleID: wider,
      roleInfo: { name: "Taken over" },
      activeToggles: [],
      roleUserIDs: [org.userId],
    });
    expect(rename.status).toBe(403);
    expect((await call("POST", `/api/variance/Role/Delete?roleID=${wider}`)).status).toBe(403);
    const within = await call("POST", "/api/variance/Role/Edit", {
      roleInfo: { name: "Role managers" },
      activeToggles: [abilities.settingsRolesManage],
    });
    expect(within.status).toBe(200);
    const name = await db().selectFrom("roles").select("name").where("id", "=", wider).executeTakeFirst();
    expect(name?.name).not.toBe("Taken over");
  });

  it("a token mints tokens within its own scope only", async () => {
    const call = await adminToken([abilities.settingsTokensManage, abilities.varianceDashboardView]);
    const more = await call("POST", "/api/variance/token", {
      name: "more",
      abilities: [abilities.settingsRolesManage],
    });
    expect(more.status).toBe(403);
    const same = await call("POST", "/api/variance/token", { name: "same" });
    expect(same.status).toBe(200);
    expect(same.json.abilities).toEqual([abilities.varianceDashboardView, abilities.settingsTokensManage]);
  });

  it("restores a backup only for a caller acting as an admin", async () => {
    const missing = randomUUID();
    const scoped = await adminToken([abilities.settingsBackupsManage]);
    const refused = await scoped("POST", `/api/Backup/Restore?backupID=${missing}`);
    expect(refused.status).toBe(403);
    expect(refused.json.message).toBe("Only an admin can restore a backup.");
    const everything = await adminToken(Object.values(abilities));
    // Past the admin check: the backup does not exist.
    expect((await everything("POST", `/api/Backup/Restore?backupID=${missing}`)).status).toBe(404);
  });
});
