import { type AbilityRef, abilityKey, type RoleAbility } from "@varia/contracts";
import type { FastifyRequest } from "fastify";
import type { Kysely, Selectable } from "kysely";
import { intersectAbilities, loadTokenAbilities, loadUserAbilities } from "../auth/abilities";
import { findApiToken } from "../auth/api-tokens";
import { touchSession } from "../auth/sessions";
import type { OrganisationsTable, Schema, UsersTable } from "../db/schema";
import { tenantFromHost } from "../tenancy";
import "../db/accounts-schema";
import "../db/invoice-schema";

export type Organisation = Selectable<OrganisationsTable>;
export type User = Selectable<UsersTable>;

export type LoginMethod =
  | "Password"
  | "ApiToken"
  | "DemoCode"
  | "SingleSignOnGoogle"
  | "SingleSignOnIntuit"
  | "SingleSignOnMicrosoft"
  | "SingleSignOnXero";

/**
 * Who is calling: their organisation, user, how they signed in and what they may do.
 * Only a complete sign-in makes one: a password accepted while the MFA code is still due
 * creates no session at all, so nothing can be called with it.
 */
export interface AuthContext {
  organisation: Organisation;
  user: User;
  method: LoginMethod;
  sessionId?: string;
  tokenId?: string;
  /** The abilities in force: the user's, narrowed to the token's scope for API tokens. */
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

/** Whether the caller holds an ability (admins hold them all, unless a token's scope narrows it). */
export function holdsAbility(auth: AuthContext, ability: AbilityRef): boolean {
  const key = abilityKey(ability);
  return auth.abilities.some((a) => abilityKey(a) === key);
}

/** The organisation and the (enabled) user, in one query: it runs on every authenticated call. */
async function loadUser(db: Kysely<Schema>, organisationId: string, userId: string) {
  const row = await db
    .selectFrom("users")
    .innerJoin("organisations", "organisations.id", "users.organisation_id")
    .selectAll("users")
    .select([
      "organisations.tenant as o_tenant",
      "organisations.name as o_name",
      "organisations.currency_code as o_currency_code",
      "organisations.has_margins as o_has_margins",
      "organisations.is_internal as o_is_internal",
      "organisations.sign_up_step as o_sign_up_step",
      "organisations.mfa_setting as o_mfa_setting",
      "organisations.default_category as o_default_category",
      "organisations.is_demo as o_is_demo",
      "organisations.created_at as o_created_at",
    ])
    .where("users.organisation_id", "=", organisationId)
    .where("users.id", "=", userId)
    .where("users.disabled_at", "is", null)
    .executeTakeFirst();
  if (!row) return null;
  const {
    o_tenant,
    o_name,
    o_currency_code,
    o_has_margins,
    o_is_internal,
    o_sign_up_step,
    o_mfa_setting,
    o_default_category,
    o_is_demo,
    o_created_at,
    ...user
  } = row;
  const organisation = {
    id: organisationId,
    tenant: o_tenant,
    name: o_name,
    currency_code: o_currency_code,
    has_margins: o_has_margins,
    is_internal: o_is_internal,
    sign_up_step: o_sign_up_step,
    mfa_setting: o_mfa_setting,
    default_category: o_default_category,
    is_demo: o_is_demo,
    created_at: o_created_at,
  };
  return { organisation, user };
}

/**
 * Resolves the caller from an `Authorization: Bearer` API token or the session cookie.
 * A token is bound to its organisation: it counts only on a host that addresses that organisation
 * (its tenant's host, or a host that names none, such as `localhost`, an IP address, `app.` or
 * `www.`, when its organisation is the default tenant); anywhere else it is refused.
 * A session counts only on the host of its own tenant (or the host it was made for).
 */
export async function resolveAuth(
  db: Kysely<Schema>,
  request: FastifyRequest,
  options: { defaultTenant: string | undefined; secureCookies: boolean },
  now: Date = new Date(),
): Promise<AuthContext | null> {
  const { tenant } = requestTenant(request, options.defaultTenant);
  const authorization = request.headers.authorization;
  if (authorization) {
    const match = /^Bearer\s+(\S+)$/i.exec(authorization);
    if (!match?.[1]) return null;
    const token = await findApiToken(db, match[1], now);
    if (!token) return null;
    const found = await loadUser(db, token.organisationId, token.userId);
    if (!found || found.organisation.tenant !== tenant) return null;
    const held = await loadUserAbilities(db, found.user);
    const abilities = token.scoped
      ? intersectAbilities(held, await loadTokenAbilities(db, token.organisationId, token.tokenId))
      : held;
    return { ...found, method: "ApiToken", tokenId: token.tokenId, abilities };
  }
  const sessionId = request.cookies[sessionCookieName(options.secureCookies)];
  if (!sessionId) return null;
  const session = await touchSession(db, sessionId, now);
  if (!session) return null;
  const found = await loadUser(db, session.organisationId, session.userId);
  if (!found || (session.hostTenant ?? found.organisation.tenant) !== tenant) return null;
  return {
    ...found,
    method: session.loginMethod as LoginMethod,
    sessionId,
    abilities: await loadUserAbilities(db, found.user),
  };
}
