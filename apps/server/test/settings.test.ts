import { type AbilityModule, abilities } from "@varia/contracts";
import { afterAll, beforeAll, expect, it } from "vitest";
import { Browser, describeWithServer, TestClock } from "./harness";
import { MailReceiver } from "./mail-receiver";

const clock = new TestClock();
const mail = new MailReceiver();
beforeAll(() => mail.start());
afterAll(() => mail.close());

/** A signed-in browser with a helper for calls that need the XSRF header. */
async function signedIn(origin: string, email: string, password: string) {
  const browser = new Browser(origin);
  const login = await browser.request("POST", "/api/login", { email, password });
  expect(login.json).toEqual({ requiredActions: [] });
  const call = (method: string, path: string, body?: unknown) =>
    browser.request(method, path, body, { "x-xsrf-token": browser.cookie("XSRF-TOKEN") ?? "" });
  return { browser, call };
}

describeWithServer(
  "settings: API tokens, roles and users",
  (ctx) => {
    /** Creates a user through the API and sets their password through the mailed link. */
    async function newUser(
      call: (m: string, p: string, b?: unknown) => ReturnType<Browser["request"]>,
      tenant: string,
      email: string,
      roleIDs: string[] = [],
    ) {
      const created = await call("POST", "/api/variance/UserManagement/CreateUser", {
        name: email.split("@")[0],
        email,
        roleIDs,
      });
      expect(created.status).toBe(200);
      const link = /passwordSet\/([0-9a-f-]{36})\/([A-Za-z0-9_-]+)/.exec((await mail.waitFor(email)).text)!;
      const password = `password for ${email}`;
      const set = await new Browser(ctx().tenantUrl(tenant)).request(
        "POST",
        "/api/ResetPassword/ResetPassword",
        {
          tokenID: link[1],
          secretToken: link[2],
          password,
        },
      );
      expect(set.status).toBe(200);
      return { userID: created.json.userID as string, password };
    }

    it("creates named, scoped tokens shown once, records their use, and revokes them", async () => {
      const org = await ctx().createOrganisation("tok");
      const { call } = await signedIn(ctx().tenantUrl("tok"), org.email, org.password);
      const created = await call("POST", "/api/variance/token", {
        name: "ci smoke",
        abilities: [abilities.varianceDashboardView],
      });
      expect(created.status).toBe(200);
      const token = created.json.token as string;
      expect(token).toMatch(/^varia_/);
      expect(created.json.abilities).toEqual([abilities.varianceDashboardView]);
      const list = await call("GET", "/api/variance/token");
      const listed = (list.json as unknown as Record<string, unknown>[]).find((t) => t.name === "ci smoke")!;
      expect(listed.token).toBeUndefined();
      expect(JSON.stringify(list.json)).not.toContain(token);
      expect(listed.lastUsedAt).toBeNull();

      const bearer = new Browser(ctx().tenantUrl("tok"));
      const auth = { authorization: `Bearer ${token}` };
      expect(
        (await bearer.request("GET", "/api/variance/VarianceOverview/ActualPeriods", undefined, auth)).status,
      ).toBe(200);
      // The scope holds even though the token's user is an admin.
      expect((await bearer.request("GET", "/api/variance/Role/GetRoleList", undefined, auth)).status).toBe(
        403,
      );
      expect((await bearer.request("GET", "/api/variance/token", undefined, auth)).status).toBe(403);
      const used = (await call("GET", "/api/variance/token")).json as unknown as Record<string, unknown>[];
      expect(used.find((t) => t.name === "ci smoke")!.lastUsedAt).toBe(clock.now().toISOString());

      // A token that manages tokens cannot mint one with more than it holds.
      const manager = (
        await call("POST", "/api/variance/token", {
          name: "manager",
          abilities: [abilities.settingsTokensManage],
        })
      ).json.token as string;
      const escalate = await bearer.request(
        "POST",
        "/api/variance/token",
        { name: "more", abilities: [abilities.settingsRolesManage] },
        { authorization: `Bearer ${manager}` },
      );
      expect(escalate.status).toBe(403);

      // A token made before scopes existed keeps its user's abilities.
      await ctx()
        .database.db.updateTable("api_tokens")
        .set({ scoped: false })
        .where("id", "=", created.json.tokenID as string)
        .execute();
      expect((await bearer.request("GET", "/api/variance/Role/GetRoleList", undefined, auth)).status).toBe(
        200,
      );

      const revoked = await call("DELETE", `/api/variance/token?tokenID=${created.json.tokenID}`);
      expect(revoked.status).toBe(200);
      expect((await bearer.request("GET", "/api/Account/AuthorisedPing", undefined, auth)).status).toBe(401);
    });

    it("grants abilities through roles; the menu and permission ping follow; nobody grants what they lack", async () => {
      const org = await ctx().createOrganisation("roles");
      const admin = await signedIn(ctx().tenantUrl("roles"), org.email, org.password);
      const available = await admin.call("GET", "/api/variance/Role/AvailableAbilities");
      // Grouped by module and feature, every ability of the catalogue once, in catalogue order.
      const groups = available.json as unknown as AbilityModule[];
      expect(groups.map((m) => [m.moduleSystemName, m.moduleId])).toEqual([
        ["Variance", 2],
        ["Integration", 3],
      ]);
      const variance = groups[0]!.features;
      expect(variance.find((f) => f.featureSystemName === "Roles")!.abilities).toEqual([
        abilities.settingsRolesManage,
      ]);
      expect(
        groups.flatMap((m) =>
          m.features.flatMap((f) =>
            f.abilities.map((a) => {
              expect([a.moduleSystemName, a.featureSystemName]).toEqual([
                m.moduleSystemName,
                f.featureSystemName,
              ]);
              return a;
            }),
          ),
        ),
      ).toEqual(Object.values(abilities));
      const role = await admin.call("POST", "/api/variance/Role/Edit", {
        roleInfo: { name: "Analysts", description: "See the dashboards, manage roles" },
        activeToggles: [abilities.varianceDashboardView, abilities.settingsRolesManage],
      });
      const roleID = role.json.roleID as string;
      const ann = await newUser(admin.call, "roles", "ann@roles.example.com", [roleID]);
      const analyst = await signedIn(ctx().tenantUrl("roles"), "ann@roles.example.com", ann.password);
      const permission = await analyst.call("GET", "/api/Account/PermissionPing");
      expect(permission.json).toEqual({
        success: true,
        userIsAdmin: false,
        userRoleAbilities: [abilities.varianceDashboardView, abilities.settingsRolesManage],
      });
      const menu = await analyst.call("GET", "/api/Account/GetAuthorisedMenu");
      expect((menu.json.items as { key: string }[]).map((i) => i.key)).toEqual(["dashboard", "roles"]);
      expect((await analyst.call("GET", "/api/variance/UserManagement/GetUserList")).status).toBe(403);
      // The roles screen's list: a roles manager may call the role lookup the user editor uses too.
      const listed = await analyst.call("POST", "/api/variance/Lookup/GetRoleList", {
        startRow: 1,
        rowLimit: 100,
      });
      expect(listed.json).toEqual({ rows: [{ roleID, name: "Analysts" }], totalRows: 1 });
      // Granting an ability the analyst lacks is refused, also by editing a role that holds one.
      const escalate = await analyst.call("POST", "/api/variance/Role/Edit", {
        roleID,
        roleInfo: { name: "Analysts" },
        activeToggles: [abilities.varianceDashboardView, abilities.settingsUsersManage],
      });
      expect(escalate.status).toBe(403);
      const detail = await admin.call("GET", `/api/variance/Role/GetRoleDetail?roleID=${roleID}`);
      expect(detail.json).toEqual({
        roleID,
        roleInfo: { name: "Analysts", description: "See the dashboards, manage roles" },
        roleUserIDs: [ann.userID],
        activeToggles: [abilities.varianceDashboardView, abilities.settingsRolesManage],
      });
      // An admin edits the existing role (this call used to hang the whole server on PGlite); the
      // analyst's next call sees it.
      const narrowed = await admin.call("POST", "/api/variance/Role/Edit", {
        roleID,
        roleInfo: { name: "Analysts", description: "See the dashboards, manage roles" },
        roleUserIDs: [ann.userID],
        activeToggles: [abilities.varianceDashboardView],
      });
      expect(narrowed.status).toBe(200);
      expect((await analyst.call("GET", "/api/Account/PermissionPing")).json.userRoleAbilities).toEqual([
        abilities.varianceDashboardView,
      ]);
      expect((await analyst.call("GET", "/api/variance/Role/GetRoleList")).status).toBe(403);
      // Integrations is in the menu of a user who may import, without managing connections.
      const importer = await admin.call("POST", "/api/variance/Role/Edit", {
        roleID,
        roleInfo: { name: "Analysts" },
        roleUserIDs: [ann.userID],
        activeToggles: [abilities.varianceDashboardView, abilities.importRun],
      });
      expect(importer.status).toBe(200);
      const importerMenu = await analyst.call("GET", "/api/Account/GetAuthorisedMenu");
      expect((importerMenu.json.items as { key: string }[]).map((i) => i.key)).toEqual([
        "dashboard",
        "integration",
      ]);
      const restored = await admin.call("POST", "/api/variance/Role/Edit", {
        roleID,
        roleInfo: { name: "Analysts", description: "See the dashboards, manage roles" },
        roleUserIDs: [ann.userID],
        activeToggles: [abilities.varianceDashboardView, abilities.settingsRolesManage],
      });
      expect(restored.status).toBe(200);
      const lookup = await admin.call("POST", "/api/variance/Lookup/GetRoleList", {
        filter: "ANALY",
        startRow: 1,
        rowLimit: 100,
      });
      expect(lookup.json).toEqual({ rows: [{ roleID, name: "Analysts" }], totalRows: 1 });
      const none = await admin.call("POST", "/api/variance/Lookup/GetRoleList", { filter: "nobody" });
      expect(none.json).toEqual({ rows: [], totalRows: 0 });
      const list = await admin.call("GET", "/api/variance/Role/GetRoleList");
      expect(list.json).toEqual([{ roleID, roleInfo: detail.json.roleInfo, userCount: 1 }]);
      expect((await admin.call("POST", `/api/variance/Role/Delete?roleID=${roleID}`)).status).toBe(200);
      const after = await analyst.call("GET", "/api/Account/PermissionPing");
      expect(after.json.userRoleAbilities).toEqual([]);
    });

    it("manages users: set-password links, admin flag only from admins, disabling ends sessions", async () => {
      const org = await ctx().createOrganisation("people");
      const admin = await signedIn(ctx().tenantUrl("people"), org.email, org.password);
      const role = await admin.call("POST", "/api/variance/Role/Edit", {
        roleInfo: { name: "User managers" },
        activeToggles: [abilities.settingsUsersManage],
      });
      const bob = await newUser(admin.call, "people", "bob@people.example.com", [role.json.roleID as string]);
      const status = await admin.call(
        "GET",
        `/api/variance/UserManagement/UserPasswordStatus?userID=${bob.userID}`,
      );
      expect(status.json).toEqual({ hasPassword: true, passwordLinkPending: false });
      const manager = await signedIn(ctx().tenantUrl("people"), "bob@people.example.com", bob.password);
      const makeAdmin = await manager.call("POST", "/api/variance/UserManagement/CreateUser", {
        name: "Eve",
        email: "eve@people.example.com",
        userIsAdmin: true,
      });
      expect(makeAdmin.status).toBe(403);
      const touchAdmin = await manager.call(
        "POST",
        `/api/variance/UserManagement/DeleteUser?userID=${org.userId}`,
      );
      expect(touchAdmin.status).toBe(403);
      // The detail says beforehand what the server refuses, so that the screen offers no change
      // that would fail: an admin is not Bob's to change, nor is a user holding more than he does.
      const detail = async (userID: string) =>
        (await manager.call("GET", `/api/variance/UserManagement/GetUserDetail?userID=${userID}`)).json
          .changeRefusal;
      expect(await detail(org.userId)).toBe("Only an admin can change an admin.");
      const viewers = await admin.call("POST", "/api/variance/Role/Edit", {
        roleInfo: { name: "Viewers" },
        activeToggles: [abilities.varianceDashboardView],
      });
      const viewer = await newUser(admin.call, "people", "val@people.example.com", [
        viewers.json.roleID as string,
      ]);
      expect(await detail(viewer.userID)).toBe(
        "You cannot change a user who holds abilities you do not hold (Not held: Variance/Dashboard/View).",
      );
      const viewerLink = await manager.call(
        "POST",
        `/api/variance/UserManagement/SendPasswordLink?userID=${viewer.userID}`,
      );
      expect(viewerLink.status).toBe(403);
      // Himself, and a user within his abilities, he may change.
      expect(await detail(bob.userID)).toBeNull();
      const plain = await newUser(admin.call, "people", "pat@people.example.com");
      expect(await detail(plain.userID)).toBeNull();
      // The admin may change anyone.
      const byAdmin = await admin.call(
        "GET",
        `/api/variance/UserManagement/GetUserDetail?userID=${viewer.userID}`,
      );
      expect(byAdmin.json.changeRefusal).toBeNull();
      const users = await admin.call("GET", "/api/variance/UserManagement/GetUserList");
      expect((users.json as unknown as { email: string }[]).map((u) => u.email).sort()).toEqual([
        "admin@people.example.com",
        "bob@people.example.com",
        "pat@people.example.com",
        "val@people.example.com",
      ]);
      const disable = await admin.call("POST", "/api/variance/UserManagement/UpdateDetail", {
        userID: bob.userID,
        name: "Bob",
        email: "bob@people.example.com",
        roleIDs: [],
        disabled: true,
      });
      expect(disable.status).toBe(200);
      expect((await manager.call("GET", "/api/Account/AuthorisedPing")).status).toBe(401);
      // No set-password link for a disabled user: it would set a password they cannot sign in with.
      const link = await admin.call(
        "POST",
        `/api/variance/UserManagement/SendPasswordLink?userID=${bob.userID}`,
      );
      expect(link.status).toBe(400);
      expect(link.json.message).toBe(
        "This user is disabled and cannot sign in: enable them, then send a link.",
      );
      const login = await new Browser(ctx().tenantUrl("people")).request("POST", "/api/login", {
        email: "bob@people.example.com",
        password: bob.password,
      });
      expect(login.status).toBe(401);
    });

    it("deletes a user: their sessions and API tokens end at once, and they cannot sign in", async () => {
      const org = await ctx().createOrganisation("leaver");
      const admin = await signedIn(ctx().tenantUrl("leaver"), org.email, org.password);
      const role = await admin.call("POST", "/api/variance/Role/Edit", {
        roleInfo: { name: "Token users" },
        activeToggles: [abilities.varianceDashboardView, abilities.settingsTokensManage],
      });
      const dan = await newUser(admin.call, "leaver", "dan@leaver.example.com", [role.json.roleID as string]);
      const session = await signedIn(ctx().tenantUrl("leaver"), "dan@leaver.example.com", dan.password);
      const token = (await session.call("POST", "/api/variance/token", { name: "dan's" })).json
        .token as string;
      const bearer = new Browser(ctx().tenantUrl("leaver"));
      const periods = "/api/variance/VarianceOverview/ActualPeriods";
      const auth = { authorization: `Bearer ${token}` };
      expect((await bearer.request("GET", periods, undefined, auth)).status).toBe(200);
      expect((await session.call("GET", periods)).status).toBe(200);

      const deleted = await admin.call(
        "POST",
        `/api/variance/UserManagement/DeleteUser?userID=${dan.userID}`,
      );
      expect(deleted.status).toBe(200);
      expect((await session.call("GET", periods)).status).toBe(401);
      expect((await bearer.request("GET", periods, undefined, auth)).status).toBe(401);
      expect(
        (await admin.call("GET", `/api/variance/UserManagement/GetUserDetail?userID=${dan.userID}`)).status,
      ).toBe(404);
      const again = await new Browser(ctx().tenantUrl("leaver")).request("POST", "/api/login", {
        email: "dan@leaver.example.com",
        password: dan.password,
      });
      expect(again.status).toBe(401);
      // Nobody deletes themselves.
      const self = await admin.call("POST", `/api/variance/UserManagement/DeleteUser?userID=${org.userId}`);
      expect(self.status).toBe(400);
    });

    it("shows a new user's password status and sends a fresh set-password link on request", async () => {
      const org = await ctx().createOrganisation("links");
      const admin = await signedIn(ctx().tenantUrl("links"), org.email, org.password);
      const created = await admin.call("POST", "/api/variance/UserManagement/CreateUser", {
        name: "Fay",
        email: "fay@links.example.com",
      });
      const userID = created.json.userID as string;
      await mail.waitFor("fay@links.example.com");
      const status = () =>
        admin.call("GET", `/api/variance/UserManagement/UserPasswordStatus?userID=${userID}`);
      expect((await status()).json).toEqual({ hasPassword: false, passwordLinkPending: true });
      const sent = await admin.call("POST", `/api/variance/UserManagement/SendPasswordLink?userID=${userID}`);
      expect(sent.status).toBe(200);
      const link = /passwordSet\/([0-9a-f-]{36})\/([A-Za-z0-9_-]+)/.exec(
        (await mail.waitFor("fay@links.example.com")).text,
      )!;
      const set = await new Browser(ctx().tenantUrl("links")).request(
        "POST",
        "/api/ResetPassword/ResetPassword",
        {
          tokenID: link[1],
          secretToken: link[2],
          password: "fay's own long password",
        },
      );
      expect(set.status).toBe(200);
      expect((await status()).json).toEqual({ hasPassword: true, passwordLinkPending: false });
      const detail = await admin.call("GET", `/api/variance/UserManagement/GetUserDetail?userID=${userID}`);
      expect(detail.json).toEqual({
        userID,
        name: "Fay",
        email: "fay@links.example.com",
        userIsAdmin: false,
        roleIDs: [],
        multiFactorAuthenticationStatus: "disabled",
        disabled: false,
        changeRefusal: null,
      });
    });

    it("lets admins list and revoke every token of the organisation, others only their own; a narrowed role binds tokens at once", async () => {
      const org = await ctx().createOrganisation("tokadmin");
      const admin = await signedIn(ctx().tenantUrl("tokadmin"), org.email, org.password);
      const role = await admin.call("POST", "/api/variance/Role/Edit", {
        roleInfo: { name: "Token users" },
        activeToggles: [abilities.varianceDashboardView, abilities.settingsTokensManage],
      });
      const roleID = role.json.roleID as string;
      const gil = await newUser(admin.call, "tokadmin", "gil@tokadmin.example.com", [roleID]);
      const member = await signedIn(ctx().tenantUrl("tokadmin"), "gil@tokadmin.example.com", gil.password);
      const mine = (await member.call("POST", "/api/variance/token", { name: "gil's" })).json;
      const theirs = (await admin.call("POST", "/api/variance/token", { name: "admin's" })).json;
      const names = async (call: typeof admin.call) =>
        ((await call("GET", "/api/variance/token")).json as unknown as { name: string; userName: string }[])
          .map((t) => `${t.name} (${t.userName})`)
          .sort();
      expect(await names(admin.call)).toEqual(["admin's (admin)", "gil's (gil)"]);
      expect(await names(member.call)).toEqual(["gil's (gil)"]);
      // Each names the user it acts as, as it is created and as it is listed (the profile's own list).
      expect(mine.userID).toBe(gil.userID);
      const listed = (await admin.call("GET", "/api/variance/token")).json as unknown as {
        name: string;
        userID: string;
      }[];
      expect(listed.find((t) => t.name === "gil's")?.userID).toBe(gil.userID);
      expect((await member.call("DELETE", `/api/variance/token?tokenID=${theirs.tokenID}`)).status).toBe(404);

      // Gil's token holds what Gil holds: narrowing the role narrows it on its next call, even
      // though the server remembers a token's caller for a second between reading calls.
      const bearer = new Browser(ctx().tenantUrl("tokadmin"));
      const auth = { authorization: `Bearer ${mine.token}` };
      const periods = "/api/variance/VarianceOverview/ActualPeriods";
      expect((await bearer.request("GET", periods, undefined, auth)).status).toBe(200);
      const narrowed = await admin.call("POST", "/api/variance/Role/Edit", {
        roleID,
        roleInfo: { name: "Token users" },
        roleUserIDs: [gil.userID],
        activeToggles: [abilities.settingsTokensManage],
      });
      expect(narrowed.status).toBe(200);
      expect((await bearer.request("GET", periods, undefined, auth)).status).toBe(403);

      expect((await admin.call("DELETE", `/api/variance/token?tokenID=${mine.tokenID}`)).status).toBe(200);
      expect((await bearer.request("GET", "/api/Account/AuthorisedPing", undefined, auth)).status).toBe(401);
      expect(await names(admin.call)).toEqual(["admin's (admin)"]);
    });

    it("a token never holds more than its user now: disabling, a role taken away and an admin made a plain user each bind it on its next call", async () => {
      const org = await ctx().createOrganisation("tokowner");
      const admin = await signedIn(ctx().tenantUrl("tokowner"), org.email, org.password);
      const role = await admin.call("POST", "/api/variance/Role/Edit", {
        roleInfo: { name: "Viewers" },
        activeToggles: [abilities.varianceDashboardView, abilities.settingsTokensManage],
      });
      const roleID = role.json.roleID as string;
      const kim = await newUser(admin.call, "tokowner", "kim@tokowner.example.com", [roleID]);
      const session = await signedIn(ctx().tenantUrl("tokowner"), "kim@tokowner.example.com", kim.password);
      const token = (await session.call("POST", "/api/variance/token", { name: "kim's" })).json
        .token as string;
      const bearer = new Browser(ctx().tenantUrl("tokowner"));
      const status = async (path: string) =>
        (await bearer.request("GET", path, undefined, { authorization: `Bearer ${token}` })).status;
      const periods = "/api/variance/VarianceOverview/ActualPeriods";
      const update = (changes: { userIsAdmin?: boolean; roleIDs?: string[]; disabled?: boolean }) =>
        admin.call("POST", "/api/variance/UserManagement/UpdateDetail", {
          userID: kim.userID,
          name: "kim",
          email: "kim@tokowner.example.com",
          userIsAdmin: false,
          roleIDs: [roleID],
          disabled: false,
          ...changes,
        });
      expect(await status(periods)).toBe(200);
      // The admin's list says what each token may do now, as its calls are counted.
      const listed = async (name: string) => {
        const tokens = (await admin.call("GET", "/api/variance/token")).json as unknown as {
          name: string;
          abilities: unknown[];
          abilitiesInForce: unknown[];
          userDisabled: boolean;
        }[];
        const token = tokens.find((t) => t.name === name)!;
        return {
          abilities: token.abilities.length,
          inForce: token.abilitiesInForce,
          disabled: token.userDisabled,
        };
      };
      const both = [abilities.varianceDashboardView, abilities.settingsTokensManage];
      expect(await listed("kim's")).toEqual({ abilities: 2, inForce: both, disabled: false });

      // Disabled: the token is refused as if unknown, and counts again once the user is enabled.
      expect((await update({ disabled: true })).status).toBe(200);
      expect(await status(periods)).toBe(401);
      expect(await listed("kim's")).toEqual({ abilities: 2, inForce: [], disabled: true });
      expect((await update({})).status).toBe(200);
      expect(await status(periods)).toBe(200);

      // The role taken from the user (on the user's page, not by editing the role): its abilities go.
      expect((await update({ roleIDs: [] })).status).toBe(200);
      expect(await status(periods)).toBe(403);
      expect(await listed("kim's")).toEqual({ abilities: 2, inForce: [], disabled: false });

      // An admin's token made while an admin (scoped to every ability) holds, once the user is
      // made a plain user, only what their roles grant.
      expect((await update({ userIsAdmin: true, roleIDs: [] })).status).toBe(200);
      const again = await signedIn(ctx().tenantUrl("tokowner"), "kim@tokowner.example.com", kim.password);
      const adminToken = (await again.call("POST", "/api/variance/token", { name: "kim as admin" })).json
        .token as string;
      const asAdmin = async (path: string) =>
        (await bearer.request("GET", path, undefined, { authorization: `Bearer ${adminToken}` })).status;
      const backups = "/api/Backup/BackupList";
      expect(await asAdmin(backups)).toBe(200);
      expect((await update({ userIsAdmin: false, roleIDs: [roleID] })).status).toBe(200);
      expect(await asAdmin(backups)).toBe(403);
      expect(await asAdmin(periods)).toBe(200);
      expect(await listed("kim as admin")).toEqual({
        abilities: Object.keys(abilities).length,
        inForce: both,
        disabled: false,
      });
    });

    it("expires a set-password link after 72 hours", async () => {
      const org = await ctx().createOrganisation("setlink");
      const admin = await signedIn(ctx().tenantUrl("setlink"), org.email, org.password);
      await admin.call("POST", "/api/variance/UserManagement/CreateUser", {
        name: "Late",
        email: "late@setlink.example.com",
      });
      const link = /passwordSet\/([0-9a-f-]{36})\/([A-Za-z0-9_-]+)/.exec(
        (await mail.waitFor("late@setlink.example.com")).text,
      )!;
      const query = `tokenID=${link[1]}&secretToken=${link[2]}`;
      clock.advance(72 * 3600_000 - 1000);
      expect(
        (await admin.browser.request("GET", `/api/ResetPassword/IsTokenValid?${query}`)).json.isValid,
      ).toBe(true);
      clock.advance(1000);
      expect(
        (await admin.browser.request("GET", `/api/ResetPassword/IsTokenValid?${query}`)).json.isValid,
      ).toBe(false);
    });
  },
  { clock, env: () => ({ SMTP_URL: mail.url }) },
);
