import { createApiToken, listApiTokens, revokeApiToken } from "@varia/contracts";
import type { FastifyInstance } from "fastify";
import { intersectAbilities, loadTokenAbilities, loadUserAbilities } from "../auth/abilities";
import { createApiToken as storeApiToken } from "../auth/api-tokens";
import { assertCanGrant } from "../auth/caller-reach";
import { AppError } from "../errors";
import type { AuthContext } from "../http/auth-context";
import { registerContract } from "../http/contract-route";
import type { AppDeps } from "../http/deps";

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

/** API tokens (docs/security.md, "Abilities and who may call"): named API tokens scoped by abilities, shown once, stored hashed, revocable. */
export async function tokenRoutes(app: FastifyInstance, deps: AppDeps) {
  const { db } = deps;

  /** Admins see and revoke every token of the organisation; others their own. */
  const scope = (auth: AuthContext) =>
    auth.user.is_admin && auth.method !== "ApiToken" ? null : auth.user.id;

  registerContract(app, deps, listApiTokens, async ({ auth }) => {
    const owner = scope(auth!);
    let query = db
      .selectFrom("api_tokens")
      .innerJoin("users", (join) =>
        join
          .onRef("users.organisation_id", "=", "api_tokens.organisation_id")
          .onRef("users.id", "=", "api_tokens.user_id"),
      )
      .select([
        "api_tokens.id",
        "api_tokens.name",
        "api_tokens.token_prefix",
        "api_tokens.created_at",
        "api_tokens.last_used_at",
        "api_tokens.user_id",
        "api_tokens.scoped",
        "users.name as user_name",
        "users.is_admin as user_is_admin",
        "users.disabled_at as user_disabled_at",
      ])
      .where("api_tokens.organisation_id", "=", auth!.organisation.id)
      .where("api_tokens.revoked_at", "is", null)
      .orderBy("api_tokens.created_at", "desc");
    if (owner) query = query.where("api_tokens.user_id", "=", owner);
    const rows = await query.execute();
    const organisationId = auth!.organisation.id;
    // What each user holds, read once per user however many tokens they have.
    const heldBy = new Map<string, ReturnType<typeof loadUserAbilities>>();
    return Promise.all(
      rows.map(async (row) => {
        const abilities = await loadTokenAbilities(db, organisationId, row.id);
        // As a call with the token counts them (http/auth-context.ts, resolveAuth), so that the list
        // never shows a token able to do what it is refused.
        if (!heldBy.has(row.user_id))
          heldBy.set(
            row.user_id,
            loadUserAbilities(db, {
              organisation_id: organisationId,
              id: row.user_id,
              is_admin: row.user_is_admin,
            }),
          );
        const held = await heldBy.get(row.user_id)!;
        const userDisabled = row.user_disabled_at !== null;
        return {
          tokenID: row.id,
          name: row.name,
          tokenPrefix: row.token_prefix,
          userID: row.user_id,
          userName: row.user_name,
          abilities,
          abilitiesInForce: userDisabled ? [] : row.scoped ? intersectAbilities(abilities, held) : held,
          userDisabled,
          createdAt: iso(row.created_at as unknown as Date)!,
          lastUsedAt: iso(row.last_used_at),
        };
      }),
    );
  });

  registerContract(app, deps, createApiToken, async ({ auth, body, request }) => {
    const held = auth!.abilities;
    const wanted = body.abilities ?? held;
    assertCanGrant(auth!, wanted, "abilities", "A token cannot hold an ability its creator lacks");
    const created = await storeApiToken(db, {
      organisationId: auth!.organisation.id,
      userId: auth!.user.id,
      name: body.name,
      abilities: intersectAbilities(wanted, held),
    });
    request.log.info({ token: created.id, user: auth!.user.id }, "API token created");
    return {
      tokenID: created.id,
      name: created.name,
      tokenPrefix: created.token.slice(0, 10),
      userID: auth!.user.id,
      userName: auth!.user.name,
      abilities: created.abilities,
      abilitiesInForce: created.abilities,
      userDisabled: false,
      createdAt: deps.now().toISOString(),
      lastUsedAt: null,
      token: created.token,
    };
  });

  registerContract(app, deps, revokeApiToken, async ({ auth, query, request }) => {
    const owner = scope(auth!);
    let update = db
      .updateTable("api_tokens")
      .set({ revoked_at: deps.now() })
      .where("organisation_id", "=", auth!.organisation.id)
      .where("id", "=", query.tokenID)
      .where("revoked_at", "is", null);
    if (owner) update = update.where("user_id", "=", owner);
    const result = await update.executeTakeFirst();
    if (Number(result.numUpdatedRows) !== 1) throw new AppError("NotFound", "No such token");
    request.log.info({ token: query.tokenID, user: auth!.user.id }, "API token revoked");
  });
}
