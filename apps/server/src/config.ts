import { resolve } from "node:path";

/** Everything the server reads from its environment; read here once and passed down. */
export interface ServerConfig {
  readonly port: number;
  readonly host: string;
  /** Root of the server's local files: `data/` (PGlite), `outbox/`, the admin socket and owner lock. */
  readonly dataDir: string;
  /** A PostgreSQL server; when absent, the embedded PGlite under `dataDir/data`. */
  readonly databaseUrl: string | undefined;
  readonly demoMode: boolean;
  /** Loads the generated demo business into the `demo` organisation on first start (default on). */
  readonly seedDemoData: boolean;
  /** Serves the developer-only component gallery at /testbed (docs/behaviour.md, "Routes"). */
  readonly testbed: boolean;
  /** The address users reach the product at; links in e-mails are built from it, never from Host. */
  readonly publicUrl: string;
  /** The tenant used when the host names none (a bare `localhost` or an IP address). */
  readonly defaultTenant: string | undefined;
  readonly webDist: string;
  readonly secureCookies: boolean;
  readonly logLevel: string;
  /** Sets the demo admin's password on first start instead of generating one. */
  readonly demoAdminPassword: string | undefined;
  /** Outgoing mail server (`smtp://user:pass@host:port`); without it mail goes to `dataDir/outbox/`. */
  readonly smtpUrl: string | undefined;
  readonly mailFrom: string;
  /** Where Demo/ContactUs messages are sent. */
  readonly contactEmail: string;
  /** reCAPTCHA v3: checked server-side when the secret is set, skipped otherwise. */
  readonly recaptcha: { secret: string; verifyUrl: string; minScore: number } | undefined;
  /**
   * The browser's side of reCAPTCHA v3 (`RECAPTCHA_SITE_KEY`, and `RECAPTCHA_SCRIPT_URL` for a proxy
   * or a test's stand-in): the page tells the web app both, and the page's content security policy
   * admits the script's origin. Without a site key the web app asks for no captcha token.
   */
  readonly recaptchaSite: { siteKey: string; scriptUrl: string } | undefined;
  /** E-mail domains refused for a demo (not business addresses). */
  readonly demoBlockedDomains: readonly string[];
  /** OpenID Connect providers for single sign-on and sign-up, one env group per provider. */
  readonly ssoProviders: Readonly<Partial<Record<SsoProviderName, SsoProviderConfig>>>;
  /** Calls per IP address and 15 minutes on the public sign-in, reset and demo endpoints. */
  readonly authRateLimitPerIp: number;
  /**
   * Which proxies to believe about the client's address (X-Forwarded-For): `VARIA_TRUST_PROXY` =
   * `true`, or comma-separated addresses/CIDRs. Off by default: behind a load balancer, set it, or the
   * per-address limits see one address for everyone.
   */
  readonly trustProxy: boolean | string;
  /**
   * How long a stopping server waits for running requests and the running import job
   * (`VARIA_SHUTDOWN_GRACE_MS`, default 10 s): then it cuts the connections still open, and the job
   * is run again at the next start (an import is one transaction). `varia-server start` exits at the
   * latest 5 s after that, whatever is still stuck.
   */
  readonly shutdownGraceMs: number;
  /**
   * The operator's token for `/metrics` (`VARIA_METRICS_TOKEN`, at least 32 characters), sent as
   * `Authorization: Bearer <token>`. Without it the server serves no metrics.
   */
  readonly metricsToken: string | undefined;
  /**
   * The accounting packages' API addresses (docs/integration.md): `VARIA_QUICKBOOKS_API_URL`
   * (default https://quickbooks.api.intuit.com) and `VARIA_XERO_API_URL` (default https://api.xero.com).
   */
  readonly accountingApiUrls: { readonly Quickbooks: string; readonly Xero: string };
  /**
   * Where a disconnection revokes a connection's grant (docs/integration.md, "Disconnecting"):
   * `VARIA_QUICKBOOKS_REVOCATION_URL` (default https://developer.api.intuit.com/v2/oauth2/tokens/revoke)
   * and `VARIA_XERO_REVOCATION_URL` (default https://identity.xero.com/connect/revocation).
   */
  readonly accountingRevocationUrls: { readonly Quickbooks: string; readonly Xero: string };
}

export const ssoProviderNames = ["Google", "Intuit", "Microsoft", "Xero"] as const;
export type SsoProviderName = (typeof ssoProviderNames)[number];

export interface SsoProviderConfig {
  /** The issuer of the provider's discovery document (`<issuer>/.well-known/openid-configuration`). */
  readonly issuer: string;
  readonly clientId: string;
  readonly clientSecret: string;
  readonly scope: string;
}

const defaultIssuers: Record<SsoProviderName, string> = {
  Google: "https://accounts.google.com",
  Intuit: "https://oauth.platform.intuit.com/op/v1",
  Microsoft: "https://login.microsoftonline.com/common/v2.0",
  Xero: "https://identity.xero.com",
};

