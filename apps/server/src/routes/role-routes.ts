import {
  type AbilityModule,
  availableAbilities,
  deleteRole,
  editRole,
  getRoleDetail,
  getRoleList,
  lookupRoleList,
  moduleIds,
  type RoleAbility,
} from "@varia/contracts";
import type { FastifyInstance } from "fastify";
import type { Kysely } from "kysely";
import { abilityCatalogue, normaliseAbilities } from "../auth/abilities";
import { assertCanGrant } from "../auth/caller-reach";
import type { Schema } from "../db/schema";
import { AppError } from "../errors";
import { registerContract } from "../http/contract-route";
import type { AppDeps } from "../http/deps";

/** The abilities grouped by module and feature, in catalogue order (the role editor's toggles). */
export function groupAbilities(list: readonly RoleAbility[]): AbilityModule[] {
  const modules: AbilityModule[] = [];
  for (const ability of list) {
    let module = modules.find((m) => m.moduleSystemName === ability.moduleSystemName);
    if (!module) {
      const moduleId = moduleIds[ability.moduleSystemName as keyof typeof moduleIds];
      module = { moduleSystemName: ability.moduleSystemName, moduleId, features: [] };
      modules.push(module);
    }
    let feature = module.features.find((f) => f.featureSystemName === ability.featureSystemName);
    if (!feature) {
      feature = { featureSystemName: ability.featureSystemName, abilities: [] };
      module.features.push(feature);
    }
    feature.abilities.push({ ...ability });
  }
  return modules;
}

