import { z } from "zod";
import { abilities } from "./abilities";
import { roleAbilitySchema } from "./account";
import { emptySchema, nameSchema } from "./common";
import { defineContract } from "./define-contract";

/**
 * A role (docs/settings.md, "Users, roles and tokens"): roleID, roleInfo, roleUserIDs, activeToggles (the
 * abilities it grants).
 */
export const roleInfoSchema = z.object({
  name: nameSchema(100),
  description: z.string().trim().max(1000).default(""),
});

export const roleSummarySchema = z.object({
  roleID: z.string(),
  roleInfo: roleInfoSchema,
  userCount: z.number().int(),
});

export const roleDetailSchema = z.object({
  roleID: z.string(),
  roleInfo: roleInfoSchema,
  roleUserIDs: z.array(z.string()),
  activeToggles: z.array(roleAbilitySchema),
});
export type RoleDetail = z.infer<typeof roleDetailSchema>;

export const getRoleList = defineContract({
  name: "Role/GetRoleList",
  method: "GET",
  root: "variance",
  path: "Role/GetRoleList",
  response: z.array(roleSummarySchema),
  responseKind: "json",
  access: abilities.settingsRolesManage,
  summary: "The organisation's roles.",
});

export const getRoleDetail = defineContract({
  name: "Role/GetRoleDetail",
  method: "GET",
  root: "variance",
  path: "Role/GetRoleDetail",
  query: z.object({ roleID: z.uuid() }),
  response: roleDetailSchema,
  responseKind: "json",
  access: abilities.settingsRolesManage,
  summary: "A role with its users and abilities.",
});

/**
 * The abilities a role can grant, grouped by module and feature for the role editor's toggles. Each
 * ability is whole (module, feature, ability), so the toggled ones go back as `activeToggles`.
 */
export const abilityModuleSchema = z.object({
  moduleSystemName: z.string(),
  moduleId: z.number().int(),
  features: z.array(
    z.object({
      featureSystemName: z.string(),
      abilities: z.array(roleAbilitySchema),
    }),
  ),
});
export type AbilityModule = z.infer<typeof abilityModuleSchema>;

export const availableAbilities = defineContract({
  name: "Role/AvailableAbilities",
  method: "GET",
  root: "variance",
  path: "Role/AvailableAbilities",
  response: z.array(abilityModuleSchema),
  responseKind: "json",
  access: abilities.settingsRolesManage,
  summary: "The catalogue of abilities a role can grant, grouped by module and feature.",
});

export const editRole = defineContract({
  name: "Role/Edit",
  method: "POST",
  root: "variance",
  path: "Role/Edit",
  body: z.object({
    /** Absent or null: a new role. */
    roleID: z.uuid().nullish(),
    roleInfo: roleInfoSchema,
    roleUserIDs: z.array(z.uuid()).max(10_000).default([]),
    activeToggles: z.array(roleAbilitySchema).max(200).default([]),
  }),
  response: z.object({ roleID: z.string() }),
  responseKind: "json",
  access: abilities.settingsRolesManage,
  policy: "never",
  summary: "Create or update a role: its name, users and abilities (never more than the caller holds).",
});

export const deleteRole = defineContract({
  name: "Role/Delete",
  method: "POST",
  root: "variance",
  path: "Role/Delete",
  query: z.object({ roleID: z.uuid() }),
  response: emptySchema,
  responseKind: "empty",
  access: abilities.settingsRolesManage,
  policy: "never",
  summary: "Delete a role; its users lose the abilities it granted.",
});

/** The role picker's lookup (docs/settings.md): startRow is 1-based; rowLimit 100 by default. */
export const lookupRoleList = defineContract({
  name: "Lookup/GetRoleList",
  method: "POST",
  root: "variance",
  path: "Lookup/GetRoleList",
  body: z.object({
    filter: z.string().max(200).nullish(),
    searchParams: z.unknown().optional(),
    startRow: z.number().int().min(1).default(1),
    rowLimit: z.number().int().min(1).max(1000).default(100),
  }),
  response: z.object({
    rows: z.array(z.object({ roleID: z.string(), name: z.string() })),
    totalRows: z.number().int(),
  }),
  responseKind: "json",
  // The role list of the roles screen and the role picker of the user editor.
  access: [abilities.settingsRolesManage, abilities.settingsUsersManage],
  policy: "lookup",
  summary: "Roles whose name contains the filter, a page at a time.",
});
