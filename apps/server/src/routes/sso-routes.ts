import {
  accountingPackageNames,
  connectorAuthorisationUrl,
  type SingleSignOnProvider,
  singleSignOn,
  singleSignOnCallback,
  singleSignUp,
  singleSignUpCallback,
} from "@varia/contracts";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { createOrganisation } from "../admin/organisations";
import { hashSecret, randomSecret, safeEqual } from "../auth/secret-tokens";
import { startSession, tenantSiteUrl } from "../auth/sign-in";
import { finishAuthorization, startAuthorization, type VerifiedIdentity } from "../auth/sso";
import { AppError } from "../errors";
import {
  type AuthContext,
  findOrganisationByTenant,
  type LoginMethod,
  requestTenant,
} from "../http/auth-context";
import { registerContract } from "../http/contract-route";
import type { AppDeps } from "../http/deps";
import { tenantFromHost } from "../tenancy";

const stateCookie = "varia_sso";
const stateLifetimeMs = 10 * 60_000;
const failedMessage = "Single sign-on failed, please try again";
const missingProvider = "The parameter 'provider' must be defined.";

type Kind = "SingleSignOnCallback" | "SingleSignUpCallback";

/** A refused sign-in: logged with its reason, shown to the user as `shown`. */
class SsoRefusal extends Error {
  constructor(
    reason: string,
    readonly shown: string = failedMessage,
  ) {
    super(reason);
  }
}

/**
 * Single sign-on and sign-up (docs/security.md, "Single sign-on") with OpenID Connect: the authorization code flow
 * with PKCE (S256), state and nonce, redirect URIs built from configuration (exact), ID tokens
 * checked by openid-client, and users keyed by (issuer, sub), never by e-mail. The state is bound
 * to the browser by a cookie and used once.
 */