/** `VARIA_SSO_<PROVIDER>_CLIENT_ID`, `_CLIENT_SECRET`, optional `_ISSUER` and `_SCOPE`. */
function ssoProviders(env: NodeJS.ProcessEnv): Partial<Record<SsoProviderName, SsoProviderConfig>> {
  const out: Partial<Record<SsoProviderName, SsoProviderConfig>> = {};
  for (const name of ssoProviderNames) {
    const prefix = `VARIA_SSO_${name.toUpperCase()}_`;
    const clientId = env[`${prefix}CLIENT_ID`];
    const clientSecret = env[`${prefix}CLIENT_SECRET`];
    if (!clientId || !clientSecret) continue;
    out[name] = {
      issuer: env[`${prefix}ISSUER`] || defaultIssuers[name],
      clientId,
      clientSecret,
      scope: env[`${prefix}SCOPE`] || "openid email profile",
    };
  }
  return out;
}

const repoRoot = resolve(import.meta.dirname, "..", "..", "..");

function flag(value: string | undefined): boolean {
  return value !== undefined && /^(1|true|yes|on)$/i.test(value);
}

function milliseconds(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value === "") return fallback;
  const ms = Number(value);
  if (!Number.isInteger(ms) || ms < 0)
    throw new Error(`${name} must be a whole number of milliseconds, not '${value}'`);
  return ms;
}

function trustProxy(value: string | undefined): boolean | string {
  if (!value || /^(0|false|no|off)$/i.test(value)) return false;
  return /^(true|yes|on)$/i.test(value) ? true : value;
}

function metricsToken(value: string | undefined): string | undefined {
  if (!value) return undefined;
  if (value.length < 32 || /\s/.test(value))
    throw new Error("VARIA_METRICS_TOKEN must be at least 32 characters without spaces");
  return value;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const port = Number(env.PORT ?? 8080);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`PORT must be a port number, not '${env.PORT}'`);
  const publicUrl = (env.VARIA_PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/$/, "");
  return {
    port,
    host: env.HOST ?? "0.0.0.0",
    dataDir: resolve(env.VARIA_DATA_DIR ?? resolve(repoRoot, ".varia")),
    databaseUrl: env.DATABASE_URL || undefined,
    demoMode: flag(env.VARIA_DEMO_MODE),
    testbed: flag(env.VARIA_TESTBED),
    seedDemoData: env.VARIA_SEED_DEMO === undefined || flag(env.VARIA_SEED_DEMO),
    publicUrl,
    defaultTenant: env.VARIA_DEFAULT_TENANT === "" ? undefined : (env.VARIA_DEFAULT_TENANT ?? "demo"),
    webDist: resolve(env.VARIA_WEB_DIST ?? resolve(repoRoot, "apps", "web", "dist")),
    secureCookies: publicUrl.startsWith("https://"),
    logLevel: env.LOG_LEVEL ?? "info",
    demoAdminPassword: env.VARIA_DEMO_ADMIN_PASSWORD || undefined,
    smtpUrl: env.SMTP_URL || undefined,
    mailFrom: env.VARIA_MAIL_FROM || "Varia <no-reply@varia.localhost>",
    contactEmail: env.VARIA_CONTACT_EMAIL || "sales@varia.localhost",
    recaptcha: env.RECAPTCHA_SECRET
      ? {
          secret: env.RECAPTCHA_SECRET,
          verifyUrl: env.RECAPTCHA_VERIFY_URL || "https://www.google.com/recaptcha/api/siteverify",
          minScore: Number(env.RECAPTCHA_MIN_SCORE ?? 0.5),
        }
      : undefined,
    recaptchaSite: env.RECAPTCHA_SITE_KEY
      ? {
          siteKey: env.RECAPTCHA_SITE_KEY,
          scriptUrl: env.RECAPTCHA_SCRIPT_URL || "https://www.google.com/recaptcha/api.js",
        }
      : undefined,
    demoBlockedDomains: (env.VARIA_DEMO_BLOCKED_DOMAINS ?? "gmail.com,yahoo.com,hotmail.com,outlook.com")
      .split(",")
      .map((d) => d.trim().toLowerCase())
      .filter(Boolean),
    ssoProviders: ssoProviders(env),
    authRateLimitPerIp: Number(env.VARIA_AUTH_RATE_LIMIT_PER_IP ?? 300),
    trustProxy: trustProxy(env.VARIA_TRUST_PROXY),
    shutdownGraceMs: milliseconds("VARIA_SHUTDOWN_GRACE_MS", env.VARIA_SHUTDOWN_GRACE_MS, 10_000),
    metricsToken: metricsToken(env.VARIA_METRICS_TOKEN),
    accountingApiUrls: {
      Quickbooks: (env.VARIA_QUICKBOOKS_API_URL || "https://quickbooks.api.intuit.com").replace(/\/$/, ""),
      Xero: (env.VARIA_XERO_API_URL || "https://api.xero.com").replace(/\/$/, ""),
    },
    accountingRevocationUrls: {
      Quickbooks:
        env.VARIA_QUICKBOOKS_REVOCATION_URL || "https://developer.api.intuit.com/v2/oauth2/tokens/revoke",
      Xero: env.VARIA_XERO_REVOCATION_URL || "https://identity.xero.com/connect/revocation",
    },
  };
}
