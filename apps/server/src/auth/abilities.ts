import { abilities, abilityKey, type RoleAbility } from "@varia/contracts";
import type { Kysely } from "kysely";
import type { Schema } from "../db/schema";

export const abilityCatalogue: RoleAbility[] = Object.values(abilities).map((a) => ({ ...a }));
const catalogueKeys = new Set(abilityCatalogue.map(abilityKey));

/** Keeps the abilities of the catalogue, once each, in catalogue order. */
export function normaliseAbilities(list: readonly RoleAbility[]): RoleAbility[] {
  const keys = new Set(list.map(abilityKey));
  return abilityCatalogue.filter((a) => keys.has(abilityKey(a)));
}

export function isCatalogueAbility(a: RoleAbility): boolean {
  return catalogueKeys.has(abilityKey(a));
}

/** The abilities a user holds: every one for admins, else the union of their roles' abilities. */
export async function loadUserAbilities(
  db: Kysely<Schema>,
  user: { organisation_id: string; id: string; is_admin: boolean },
): Promise<RoleAbility[]> {
  if (user.is_admin) return abilityCatalogue.map((a) => ({ ...a }));
  const rows = await db
    .selectFrom("user_roles")
    .innerJoin("role_abilities", (join) =>
      join
        .onRef("role_abilities.organisation_id", "=", "user_roles.organisation_id")
        .onRef("role_abilities.role_id", "=", "user_roles.role_id"),
    )
    .select([
      "role_abilities.module_system_name as moduleSystemName",
      "role_abilities.feature_system_name as featureSystemName",
      "role_abilities.ability_system_name as abilitySystemName",
    ])
    .where("user_roles.organisation_id", "=", user.organisation_id)
    .where("user_roles.user_id", "=", user.id)
    .execute();
  return normaliseAbilities(rows);
}

/** The abilities an API token is scoped to. */
export async function loadTokenAbilities(
  db: Kysely<Schema>,
  organisationId: string,
  tokenId: string,
): Promise<RoleAbility[]> {
  const rows = await db
    .selectFrom("api_token_abilities")
    .select([
      "module_system_name as moduleSystemName",
      "feature_system_name as featureSystemName",
      "ability_system_name as abilitySystemName",
    ])
    .where("organisation_id", "=", organisationId)
    .where("token_id", "=", tokenId)
    .execute();
  return normaliseAbilities(rows);
}

export function intersectAbilities(a: readonly RoleAbility[], b: readonly RoleAbility[]): RoleAbility[] {
  const keys = new Set(b.map(abilityKey));
  return a.filter((x) => keys.has(abilityKey(x)));
}
