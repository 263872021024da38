import * as client from "openid-client";
import type { ServerConfig, SsoProviderName } from "../config";

/**
 * OpenID Connect clients of the configured providers, discovered once (a failed discovery is
 * tried again on the next sign-in). ID tokens are checked by openid-client: issuer, audience,
 * nonce, expiry, and (with non-repudiation checks on) the signature against the provider's keys,
 * which also refuses `alg: none`.
 */
export class SsoClients {
  private readonly configs = new Map<SsoProviderName, Promise<client.Configuration>>();
  constructor(private readonly config: Pick<ServerConfig, "ssoProviders">) {}

  isConfigured(provider: SsoProviderName): boolean {
    return this.config.ssoProviders[provider] !== undefined;
  }

  get(provider: SsoProviderName): Promise<client.Configuration> {
    let pending = this.configs.get(provider);
    if (!pending) {
      const settings = this.config.ssoProviders[provider];
      if (!settings) throw new Error(`Single sign-on with ${provider} is not configured`);
      const issuer = new URL(settings.issuer);
      // Plain http only for a provider on this machine (tests, local development).
      const loopback =
        issuer.protocol === "http:" && ["127.0.0.1", "localhost", "[::1]"].includes(issuer.hostname);
      pending = client
        .discovery(issuer, settings.clientId, undefined, client.ClientSecretBasic(settings.clientSecret), {
          execute: [...(loopback ? [client.allowInsecureRequests] : []), client.enableNonRepudiationChecks],
        })
        .catch((error: unknown) => {
          this.configs.delete(provider);
          throw error;
        });
      this.configs.set(provider, pending);
    }
    return pending;
  }
}

export interface AuthorizationStart {
  url: URL;
  state: string;
  nonce: string;
  codeVerifier: string;
}

/** The provider's authorization address, with PKCE (S256), state and nonce. */
export async function startAuthorization(
  config: client.Configuration,
  redirectUri: string,
  scope: string,
): Promise<AuthorizationStart> {
  const codeVerifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const nonce = client.randomNonce();
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri,
    scope,
    response_type: "code",
    code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: "S256",
    state,
    nonce,
  });
  return { url, state, nonce, codeVerifier };
}

/**
 * The provider's tokens of a sign-in: an accounting provider's become the organisation's connection
 * (docs/integration.md, "Connections and tokens"). Secrets: never logged, stored encrypted.
 */
export interface ProviderGrant {
  accessToken: string;
  refreshToken: string | null;
  /** When the access token expires, if the provider said. */
  expiresAt: Date | null;
}

export interface VerifiedIdentity {
  issuer: string;
  subject: string;
  email: string | null;
  name: string | null;
  grant: ProviderGrant;
}

function grantOf(tokens: client.TokenEndpointResponse & client.TokenEndpointResponseHelpers, now: Date) {
  const expiresIn = tokens.expiresIn();
  return {
    accessToken: tokens.access_token,
    refreshToken: tokens.refresh_token ?? null,
    expiresAt: expiresIn === undefined ? null : new Date(now.getTime() + expiresIn * 1000),
  };
}

/**
 * A new access token by the refresh grant at the same provider. A provider that sends no new
 * refresh token keeps the old one valid: it is kept.
 */
export async function refreshGrant(
  config: client.Configuration,
  refreshToken: string,
  now: Date,
): Promise<ProviderGrant> {
  const tokens = await client.refreshTokenGrant(config, refreshToken);
  const grant = grantOf(tokens, now);
  return { ...grant, refreshToken: grant.refreshToken ?? refreshToken };
}

/** Exchanges the code and checks the ID token; throws on anything amiss. */
export async function finishAuthorization(
  config: client.Configuration,
  callbackUrl: URL,
  checks: { state: string; nonce: string; codeVerifier: string },
  now: Date = new Date(),
): Promise<VerifiedIdentity> {
  const tokens = await client.authorizationCodeGrant(config, callbackUrl, {
    pkceCodeVerifier: checks.codeVerifier,
    expectedState: checks.state,
    expectedNonce: checks.nonce,
    idTokenExpected: true,
  });
  const claims = tokens.claims();
  if (!claims) throw new Error("no ID token");
  let email = typeof claims.email === "string" ? claims.email : null;
  let name = typeof claims.name === "string" ? claims.name : null;
  // Providers may keep e-mail and name out of the ID token: the userinfo answer (for the same
  // subject, checked by openid-client) completes them. Identity stays (issuer, sub) either way.
  if ((!email || !name) && config.serverMetadata().userinfo_endpoint) {
    const info = await client.fetchUserInfo(config, tokens.access_token, claims.sub);
    email ??= typeof info.email === "string" ? info.email : null;
    name ??= typeof info.name === "string" ? info.name : null;
  }
  return { issuer: claims.iss, subject: claims.sub, email, name, grant: grantOf(tokens, now) };
}
