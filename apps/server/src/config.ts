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
  /** The address users reach the product at; links in e-mails are built from it, never from Host. */
  readonly publicUrl: string;
  /** The tenant used when the host names none (a bare `localhost` or an IP address). */
  readonly defaultTenant: string | undefined;
  readonly webDist: string;
  readonly secureCookies: boolean;
  readonly logLevel: string;
  /** Sets the demo admin's password on first start instead of generating one. */
  readonly demoAdminPassword: string | undefined;
}

const repoRoot = resolve(import.meta.dirname, "..", "..", "..");

function flag(value: string | undefined): boolean {
  return value !== undefined && /^(1|true|yes|on)$/i.test(value);
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
    publicUrl,
    defaultTenant: env.VARIA_DEFAULT_TENANT === "" ? undefined : (env.VARIA_DEFAULT_TENANT ?? "demo"),
    webDist: resolve(env.VARIA_WEB_DIST ?? resolve(repoRoot, "apps", "web", "dist")),
    secureCookies: publicUrl.startsWith("https://"),
    logLevel: env.LOG_LEVEL ?? "info",
    demoAdminPassword: env.VARIA_DEMO_ADMIN_PASSWORD || undefined,
  };
}
