import { randomUUID } from "node:crypto";
import type { RoleAbility } from "@varia/contracts";
import type { Kysely } from "kysely";
import type { Schema } from "../db/schema";
import { loadUserAbilities, normaliseAbilities } from "./abilities";
import { hashSecret, randomSecret } from "./secret-tokens";

export const apiTokenPrefix = "varia_";

export interface CreatedApiToken {
  id: string;
  name: string;
  /** Shown once; only its hash is stored. */
  token: string;
  abilities: RoleAbility[];
}

/**
 * Creates a token scoped to `abilities` (default: every ability the user holds now). The token
 * never does more than its user can at the time of the call: the scope is intersected per request.
 */
export async function createApiToken(
  db: Kysely<Schema>,
  input: { organisationId: string; userId: string; name: string; abilities?: readonly RoleAbility[] },
): Promise<CreatedApiToken> {
  const token = apiTokenPrefix + randomSecret(32);
  const id = randomUUID();
  let scope = input.abilities ? normaliseAbilities(input.abilities) : undefined;
  if (!scope) {
    const user = await db
      .selectFrom("users")
      .select(["organisation_id", "id", "is_admin"])
      .where("organisation_id", "=", input.organisationId)
      .where("id", "=", input.userId)
      .executeTakeFirstOrThrow();
    scope = await loadUserAbilities(db, user);
  }
  const abilities = scope;
  await db.transaction().execute(async (tx) => {
    await tx
      .insertInto("api_tokens")
      .values({
        organisation_id: input.organisationId,
        id,
        user_id: input.userId,
        name: input.name,
        token_hash: hashSecret(token),
        token_prefix: token.slice(0, apiTokenPrefix.length + 4),
        scoped: true,
      })
      .execute();
    if (abilities.length)
      await tx
        .insertInto("api_token_abilities")
        .values(
          abilities.map((a) => ({
            organisation_id: input.organisationId,
            token_id: id,
            module_system_name: a.moduleSystemName,
            feature_system_name: a.featureSystemName,
            ability_system_name: a.abilitySystemName,
          })),
        )
        .execute();
  });
  return { id, name: input.name, token, abilities };
}

/** Finds the live token, records its use, and returns whose it is. */
export async function findApiToken(
  db: Kysely<Schema>,
  token: string,
  now = new Date(),
): Promise<{ organisationId: string; userId: string; tokenId: string; scoped: boolean } | null> {
  if (!token.startsWith(apiTokenPrefix) || token.length > 200) return null;
  const row = await db
    .selectFrom("api_tokens")
    .select(["organisation_id", "user_id", "id", "last_used_at", "scoped"])
    .where("token_hash", "=", hashSecret(token))
    .where("revoked_at", "is", null)
    .executeTakeFirst();
  if (!row) return null;
  if (!row.last_used_at || now.getTime() - new Date(row.last_used_at).getTime() > 60_000) {
    await db
      .updateTable("api_tokens")
      .set({ last_used_at: now })
      .where("organisation_id", "=", row.organisation_id)
      .where("id", "=", row.id)
      .execute();
  }
  return { organisationId: row.organisation_id, userId: row.user_id, tokenId: row.id, scoped: row.scoped };
}