export async function roleRoutes(app: FastifyInstance, deps: AppDeps) {
  const { db } = deps;

  async function roleAbilities(handle: Kysely<Schema>, organisationId: string, roleId: string) {
    const rows = await handle
      .selectFrom("role_abilities")
      .select([
        "module_system_name as moduleSystemName",
        "feature_system_name as featureSystemName",
        "ability_system_name as abilitySystemName",
      ])
      .where("organisation_id", "=", organisationId)
      .where("role_id", "=", roleId)
      .execute();
    return normaliseAbilities(rows);
  }

  registerContract(app, deps, getRoleList, async ({ auth }) => {
    const rows = await db
      .selectFrom("roles")
      .leftJoin("user_roles", (join) =>
        join
          .onRef("user_roles.organisation_id", "=", "roles.organisation_id")
          .onRef("user_roles.role_id", "=", "roles.id"),
      )
      .select(["roles.id", "roles.name", "roles.description"])
      .select((eb) => eb.fn.count<string>("user_roles.user_id").as("users"))
      .where("roles.organisation_id", "=", auth!.organisation.id)
      .groupBy(["roles.id", "roles.name", "roles.description"])
      .orderBy("roles.name")
      .execute();
    return rows.map((r) => ({
      roleID: r.id,
      roleInfo: { name: r.name, description: r.description },
      userCount: Number(r.users),
    }));
  });

  registerContract(app, deps, lookupRoleList, async ({ auth, body }) => {
    let query = db.selectFrom("roles").where("organisation_id", "=", auth!.organisation.id);
    const filter = body.filter?.trim().toLowerCase();
    if (filter)
      query = query.where((eb) => eb(eb.fn("strpos", [eb.fn("lower", ["name"]), eb.val(filter)]), ">", 0));
    const [rows, total] = await Promise.all([
      query
        .select(["id", "name"])
        .orderBy("name")
        .offset(body.startRow - 1)
        .limit(body.rowLimit)
        .execute(),
      query.select((eb) => eb.fn.countAll<string>().as("n")).executeTakeFirstOrThrow(),
    ]);
    return { rows: rows.map((r) => ({ roleID: r.id, name: r.name })), totalRows: Number(total.n) };
  });

  registerContract(app, deps, getRoleDetail, async ({ auth, query }) => {
    const organisationId = auth!.organisation.id;
    const role = await db
      .selectFrom("roles")
      .selectAll()
      .where("organisation_id", "=", organisationId)
      .where("id", "=", query.roleID)
      .executeTakeFirst();
    if (!role) throw new AppError("NotFound", "No such role");
    const users = await db
      .selectFrom("user_roles")
      .select("user_id")
      .where("organisation_id", "=", organisationId)
      .where("role_id", "=", role.id)
      .execute();
    return {
      roleID: role.id,
      roleInfo: { name: role.name, description: role.description },
      roleUserIDs: users.map((u) => u.user_id),
      activeToggles: await roleAbilities(db, organisationId, role.id),
    };
  });

  registerContract(app, deps, availableAbilities, () => groupAbilities(abilityCatalogue));

  registerContract(app, deps, editRole, async ({ auth, body, request }) => {
    const organisationId = auth!.organisation.id;
    const toggles = normaliseAbilities(body.activeToggles);
    assertCanGrant(auth!, body.activeToggles);
    const roleId = body.roleID ?? crypto.randomUUID();
    await db.transaction().execute(async (tx) => {
      if (body.roleID) {
        // Editing a role that grants more than the caller holds would let them take it over.
        assertCanGrant(auth!, await roleAbilities(tx, organisationId, body.roleID));
        const updated = await tx
          .updateTable("roles")
          .set({ name: body.roleInfo.name, description: body.roleInfo.description })
          .where("organisation_id", "=", organisationId)
          .where("id", "=", body.roleID)
          .executeTakeFirst();
        if (Number(updated.numUpdatedRows) !== 1) throw new AppError("NotFound", "No such role");
      } else {
        const clash = await tx
          .selectFrom("roles")
          .select("id")
          .where("organisation_id", "=", organisationId)
          .where((eb) => eb(eb.fn("lower", ["name"]), "=", body.roleInfo.name.toLowerCase()))
          .executeTakeFirst();
        if (clash)
          throw new AppError("Conflict", "A role with this name exists", [
            { field: "roleInfo.name", message: "A role with this name exists" },
          ]);
        await tx
          .insertInto("roles")
          .values({
            organisation_id: organisationId,
            id: roleId,
            name: body.roleInfo.name,
            description: body.roleInfo.description,
          })
          .execute();
      }
      await tx
        .deleteFrom("role_abilities")
        .where("organisation_id", "=", organisationId)
        .where("role_id", "=", roleId)
        .execute();
      if (toggles.length)
        await tx
          .insertInto("role_abilities")
          .values(
            toggles.map((a) => ({
              organisation_id: organisationId,
              role_id: roleId,
              module_system_name: a.moduleSystemName,
              feature_system_name: a.featureSystemName,
              ability_system_name: a.abilitySystemName,
            })),
          )
          .execute();
      const userIds = [...new Set(body.roleUserIDs)];
      if (userIds.length) {
        const found = await tx
          .selectFrom("users")
          .select("id")
          .where("organisation_id", "=", organisationId)
          .where("id", "in", userIds)
          .execute();
        if (found.length !== userIds.length)
          throw new AppError("BadRequest", "Unknown user", [
            { field: "roleUserIDs", message: "Every user must belong to the organisation" },
          ]);
      }
      await tx
        .deleteFrom("user_roles")
        .where("organisation_id", "=", organisationId)
        .where("role_id", "=", roleId)
        .execute();
      if (userIds.length)
        await tx
          .insertInto("user_roles")
          .values(
            userIds.map((userId) => ({ organisation_id: organisationId, user_id: userId, role_id: roleId })),
          )
          .execute();
    });
    request.log.info({ role: roleId, user: auth!.user.id }, "role saved");
    return { roleID: roleId };
  });

  registerContract(app, deps, deleteRole, async ({ auth, query }) => {
    const organisationId = auth!.organisation.id;
    assertCanGrant(auth!, await roleAbilities(db, organisationId, query.roleID));
    const result = await db
      .deleteFrom("roles")
      .where("organisation_id", "=", organisationId)
      .where("id", "=", query.roleID)
      .executeTakeFirst();
    if (Number(result.numDeletedRows) !== 1) throw new AppError("NotFound", "No such role");
  });
}
