import { createHash } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { exportJWK, generateKeyPair, type JWK, SignJWT } from "jose";
import Provider, { type Configuration } from "oidc-provider";

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function rsaJwk(kid: string) {
  const { privateKey, publicKey } = await generateKeyPair("RS256", { extractable: true });
  const jwk = { ...(await exportJWK(privateKey)), kid, alg: "RS256", use: "sig" } as JWK;
  return { privateKey, publicJwk: { ...(await exportJWK(publicKey)), kid, alg: "RS256", use: "sig" }, jwk };
}

/**
 * A real OpenID provider (`oidc-provider`) on a free port. Its interaction step signs in
 * `nextAccount` at once (no login page). With `refreshTokens`, it issues refresh tokens as the
 * accounting providers do (without asking for `offline_access`) and takes the refresh grant.
 */
export async function startOidcProvider(client: {
  clientId: string;
  clientSecret: string;
  redirectUris: string[];
  refreshTokens?: boolean;
}) {
  let provider: Provider | undefined;
  const state = { nextAccount: "alice" };
  const server = createServer((req: IncomingMessage, res: ServerResponse): void => {
    if (!provider) {
      res.end();
      return;
    }
    if (req.url?.startsWith("/interaction/")) {
      void (async () => {
        const details = await provider!.interactionDetails(req, res);
        const grant = new provider!.Grant({
          accountId: state.nextAccount,
          clientId: String(details.params.client_id),
        });
        grant.addOIDCScope("openid email profile");
        const grantId = await grant.save();
        await provider!.interactionFinished(
          req,
          res,
          { login: { accountId: state.nextAccount }, consent: { grantId } },
          { mergeWithLastSubmission: false },
        );
      })().catch((error: Error) => {
        res.statusCode = 500;
        res.end(error.message);
      });
      return;
    }
    provider.callback()(req, res);
  });
  const issuer = await listen(server);
  const key = await rsaJwk("op-key");
  const configuration: Configuration = {
    clients: [
      {
        client_id: client.clientId,
        client_secret: client.clientSecret,
        redirect_uris: client.redirectUris,
        grant_types: client.refreshTokens ? ["authorization_code", "refresh_token"] : ["authorization_code"],
        response_types: ["code"],
        token_endpoint_auth_method: "client_secret_basic",
      },
    ],
    jwks: { keys: [key.jwk] },
    ...(client.refreshTokens
      ? { issueRefreshToken: async (_ctx, c) => c.grantTypeAllowed("refresh_token") }
      : {}),
    cookies: { keys: ["test cookie key"] },
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"] },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    findAccount: (_ctx, id) => ({
      accountId: id,
      claims: () => ({ sub: id, email: `${id}@bigcorp.example.com`, email_verified: true, name: id }),
    }),
  };
  provider = new Provider(issuer, configuration);
  return {
    issuer,
    state,
    /** Whether `token` is an access token this provider issued (as a provider's API checks it). */
    hasIssued: async (token: string) => Boolean(await provider?.AccessToken.find(token)),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type ForgeMode = "good" | "wrongIssuer" | "wrongAudience" | "badNonce" | "algNone" | "badSignature";

/**
 * A minimal provider that answers the code flow with an ID token forged as `mode` says: the
 * tokens a client must refuse. It checks PKCE like a real one.
 */
export async function startForgingProvider(clientId: string) {
  const key = await rsaJwk("forger-key");
  const otherKey = await rsaJwk("forger-key");
  const state = { mode: "good" as ForgeMode, subject: "forged-sub" };
  const pending = new Map<string, { nonce: string; challenge: string }>();
  let issuer = "";
  const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", issuer);
    const json = (value: unknown) => {
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify(value));
    };
    if (url.pathname === "/.well-known/openid-configuration")
      return json({
        issuer,
        authorization_endpoint: `${issuer}/authorize`,
        token_endpoint: `${issuer}/token`,
        jwks_uri: `${issuer}/jwks`,
        response_types_supported: ["code"],
        subject_types_supported: ["public"],
        id_token_signing_alg_values_supported: ["RS256"],
        code_challenge_methods_supported: ["S256"],
      });
    if (url.pathname === "/jwks") return json({ keys: [key.publicJwk] });
    if (url.pathname === "/authorize") {
      const code = `code-${pending.size + 1}`;
      pending.set(code, {
        nonce: url.searchParams.get("nonce") ?? "",
        challenge: url.searchParams.get("code_challenge") ?? "",
      });
      const back = new URL(url.searchParams.get("redirect_uri") ?? "");
      back.searchParams.set("code", code);
      back.searchParams.set("state", url.searchParams.get("state") ?? "");
      res.statusCode = 302;
      res.setHeader("location", back.href);
      return res.end();
    }
    if (url.pathname === "/token") {
      let body = "";
      req.on("data", (chunk: Buffer) => {
        body += chunk.toString();
      });
      req.on("end", () => {
        void (async () => {
          const form = new URLSearchParams(body);
          const grant = pending.get(form.get("code") ?? "");
          const verifier = form.get("code_verifier") ?? "";
          const challenge = createHash("sha256").update(verifier).digest("base64url");
          if (!grant || challenge !== grant.challenge) {
            res.statusCode = 400;
            return json({ error: "invalid_grant" });
          }
          const now = Math.floor(Date.now() / 1000);
          const claims = {
            iss: state.mode === "wrongIssuer" ? "https://evil.example.com" : issuer,
            aud: state.mode === "wrongAudience" ? "someone-else" : clientId,
            sub: state.subject,
            nonce: state.mode === "badNonce" ? "not-the-nonce" : grant.nonce,
            email: "forged@bigcorp.example.com",
            iat: now,
            exp: now + 300,
          };
          const idToken =
            state.mode === "algNone"
              ? `${b64({ alg: "none", typ: "JWT" })}.${b64(claims)}.`
              : await new SignJWT(claims)
                  .setProtectedHeader({ alg: "RS256", kid: "forger-key" })
                  .sign(state.mode === "badSignature" ? otherKey.privateKey : key.privateKey);
          json({ access_token: "at", token_type: "Bearer", expires_in: 300, id_token: idToken });
        })();
      });
      return;
    }
    res.statusCode = 404;
    res.end();
  });
  issuer = await listen(server);
  return { issuer, state, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** Follows the provider's redirects (keeping its cookies) until it sends the browser back to Varia. */
export async function followToVaria(start: string, isVaria: (url: URL) => boolean): Promise<URL> {
  const jar = new Map<string, string>();
  let url = new URL(start);
  for (let hop = 0; hop < 20; hop++) {
    if (isVaria(url)) return url;
    const response = await fetch(url, {
      redirect: "manual",
      headers: { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join("; ") },
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const [name, ...rest] = (pair ?? "").split("=");
      if (name) jar.set(name.trim(), rest.join("="));
    }
    const location = response.headers.get("location");
    if (!location)
      throw new Error(`the provider stopped at ${url} with ${response.status}: ${await response.text()}`);
    url = new URL(location, url);
  }
  throw new Error("too many redirects");
}
