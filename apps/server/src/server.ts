import { join } from "node:path";
import Fastify, { type FastifyInstance } from "fastify";
import { dataChanged } from "./analytics/cube-cache";
import { app } from "./app";
import { getServerSecret } from "./auth/server-secret";
import { SsoClients } from "./auth/sso";
import { TokenCipher } from "./auth/token-cipher";
import type { ServerConfig } from "./config";
import { Integrations, queueScheduledImport } from "./connectors/connections";
import { type ConnectorRegistry, defaultConnectors } from "./connectors/index";
import { type Database, type DatabaseTarget, openDatabase } from "./db/database";
import { migrate } from "./db/migrate";
import type { AppDeps } from "./http/deps";
import { redactRequestUrl } from "./http/log-redaction";
import { type ImportQueue, openImportQueue } from "./imports/import-queue";
import { sweepUploads, uploadIdleMs } from "./imports/sweep-uploads";
import { createMailer, type Mailer } from "./mail/mailer";

/** Where the configuration says the data lives: PostgreSQL when DATABASE_URL is set, else PGlite. */
export function databaseTarget(config: ServerConfig): DatabaseTarget {
  return config.databaseUrl
    ? { kind: "postgres", url: config.databaseUrl }
    : { kind: "pglite", dataDir: join(config.dataDir, "data") };
}

declare module "fastify" {
  interface FastifyInstance {
    /** The server's import and restore jobs (pg-boss); stopped when the server closes. */
    jobs: ImportQueue;
  }
}

export interface ServerOptions {
  logger?: boolean;
  /** Where the JSON log lines go (default standard output); tests read them from here. */
  logStream?: { write(line: string): void };
  now?: () => Date;
  mailer?: Mailer;
  /** The accounting packages' connectors (docs/integration.md); tests pass stand-ins. */
  connectors?: ConnectorRegistry;
}

/** Builds the Fastify instance around an open, migrated database. */
export async function buildServer(
  config: ServerConfig,
  database: Database,
  options: ServerOptions = {},
): Promise<FastifyInstance> {
  const fastify = Fastify({
    logger:
      options.logger === false
        ? false
        : {
            level: config.logLevel,
            ...(options.logStream ? { stream: options.logStream } : {}),
            redact: ["req.headers.authorization", "req.headers.cookie", 'res.headers["set-cookie"]'],
            serializers: {
              req: (req) => ({
                method: req.method,
                url: redactRequestUrl(String(req.url)),
                host: req.headers?.host,
                remoteAddress: req.ip,
              }),
            },
          },
    bodyLimit: 1024 * 1024,
    trustProxy: config.trustProxy,
  });
  await sweepUploadsNowAndThen(fastify, config, database);
  const now = options.now ?? (() => new Date());
  const integrations = new Integrations({
    db: database.db,
    config,
    connectors: options.connectors ?? defaultConnectors,
    cipher: await TokenCipher.open(database.db),
    ssoClients: new SsoClients(config),
    now,
    log: fastify.log,
    withLock: (key, fn) => database.withAdvisoryLock(key, fn),
  });
  const mailer = options.mailer ?? createMailer(config, fastify.log);
  const jobs = await openImportQueue(database, {
    log: fastify.log,
    work: true,
    dataChanged: (organisationId) => dataChanged(database.db, organisationId),
    readSource: (job) => integrations.readSource(job),
    sourceImportFailed: (job, message) => integrations.tellImportFailed(mailer, job, message),
    scheduledImport: (data, queue) => queueScheduledImport(queue, integrations.uploadsDir, data, fastify.log),
  });
  // Before the database closes: a running job finishes first, within the shutdown grace.
  fastify.addHook("onClose", () => jobs.stop(config.shutdownGraceMs));
  fastify.decorate("jobs", jobs);
  const deps: AppDeps = {
    database,
    db: database.db,
    config,
    xsrfKey: await getServerSecret(database.db, "xsrf"),
    now,
    mailer,
    jobs,
    integrations,
  };
  fastify.addHook("onClose", async () => deps.mailer.close());
  await fastify.register(app, deps);
  return fastify;
}

/**
 * The leftovers of uploads cut short (see `sweepUploads`) go at start, before uploads are taken, and
 * every `uploadIdleMs` while the server runs. At start on PGlite the server owns its data folder
 * alone, so every file no job names goes; on PostgreSQL another server may share the folder and be
 * writing one, so only files idle for `uploadIdleMs` go.
 */
async function sweepUploadsNowAndThen(fastify: FastifyInstance, config: ServerConfig, database: Database) {
  const uploads = join(config.dataDir, "uploads");
  const sweep = async (idleMs: number) => {
    const removed = await sweepUploads(database.db, uploads, { idleMs });
    if (removed.length)
      fastify.log.info({ files: removed.length }, "removed the leftovers of cut-short uploads");
  };
  await sweep(database.kind === "pglite" ? 0 : uploadIdleMs);
  const timer = setInterval(() => {
    sweep(uploadIdleMs).catch((error: unknown) =>
      fastify.log.error({ err: error }, "sweeping uploads failed"),
    );
  }, uploadIdleMs);
  timer.unref();
  fastify.addHook("onClose", async () => clearInterval(timer));
}

export interface RunningServer {
  url: string;
  fastify: FastifyInstance;
  database: Database;
  jobs: ImportQueue;
  close(): Promise<void>;
}

/** Opens and migrates the database, then listens. `close` drains requests and closes the database. */
export async function startServer(
  config: ServerConfig,
  options: ServerOptions & { database?: Database } = {},
): Promise<RunningServer> {
  const database = options.database ?? (await openDatabase(databaseTarget(config)));
  await migrate(database);
  const fastify = await buildServer(config, database, options);
  const address = await fastify.listen({ port: config.port, host: config.host });
  const url = address.replace("0.0.0.0", "localhost").replace("[::]", "localhost");
  return {
    url,
    fastify,
    database,
    jobs: fastify.jobs,
    async close() {
      // Requests still running after the grace are cut off, so that a stuck one (a client that
      // stopped sending its upload) cannot hold the shutdown for ever.
      const cutOff = setTimeout(() => {
        fastify.log.warn({ graceMs: config.shutdownGraceMs }, "closing the connections still open");
        fastify.server.closeAllConnections();
      }, config.shutdownGraceMs);
      try {
        await fastify.close();
      } finally {
        clearTimeout(cutOff);
      }
      if (!options.database) await database.close();
    },
  };
}
