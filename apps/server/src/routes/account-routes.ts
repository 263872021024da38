import {
  acknowledgeTermsOfService,
  authorisedPing,
  getAuthorisedMenu,
  menuCatalogue,
  moduleIds,
  permissionPing,
  termsOfServicePing,
  type UserProfile,
} from "@varia/contracts";
import type { FastifyInstance } from "fastify";
import { actsAsAdmin } from "../auth/caller-reach";
import { issueXsrfToken, xsrfCookieName } from "../auth/xsrf";
import { type AuthContext, holdsAbility } from "../http/auth-context";
import { registerContract } from "../http/contract-route";
import type { AppDeps } from "../http/deps";

export function userProfile(auth: AuthContext, demoMode: boolean): UserProfile {
  const { organisation, user } = auth;
  return {
    name: user.name,
    email: user.email,
    userGUID: user.id,
    organisationGUID: organisation.id,
    organisationName: organisation.name,
    organisationHasMargins: organisation.has_margins,
    organisationIsForInternalUse: organisation.is_internal,
    organisationModule: moduleIds.Variance,
    multiFactorAuthenticationStatus: user.mfa_enabled ? "enabled" : "disabled",
    subscriptionCurrencyCode: organisation.currency_code.toUpperCase(),
    userIsAdmin: actsAsAdmin(auth),
    userRoleAbilities: auth.abilities,
    organisationSignUpStep: (organisation.sign_up_step as UserProfile["organisationSignUpStep"]) ?? null,
    loginMethod: auth.method,
    demoMode: demoMode || organisation.is_demo,
  };
}

export async function accountRoutes(app: FastifyInstance, deps: AppDeps) {
  const { db } = deps;

  registerContract(app, deps, authorisedPing, ({ auth, request, reply }) => {
    const profileAuth = auth!;
    // A session without a valid XSRF cookie (a cleared cookie jar) gets a fresh one.
    if (profileAuth.sessionId && !request.cookies[xsrfCookieName]) {
      reply.setCookie(xsrfCookieName, issueXsrfToken(deps.xsrfKey, profileAuth.sessionId), {
        path: "/",
        sameSite: "lax",
        secure: deps.config.secureCookies,
      });
    }
    return { success: true, profile: userProfile(profileAuth, deps.config.demoMode) };
  });

  registerContract(app, deps, permissionPing, ({ auth }) => ({
    success: true,
    userIsAdmin: actsAsAdmin(auth!),
    userRoleAbilities: auth!.abilities,
  }));

  async function termsStatus(auth: AuthContext) {
    const { organisation, user } = auth;
    const latest = await latestTermsVersion();
    const accepted = await db
      .selectFrom("terms_acceptances")
      .select("terms_version_id")
      .where("organisation_id", "=", organisation.id)
      .where("user_id", "=", user.id)
      .execute();
    return {
      success: true,
      hasOnceAgreedToTermsOfServiceAgreement: accepted.length > 0,
      hasAcceptedLatestEffectiveVersion: !latest || accepted.some((a) => a.terms_version_id === latest.id),
    };
  }

  function latestTermsVersion() {
    return db
      .selectFrom("terms_versions")
      .select("id")
      .where("effective_at", "<=", deps.now())
      .orderBy("effective_at", "desc")
      .executeTakeFirst();
  }

  registerContract(app, deps, termsOfServicePing, ({ auth }) => termsStatus(auth!));

  registerContract(app, deps, acknowledgeTermsOfService, async ({ auth }) => {
    const latest = await latestTermsVersion();
    if (latest) {
      await db
        .insertInto("terms_acceptances")
        .values({
          organisation_id: auth!.organisation.id,
          user_id: auth!.user.id,
          terms_version_id: latest.id,
        })
        .onConflict((oc) => oc.columns(["organisation_id", "user_id", "terms_version_id"]).doNothing())
        .execute();
    }
    return termsStatus(auth!);
  });

  registerContract(app, deps, getAuthorisedMenu, ({ auth }) => ({
    items: menuCatalogue
      .filter(
        (item) =>
          holdsAbility(auth!, item.ability) || ("orAbility" in item && holdsAbility(auth!, item.orAbility)),
      )
      .map(({ key, title, path, ability }) => ({
        key,
        title,
        path,
        moduleId: moduleIds[ability.moduleSystemName],
      })),
  }));
}
