import { abilityKey, type RoleAbility } from "@varia/contracts";
import type { Kysely } from "kysely";
import type { Schema } from "../db/schema";
import { AppError } from "../errors";
import type { AuthContext } from "../http/auth-context";
import { abilityCatalogue, isCatalogueAbility, loadUserAbilities } from "./abilities";

/*
 * What a caller may hand out or act on, whether a session or an API token: never more than the
 * abilities in force for this call (`AuthContext.abilities`, a token's narrowed to its scope).
 * A user's `is_admin` flag alone counts for nothing here: an admin's token holding only
 * Users/Manage is not an admin.
 */

/** The caller acts as an admin: an admin user whose abilities here are the whole catalogue. */
export function actsAsAdmin(auth: AuthContext): boolean {
  if (!auth.user.is_admin) return false;
  const held = new Set(auth.abilities.map(abilityKey));
  return abilityCatalogue.every((a) => held.has(abilityKey(a)));
}

/** The abilities of `wanted` that the caller does not hold. */
function beyondCaller(auth: AuthContext, wanted: readonly RoleAbility[]): RoleAbility[] {
  const held = new Set(auth.abilities.map(abilityKey));
  return wanted.filter((a) => !held.has(abilityKey(a)));
}

/** Nobody grants what they do not hold (a role's abilities, a token's scope). */
export function assertCanGrant(
  auth: AuthContext,
  wanted: readonly RoleAbility[],
  field = "activeToggles",
  message = "You cannot grant an ability you do not hold",
) {
  const unknown = wanted.filter((a) => !isCatalogueAbility(a));
  if (unknown.length)
    throw new AppError("BadRequest", "Unknown ability", [
      { field, message: `Unknown: ${unknown.map(abilityKey).join(", ")}` },
    ]);
  const beyond = beyondCaller(auth, wanted);
  if (beyond.length)
    throw new AppError("Forbidden", message, [
      { field, message: `Not held: ${beyond.map(abilityKey).join(", ")}` },
    ]);
}

/** Only a caller acting as an admin makes an admin. */
export function assertCanMakeAdmin(auth: AuthContext) {
  if (!actsAsAdmin(auth))
    throw new AppError("Forbidden", "Only an admin can make an admin", [
      { field: "userIsAdmin", message: "Only an admin can make an admin" },
    ]);
}

/**
 * A caller changes a user (details, roles, admin flag, password link, MFA, deletion) only when it
 * holds everything the user holds: an admin only when acting as one, anyone else only within the
 * caller's abilities. Otherwise changing their e-mail and sending a password link would take over
 * an account that can do more than the caller.
 */
export async function assertCanActOn(
  db: Kysely<Schema>,
  auth: AuthContext,
  target: { organisation_id: string; id: string; is_admin: boolean },
) {
  if (target.is_admin) {
    if (!actsAsAdmin(auth)) throw new AppError("Forbidden", "Only an admin can change an admin");
    return;
  }
  const beyond = beyondCaller(auth, await loadUserAbilities(db, target));
  if (beyond.length)
    throw new AppError("Forbidden", "You cannot change a user who holds abilities you do not hold", [
      { field: "userID", message: `Not held: ${beyond.map(abilityKey).join(", ")}` },
    ]);
}