export async function ssoRoutes(app: FastifyInstance, deps: AppDeps) {
  const { db, config } = deps;
  const clients = deps.integrations.ssoClients;

  const notConfigured = (provider: string) =>
    new AppError("NotFound", `Single sign-on with ${provider} is not configured`);

  /** The exact redirect URI: the tenant's site for a sign-in there, else the public address. */
  function callbackUri(kind: Kind, provider: SingleSignOnProvider, tenant: string | null) {
    const base = tenant ? tenantSiteUrl(config, tenant) : config.publicUrl;
    return `${base}/api/Auth/${kind}/${provider}`;
  }

  function setStateCookie(reply: FastifyReply, value: string, maxAgeSeconds: number) {
    reply.setCookie(stateCookie, value, {
      path: "/api/Auth/",
      httpOnly: true,
      sameSite: "lax",
      secure: config.secureCookies,
      maxAge: maxAgeSeconds,
    });
  }

  async function begin(
    request: FastifyRequest,
    reply: FastifyReply,
    provider: SingleSignOnProvider,
    kind: Kind,
    auth: AuthContext | null,
  ) {
    const signUp = kind === "SingleSignUpCallback";
    // A browser navigation: the visitor goes back to the page they came from, told why.
    if (!clients.isConfigured(provider)) {
      const shown = signUp
        ? `Sign-up with ${provider === "Intuit" ? accountingPackageNames.Quickbooks : provider} is not available on this server`
        : notConfigured(provider).message;
      return reply.redirect(`${signUp ? "/sign-up" : "/"}?error=${encodeURIComponent(shown)}`, 302);
    }
    const explicit = tenantFromHost(request.headers.host);
    const redirectUri = callbackUri(kind, provider, signUp ? null : explicit);
    const link = !signUp && auth && auth.method !== "ApiToken" ? auth : null;
    const url = await startFlow(reply, provider, redirectUri, {
      purpose: signUp ? "signUp" : link ? "link" : "signIn",
      tenant: signUp ? null : requestTenant(request, config.defaultTenant).tenant,
      by: link,
    });
    return reply.redirect(url, 302);
  }

  /**
   * Starts a flow at the provider: its state, nonce and PKCE verifier kept (the state hashed), the
   * state cookie set on the browser; answers the provider's sign-in address.
   */
  async function startFlow(
    reply: FastifyReply,
    provider: SingleSignOnProvider,
    redirectUri: string,
    flow: {
      purpose: "signIn" | "signUp" | "link" | "connect";
      tenant: string | null;
      by: AuthContext | null;
    },
  ): Promise<string> {
    const settings = config.ssoProviders[provider]!;
    const start = await startAuthorization(await clients.get(provider), redirectUri, settings.scope);
    await db
      .insertInto("sso_states")
      .values({
        state_hash: hashSecret(start.state),
        provider,
        purpose: flow.purpose,
        tenant: flow.tenant,
        code_verifier: start.codeVerifier,
        nonce: start.nonce,
        link_organisation_id: flow.by?.organisation.id ?? null,
        link_user_id: flow.by?.user.id ?? null,
        expires_at: new Date(deps.now().getTime() + stateLifetimeMs),
        used_at: null,
      })
      .execute();
    setStateCookie(reply, start.state, stateLifetimeMs / 1000);
    return start.url.href;
  }

  /** Takes a state row once: unknown, expired, used or foreign states are refused. */
  async function takeState(value: string, purposes: string[], provider: string) {
    const now = deps.now();
    const row = await db
      .selectFrom("sso_states")
      .selectAll()
      .where("state_hash", "=", hashSecret(value))
      .executeTakeFirst();
    if (!row || row.used_at || new Date(row.expires_at).getTime() <= now.getTime())
      throw new SsoRefusal("unknown, expired or replayed state");
    if (row.provider !== provider || !purposes.includes(row.purpose))
      throw new SsoRefusal("state of another flow");
    const used = await db
      .updateTable("sso_states")
      .set({ used_at: now })
      .where("state_hash", "=", row.state_hash)
      .where("used_at", "is", null)
      .executeTakeFirst();
    if (Number(used.numUpdatedRows) !== 1) throw new SsoRefusal("replayed state");
    return row;
  }

  async function signInWith(
    reply: FastifyReply,
    provider: SingleSignOnProvider,
    organisationId: string,
    userId: string,
    previousSessionId: string | undefined,
  ) {
    await startSession(deps, reply, {
      organisationId,
      userId,
      method: `SingleSignOn${provider}` as LoginMethod,
      stayLoggedIn: false,
      previousSessionId,
    });
  }

  async function complete(
    kind: Kind,
    provider: SingleSignOnProvider,
    query: Record<string, unknown>,
    request: FastifyRequest,
    reply: FastifyReply,
    auth: AuthContext | null,
  ) {
    const cookie = request.cookies[stateCookie];
    reply.clearCookie(stateCookie, { path: "/api/Auth/", secure: config.secureCookies });
    // Where a refusal sends the browser: the login view, or the page that started a connection.
    let back = "/";
    try {
      const explicit = tenantFromHost(request.headers.host);
      if (typeof query.handoff === "string" && kind === "SingleSignUpCallback") {
        // Second leg of a sign-up: on the new organisation's own site.
        const row = await takeState(query.handoff, ["handoff"], provider);
        const organisation = await findOrganisationByTenant(db, explicit);
        if (!organisation || organisation.id !== row.link_organisation_id)
          throw new SsoRefusal("handoff on another host");
        await signInWith(reply, provider, organisation.id, row.link_user_id!, auth?.sessionId);
        return reply.redirect("/sign-up/data", 302);
      }
      if (!clients.isConfigured(provider)) throw notConfigured(provider);
      const state = typeof query.state === "string" ? query.state : "";
      if (!state || !cookie || !safeEqual(state, cookie))
        throw new SsoRefusal("state does not match the browser");
      const signUp = kind === "SingleSignUpCallback";
      const row = await takeState(state, signUp ? ["signUp"] : ["signIn", "link", "connect"], provider);
      if (row.purpose === "connect") back = "/integration/overview";
      const tenant = requestTenant(request, config.defaultTenant).tenant;
      if (!signUp && row.tenant !== tenant) throw new SsoRefusal("state of another tenant");
      if (typeof query.error === "string") throw new SsoRefusal(`provider said ${query.error}`);
      const callbackUrl = new URL(callbackUri(kind, provider, signUp ? null : explicit));
      callbackUrl.search = new URL(request.url, "http://x").search;
      let identity: VerifiedIdentity;
      try {
        identity = await finishAuthorization(
          await clients.get(provider),
          callbackUrl,
          {
            state,
            nonce: row.nonce,
            codeVerifier: row.code_verifier,
          },
          deps.now(),
        );
      } catch (error) {
        throw new SsoRefusal(`token refused: ${(error as Error).message}`);
      }
      if (signUp) {
        const realmId = typeof query.realmId === "string" ? query.realmId : undefined;
        return await finishSignUp(reply, provider, identity, request, realmId);
      }

      const organisation = await findOrganisationByTenant(db, tenant);
      if (!organisation) throw new SsoRefusal("no organisation");
      if (row.purpose === "connect") {
        // A signed-in organisation connecting its accounting package (docs/integration.md, "Connecting later").
        if (row.link_organisation_id !== organisation.id)
          throw new SsoRefusal("connection of another organisation");
        const saved = await deps.integrations.saveSignUpConnection({
          organisationId: organisation.id,
          provider,
          issuer: identity.issuer,
          subject: identity.subject,
          grant: identity.grant,
          hint: typeof query.realmId === "string" ? query.realmId : undefined,
        });
        request.log.info(
          { organisation: organisation.tenant, provider, sources: saved?.sources ?? 0 },
          "accounting package connected",
        );
        return reply.redirect(back, 302);
      }
      if (row.purpose === "link") {
        if (row.link_organisation_id !== organisation.id)
          throw new SsoRefusal("link of another organisation");
        const taken = await db
          .selectFrom("user_identities")
          .select("user_id")
          .where("organisation_id", "=", organisation.id)
          .where("issuer", "=", identity.issuer)
          .where("subject", "=", identity.subject)
          .executeTakeFirst();
        if (taken && taken.user_id !== row.link_user_id)
          throw new SsoRefusal("identity linked to another user", "This sign-in is linked to another user");
        if (!taken)
          await db
            .insertInto("user_identities")
            .values({
              organisation_id: organisation.id,
              user_id: row.link_user_id!,
              issuer: identity.issuer,
              subject: identity.subject,
              email: identity.email,
            })
            .execute();
        request.log.info({ user: row.link_user_id, provider }, "single sign-on linked");
        return reply.redirect("/", 302);
      }
      const user = await db
        .selectFrom("user_identities")
        .innerJoin("users", (join) =>
          join
            .onRef("users.organisation_id", "=", "user_identities.organisation_id")
            .onRef("users.id", "=", "user_identities.user_id"),
        )
        .select("users.id")
        .where("user_identities.organisation_id", "=", organisation.id)
        .where("user_identities.issuer", "=", identity.issuer)
        .where("user_identities.subject", "=", identity.subject)
        .where("users.disabled_at", "is", null)
        .executeTakeFirst();
      if (!user)
        throw new SsoRefusal(
          "no linked user",
          "No account is linked to this sign-in. Sign in with your password first to link it.",
        );
      await signInWith(reply, provider, organisation.id, user.id, auth?.sessionId);
      request.log.info({ organisation: organisation.tenant, user: user.id, provider }, "signed in");
      return reply.redirect("/", 302);
    } catch (error) {
      if (error instanceof SsoRefusal) {
        request.log.warn({ provider, reason: error.message }, "single sign-on refused");
        return reply.redirect(`${back}?error=${encodeURIComponent(error.shown)}`, 302);
      }
      throw error;
    }
  }

  async function finishSignUp(
    reply: FastifyReply,
    provider: SingleSignOnProvider,
    identity: VerifiedIdentity,
    request: FastifyRequest,
    /** Intuit names the authorised company in its callback. */
    realmId: string | undefined,
  ) {
    const existing = await db
      .selectFrom("user_identities")
      .select("organisation_id")
      .where("issuer", "=", identity.issuer)
      .where("subject", "=", identity.subject)
      .executeTakeFirst();
    if (existing)
      throw new SsoRefusal("already signed up", "This account already has an organisation: sign in instead");
    if (!identity.email) throw new SsoRefusal("no e-mail claim");
    const domain = identity.email.split("@")[1] ?? "organisation";
    const base =
      (domain.split(".")[0] ?? "org")
        .replace(/[^a-z0-9-]/gi, "")
        .toLowerCase()
        .slice(0, 40) || "org";
    const tenant = `${base}-${randomSecret(16)
      .replace(/[^a-z0-9]/gi, "")
      .toLowerCase()
      .slice(0, 6)}`;
    const created = await createOrganisation(db, {
      tenant,
      name: domain,
      adminEmail: identity.email,
      adminName: identity.name ?? identity.email.split("@")[0],
    });
    await db
      .updateTable("organisations")
      .set({ sign_up_step: "Data" })
      .where("id", "=", created.organisationId)
      .execute();
    await db
      .insertInto("user_identities")
      .values({
        organisation_id: created.organisationId,
        user_id: created.adminUserId,
        issuer: identity.issuer,
        subject: identity.subject,
        email: identity.email,
      })
      .execute();
    // An accounting provider's grant becomes the organisation's connection (docs/integration.md#sign-up).
    const connection = await deps.integrations.saveSignUpConnection({
      organisationId: created.organisationId,
      provider,
      issuer: identity.issuer,
      subject: identity.subject,
      grant: identity.grant,
      hint: realmId,
    });
    const handoff = randomSecret(32);
    await db
      .insertInto("sso_states")
      .values({
        state_hash: hashSecret(handoff),
        provider,
        purpose: "handoff",
        tenant,
        code_verifier: "",
        nonce: "",
        link_organisation_id: created.organisationId,
        link_user_id: created.adminUserId,
        expires_at: new Date(deps.now().getTime() + 60_000),
        used_at: null,
      })
      .execute();
    request.log.info(
      { organisation: tenant, provider, dataSources: connection?.sources },
      "organisation signed up",
    );
    return reply.redirect(
      `${tenantSiteUrl(config, tenant)}/api/Auth/SingleSignUpCallback/${provider}?handoff=${handoff}`,
      302,
    );
  }

  const signUpProvider = (p: string): SingleSignOnProvider =>
    p === "Quickbooks" ? "Intuit" : (p as SingleSignOnProvider);

  registerContract(app, deps, singleSignOn, ({ params, request, reply, auth }) =>
    begin(request, reply, params.provider, "SingleSignOnCallback", auth),
  );
  registerContract(app, deps, singleSignUp, ({ params, request, reply }) =>
    begin(request, reply, signUpProvider(params.provider), "SingleSignUpCallback", null),
  );
  // A signed-in organisation connecting QuickBooks or Xero: the provider's sign-in address, whose
  // answer comes to the sign-in's callback with a state of purpose 'connect'.
  registerContract(app, deps, connectorAuthorisationUrl, async ({ params, request, reply, auth }) => {
    const provider = signUpProvider(params.integrationType);
    if (!clients.isConfigured(provider))
      throw new AppError(
        "NotFound",
        `Connecting ${accountingPackageNames[params.integrationType]} is not available on this server`,
      );
    const redirectUri = callbackUri("SingleSignOnCallback", provider, tenantFromHost(request.headers.host));
    const url = await startFlow(reply, provider, redirectUri, {
      purpose: "connect",
      tenant: auth!.organisation.tenant,
      by: auth,
    });
    return { url };
  });
  registerContract(app, deps, singleSignOnCallback, ({ params, query, request, reply, auth }) =>
    complete("SingleSignOnCallback", params.provider, query, request, reply, auth),
  );
  registerContract(app, deps, singleSignUpCallback, ({ params, query, request, reply, auth }) =>
    complete("SingleSignUpCallback", params.provider, query, request, reply, auth),
  );
  for (const path of ["SingleSignOn", "SingleSignUp", "SingleSignOnCallback", "SingleSignUpCallback"]) {
    app.get(`/api/Auth/${path}`, async () => {
      throw new AppError("BadRequest", missingProvider, [{ field: "provider", message: missingProvider }]);
    });
    app.get(`/api/Auth/${path}/`, async () => {
      throw new AppError("BadRequest", missingProvider, [{ field: "provider", message: missingProvider }]);
    });
  }
}
