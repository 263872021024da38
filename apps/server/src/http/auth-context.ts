import { type AbilityRef, abilities, abilityKey, type RoleAbility } from "@varia/contracts";
import type { FastifyRequest } from "fastify";
import type { Kysely, Selectable } from "kysely";
import { findApiToken } from "../auth/api-tokens";
import { touchSession } from "../auth/sessions";
import type { OrganisationsTable, Schema, UsersTable } from "../db/schema";
import { tenantFromHost } from "../tenancy";

export type Organisation = Selectable<OrganisationsTable>;
export type User = Selectable<UsersTable>;

/** Who is calling: their organisation, user, how they signed in and what they may do. */
export interface AuthContext {
  organisation: Organisation;
  user: User;
  method: "Password" | "ApiToken";
  sessionId?: string;
  abilities: RoleAbility[];
}

export const sessionCookieName = (secure: boolean) => (secure ? "__Host-varia_session" : "varia_session");

/** The tenant the request addresses: the host's first label, else the configured default. */
export function requestTenant(request: FastifyRequest, defaultTenant: string | undefined) {
  const explicit = tenantFromHost(request.headers.host);
  return { explicit, tenant: explicit ?? defaultTenant ?? null };
}

export async function findOrganisationByTenant(db: Kysely<Schema>, tenant: string | null) {
  if (!tenant) return undefined;
  return db.selectFrom("organisations").selectAll().where("tenant", "=", tenant).executeTakeFirst();
}

/** The abilities a user holds: every one for admins; roles come with the settings screens. */
export function userAbilities(user: User): RoleAbility[] {
  if (user.is_admin) return Object.values(abilities).map((a) => ({ ...a }));
  return [];
}

export function holdsAbility(auth: AuthContext, ability: AbilityRef): boolean {
  if (auth.user.is_admin) return true;
  const key = abilityKey(ability);
  return auth.abilities.some((a) => abilityKey(a) === key);
}

async function loadUser(db: Kysely<Schema>, organisationId: string, userId: string) {
  const organisation = await db
    .selectFrom("organisations")
    .selectAll()
    .where("id", "=", organisationId)
    .executeTakeFirst();
  const user = await db
    .selectFrom("users")
    .selectAll()
    .where("organisation_id", "=", organisationId)
    .where("id", "=", userId)
    .where("disabled_at", "is", null)
    .executeTakeFirst();
  return organisation && user ? { organisation, user } : null;
}

/**
 * Resolves the caller from an `Authorization: Bearer` API token or the session cookie.
 * A token is bound to its organisation: presented on another tenant's host it is refused.
 * A session counts only on the host of its own tenant.
 */
export async function resolveAuth(
  db: Kysely<Schema>,
  request: FastifyRequest,
  options: { defaultTenant: string | undefined; secureCookies: boolean },
): Promise<AuthContext | null> {
  const { explicit, tenant } = requestTenant(request, options.defaultTenant);
  const authorization = request.headers.authorization;
  if (authorization) {
    const match = /^Bearer\s+(\S+)$/i.exec(authorization);
    if (!match?.[1]) return null;
    const token = await findApiToken(db, match[1]);
    if (!token) return null;
    const found = await loadUser(db, token.organisationId, token.userId);
    if (!found || (explicit !== null && found.organisation.tenant !== explicit)) return null;
    return { ...found, method: "ApiToken", abilities: userAbilities(found.user) };
  }
  const sessionId = request.cookies[sessionCookieName(options.secureCookies)];
  if (!sessionId) return null;
  const session = await touchSession(db, sessionId);
  if (!session) return null;
  const found = await loadUser(db, session.organisationId, session.userId);
  if (!found || found.organisation.tenant !== tenant) return null;
  return { ...found, method: "Password", sessionId, abilities: userAbilities(found.user) };
}
