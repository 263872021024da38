import { createHash } from "node:crypto";
import { existsSync, readFileSync, statSync } from "node:fs";
import { join, sep } from "node:path";
import fastifyCookie from "@fastify/cookie";
import fastifyStatic from "@fastify/static";
import { contracts } from "@varia/contracts";
import type { FastifyInstance, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import { sql } from "kysely";
import type { ServerConfig } from "./config";
import { AppError } from "./errors";
import { type AuthContext, resolveAuth } from "./http/auth-context";
import type { AppDeps } from "./http/deps";
import { registerMetrics } from "./http/metrics";
import { buildOpenApi } from "./http/openapi";
import { accountRoutes } from "./routes/account-routes";
import { analyticsRoutes } from "./routes/analytics-routes";
import { connectionRoutes } from "./routes/connection-routes";
import { demoRoutes } from "./routes/demo-routes";
import { exclusionRoutes } from "./routes/exclusion-routes";
import { exportRoutes } from "./routes/export-routes";
import { frontEndRoutes } from "./routes/front-end-routes";
import { importRoutes } from "./routes/import-routes";
import { integrationRoutes } from "./routes/integration-routes";
import { loginRoutes } from "./routes/login-routes";
import { organisationSettingsRoutes } from "./routes/organisation-settings-routes";
import { passwordRoutes } from "./routes/password-routes";
import { reportRoutes } from "./routes/report-routes";
import { roleRoutes } from "./routes/role-routes";
import { ssoRoutes } from "./routes/sso-routes";
import { systemRoutes } from "./routes/system-routes";
import { tokenRoutes } from "./routes/token-routes";
import { userRoutes } from "./routes/user-routes";
import { varianceRoutes } from "./routes/variance-routes";

declare module "fastify" {
  interface FastifyRequest {
    /** The caller, resolved once per request on first use. */
    resolveAuth(): Promise<AuthContext | null>;
  }
}

/**
 * The pages' content security policy: the app's own files only, and, when a captcha site key is
 * configured, reCAPTCHA's script origin (with Google's, the origins its script loads from).
 */
function contentSecurityPolicy(config: ServerConfig): string {
  const captcha = config.recaptchaSite ? new URL(config.recaptchaSite.scriptUrl).origin : null;
  const google = captcha === "https://www.google.com" ? " https://www.gstatic.com" : "";
  const extra = captcha ? ` ${captcha}${google}` : "";
  return [
    "default-src 'self'",
    `script-src 'self'${extra}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    `connect-src 'self'${extra}`,
    ...(captcha ? [`frame-src ${captcha}`] : []),
    "frame-ancestors 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "object-src 'none'",
  ].join("; ");
}

/** A configured value inside an HTML attribute of the page. */
const escapeAttribute = (value: string) =>
  value.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** Sent on every answer (docs/security.md, "Response headers"). */
const securityHeaders: Record<string, string> = {
  "x-content-type-options": "nosniff",
  "x-frame-options": "DENY",
  "referrer-policy": "same-origin",
  "cross-origin-opener-policy": "same-origin",
  "permissions-policy": "camera=(), microphone=(), geolocation=(), payment=(), usb=()",
};

const safeMethods = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * API-token callers of reading calls, remembered for a second: scripts and dashboards call in bursts,
 * and on PGlite every query of the process runs on one thread. Only successful resolutions are kept,
 * keyed by a hash of the Authorization header and the host; writing calls always resolve afresh and
 * clear the memory, so a token revoked, a user disabled or a role changed through this server counts
 * at once (through another server process, within the second).
 */
function recentTokenCallers(ttlMs = 1000, limit = 1000) {
  const callers = new Map<string, { until: number; auth: Promise<AuthContext | null> }>();
  return {
    resolve(request: FastifyRequest, load: () => Promise<AuthContext | null>) {
      const authorization = request.headers.authorization;
      if (!authorization || !safeMethods.has(request.method)) return load();
      const key = createHash("sha256")
        .update(`${request.headers.host ?? ""} ${authorization}`)
        .digest("hex");
      const now = performance.now();
      const known = callers.get(key);
      if (known && known.until > now) return known.auth;
      const auth = load();
      if (callers.size >= limit) callers.clear();
      callers.set(key, { until: now + ttlMs, auth });
      auth.then(
        (caller) => {
          if (!caller) callers.delete(key);
        },
        () => callers.delete(key),
      );
      return auth;
    },
    clear() {
      callers.clear();
    },
  };
}

/** The Varia application as a Fastify plugin: every route of the API plus the web app. */
export const app = fp(
  async (fastify: FastifyInstance, deps: AppDeps) => {
    const csp = contentSecurityPolicy(deps.config);
    await fastify.register(fastifyCookie);

    const authCache = new WeakMap<FastifyRequest, Promise<AuthContext | null>>();
    const tokenCallers = recentTokenCallers();
    fastify.decorateRequest("resolveAuth", function (this: FastifyRequest) {
      let pending = authCache.get(this);
      if (!pending) {
        pending = tokenCallers.resolve(this, () => resolveAuth(deps.db, this, deps.config, deps.now()));
        authCache.set(this, pending);
      }
      return pending;
    });
    // Any change made through this server may concern a caller (tokens, users, roles): forget them.
    fastify.addHook("onResponse", async (request) => {
      if (!safeMethods.has(request.method)) tokenCallers.clear();
    });

    fastify.addHook("onSend", async (request, reply, payload) => {
      for (const [name, value] of Object.entries(securityHeaders)) reply.header(name, value);
      reply.header("content-security-policy", csp);
      if (deps.config.secureCookies)
        reply.header("strict-transport-security", "max-age=31536000; includeSubDomains");
      if (request.url.startsWith("/api/")) reply.header("cache-control", "no-store");
      // Reset and set-password addresses carry a secret: never send them on as a Referer.
      if (/^\/(passwordReset|passwordSet|verify)(\/|\?|$)/.test(request.url))
        reply.header("referrer-policy", "no-referrer");
      return payload;
    });

    fastify.setErrorHandler((error: Error & { statusCode?: number; code?: string }, request, reply) => {
      if (error instanceof AppError) {
        if (error.headers) reply.headers(error.headers);
        return reply
          .code(error.status)
          .send({ message: error.message, code: error.code, errors: error.errors });
      }
      const status = error.statusCode ?? 500;
      if (status < 500) {
        const message =
          error.code === "FST_ERR_CTP_INVALID_MEDIA_TYPE" ? "Unsupported content type" : error.message;
        return reply.code(status).send({ message, code: error.code });
      }
      request.log.error({ err: error }, "request failed");
      return reply.code(500).send({ message: "An unexpected server error occurred." });
    });

    registerMetrics(fastify, deps.config.metricsToken);
    fastify.get("/healthz", async () => ({ status: "ok" }));
    fastify.get("/readyz", async (_request, reply) => {
      try {
        await sql`select 1`.execute(deps.db);
        return { status: "ready" };
      } catch {
        return reply.code(503).send({ status: "unavailable" });
      }
    });
    const openApi = buildOpenApi(Object.values(contracts), "0.1.0");
    fastify.get("/api/openapi.json", async () => openApi);

    await fastify.register(async (api) => {
      await accountRoutes(api, deps);
      await loginRoutes(api, deps);
      await passwordRoutes(api, deps);
      await demoRoutes(api, deps);
      await ssoRoutes(api, deps);
      await roleRoutes(api, deps);
      await tokenRoutes(api, deps);
      await userRoutes(api, deps);
      await importRoutes(api, deps);
      await integrationRoutes(api, deps);
      await connectionRoutes(api, deps);
      await exportRoutes(api, deps);
      await varianceRoutes(api, deps);
      await analyticsRoutes(api, deps);
      await reportRoutes(api, deps);
      await exclusionRoutes(api, deps);
      await organisationSettingsRoutes(api, deps);
      await systemRoutes(api, deps);
      await frontEndRoutes(api, deps);
    });

    const indexPath = join(deps.config.webDist, "index.html");
    const site = deps.config.recaptchaSite;
    const captchaMeta = site
      ? `<meta name="varia-recaptcha-site-key" content="${escapeAttribute(site.siteKey)}" />` +
        `<meta name="varia-recaptcha-script" content="${escapeAttribute(site.scriptUrl)}" />`
      : "";
    const hasWeb = existsSync(indexPath);
    // The page tells the web app its mode (docs/security.md, "Modes": demo mode is set by the environment). It is read
    // again when a new build replaces it, so a rebuild never strands the running server.
    let index = { mtimeMs: -1, html: "" };
    const indexHtml = () => {
      const { mtimeMs } = statSync(indexPath);
      if (mtimeMs !== index.mtimeMs) {
        const html = readFileSync(indexPath, "utf8").replace(
          "</head>",
          `<meta name="varia-demo-mode" content="${deps.config.demoMode}" />` +
            captchaMeta +
            `<meta name="varia-testbed" content="${deps.config.testbed}" /></head>`,
        );
        index = { mtimeMs, html };
      }
      return index.html;
    };
    const assetsDir = join(deps.config.webDist, "assets") + sep;
    if (hasWeb) {
      // Files only: a folder (such as "/") is left to the page fallback below. Source maps, which a
      // build may keep beside its bundles, are never served: they would hand out the source.
      await fastify.register(fastifyStatic, {
        root: deps.config.webDist,
        wildcard: true,
        index: false,
        allowedPath: (pathName) => pathName !== "/" && !pathName.endsWith("/") && !/\.map$/i.test(pathName),
        // A bundle's name carries a hash of its content (docs/behaviour.md#shell-and-start-up): a
        // browser keeps it for a year without asking again, which spares a page load a round trip
        // per chunk. Other files (the favicon) are asked again each time.
        setHeaders: (reply, filePath) => {
          if (filePath.startsWith(assetsDir))
            reply.header("cache-control", "public, max-age=31536000, immutable");
        },
      });
    }
    fastify.setNotFoundHandler((request, reply) => {
      const path = request.url.split("?")[0] ?? "";
      // HEAD as GET (its body is never sent): uptime checks and link previews ask a page with HEAD.
      const isPage =
        (request.method === "GET" || request.method === "HEAD") &&
        !path.startsWith("/api/") &&
        !path.startsWith("/assets/");
      if (isPage && hasWeb) {
        return reply.type("text/html; charset=utf-8").header("cache-control", "no-cache").send(indexHtml());
      }
      if (isPage) {
        return reply
          .code(404)
          .type("text/plain")
          .send("The web app is not built: run npm run build -w @varia/web");
      }
      return reply.code(404).send({ message: "Not found" });
    });
  },
  { name: "varia-app" },
);
