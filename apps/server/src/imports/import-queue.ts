import type { FastifyBaseLogger } from "fastify";
import { sql } from "kysely";
import { type Clock, type Job, PgBoss } from "pg-boss";
import type { Database } from "../db/database";
import {
  FinalImportFailure,
  failImportAttempt,
  finishJob,
  maxImportAttempts,
  runImportJob,
  shownImportFailure,
} from "./import-jobs";

/** pg-boss's tables: a schema of their own, beside the application's (`current_schema()`). */
export const jobQueueSchema = "pgboss";
/** Imports and restores of backups. A pg-boss job's id is its `import_jobs` row's id. */
export const importQueueName = "imports";
/** Where pg-boss puts an import job it gave up on (its retries spent, however it failed). */
export const importDeadLetterName = "imports-failed";

/**
 * The schedules of imports from data sources (docs/integration.md, "Schedules"): pg-boss sends a job
 * to this queue at each occurrence of a schedule's cron, keyed by the data source's id.
 */
export const scheduleQueueName = "import-schedules";

/** A scheduled occurrence's data: the data source to import from. */
export interface ScheduledImportData {
  organisationId: string;
  dataSourceId: string;
}

/** A Connector job's row, as its data source is read into its file. */
export interface ConnectorJobRow {
  organisation_id: string;
  id: string;
  file_path: string;
  data_source_id: string | null;
}

/** A pg-boss job's data: the `import_jobs` row it delivers. */
export interface ImportJobData {
  organisationId: string;
  importJobId: string;
}

/** The most an attempt may stay active before pg-boss counts it failed (a dead server's job). */
const expireInSeconds = 4 * 60 * 60;
/**
 * On PostgreSQL, a running job's worker refreshes its heartbeat; a job whose server died is tried
 * again after this long, by any server. (On PGlite the import's transaction holds the one connection,
 * so a heartbeat could not get through; there, one process owns the database and recovers at start.)
 */
const heartbeatSeconds = 60;

/** The delivery of import and restore jobs (`import_jobs` rows) through pg-boss. */
export interface ImportQueue {
  readonly database: Database;
  /** Delivers an `import_jobs` row's job; sending one already sent is a no-op. */
  send(job: { organisation_id: string; id: string }): Promise<void>;
  /** Saves (or replaces) the cron schedule `key` in the time zone `tz`; it sends `data` when due. */
  schedule(key: string, cron: string, tz: string, data: ScheduledImportData): Promise<void>;
  unschedule(key: string): Promise<void>;
  /** The schedule saved as `key`, as pg-boss holds it. */
  getSchedule(key: string): Promise<{ cron: string; timezone: string; data: unknown } | null>;
  /** Runs every job that can run now, one after another, until none is left (admin commands). */
  drain(): Promise<void>;
  /** Stops taking jobs, lets a running one finish, and stops pg-boss. */
  /** Stops taking jobs and waits up to `timeoutMs` (default 30 s) for the running one. */
  stop(timeoutMs?: number): Promise<void>;
}

/**
 * Starts pg-boss on the database (creating its schema and queues on first use), gives every unended
 * `import_jobs` row a live job (see `recover`) and, with `work`, runs jobs as they come, one at a time.
 */
export async function openImportQueue(
  database: Database,
  options: {
    log?: FastifyBaseLogger;
    work?: boolean;
    pollingIntervalSeconds?: number;
    /** pg-boss's clock: its polls, its cron and its time (tests pass pg-boss's TestClock). */
    clock?: Clock;
    /** Told when a job changed an organisation's data (the server's cube cache, after the commit). */
    dataChanged?: (organisationId: string) => void;
    /**
     * Writes a Connector job's file from its data source (docs/integration.md); throws
     * `FinalImportFailure` when trying again cannot help. Without it such jobs fail.
     */
    readSource?: (job: ConnectorJobRow) => Promise<void>;
    /**
     * An import from a data source ended Failed or FailedPermanently: tell whom it concerns
     * (docs/integration.md, "When an import from a data source fails"); `user_id` null when a
     * schedule started it. Its own failure is logged, never the job's.
     */
    sourceImportFailed?: (
      job: { organisation_id: string; id: string; data_source_id: string; user_id: string | null },
      message: string,
    ) => Promise<void>;
    /** A schedule came due: queue the import of its data source. */
    scheduledImport?: (data: ScheduledImportData, queue: ImportQueue) => Promise<unknown>;
  } = {},
): Promise<ImportQueue> {
  const { db } = database;
  const log = options.log;
  const boss = new PgBoss({
    ...database.jobQueueConnection,
    schema: jobQueueSchema,
    application_name: "varia-jobs",
    // The cron of import schedules runs where jobs are worked.
    schedule: Boolean(options.work),
    supervise: Boolean(options.work),
    ...(options.clock ? { clock: options.clock } : {}),
  });
  boss.on("error", (error) => log?.error({ err: error }, "job queue error"));
  boss.on("warning", (warning) => log?.warn({ warning }, "job queue warning"));
  await boss.start();
  await boss.createQueue(importDeadLetterName, { retryLimit: 0 });
  const settings = {
    retryLimit: maxImportAttempts - 1,
    retryDelay: 0,
    expireInSeconds,
    deadLetter: importDeadLetterName,
  };
  const heartbeat = database.kind === "postgres" ? heartbeatSeconds : null;
  await boss.createQueue(importQueueName, {
    ...settings,
    ...(heartbeat ? { heartbeatSeconds: heartbeat } : {}),
  });
  // A queue created by an earlier version keeps its settings unless told: these are the ones.
  await boss.updateQueue(importQueueName, { ...settings, heartbeatSeconds: heartbeat });
  await boss.createQueue(scheduleQueueName, { retryLimit: 2 });

  const send = async (job: { organisation_id: string; id: string }) => {
    const data: ImportJobData = { organisationId: job.organisation_id, importJobId: job.id };
    await boss.send(importQueueName, data, { id: job.id });
  };

  /**
   * One delivery. Delivery is at least once: a job whose row already ended is skipped. A failure
   * other than the file's data is recorded on the row and thrown, so pg-boss tries the job again
   * (`maxImportAttempts` in all); the last failure makes the row FailedPermanently.
   */
  async function deliver(job: Job<ImportJobData>) {
    const { organisationId, importJobId } = job.data;
    const row = await sql<{
      organisation_id: string;
      id: string;
      file_path: string;
      attempts: number;
      kind: string;
      backup_id: string | null;
      data_source_id: string | null;
      user_id: string | null;
    }>`
      update import_jobs set status = 'Running', started_at = now(), attempts = attempts + 1
      where organisation_id = ${organisationId} and id = ${importJobId} and status in ('Pending', 'Running')
      returning organisation_id, id, file_path, attempts, kind, backup_id, data_source_id, user_id
    `
      .execute(db)
      .then((result) => result.rows[0]);
    if (!row) return;
    log?.info({ job: row.id, attempt: row.attempts }, "import started");
    const source = row.kind === "Connector" ? row.data_source_id : null;
    const tellFailure = async (message: string) => {
      if (!source || !options.sourceImportFailed) return;
      await options
        .sourceImportFailed(
          { organisation_id: row.organisation_id, id: row.id, data_source_id: source, user_id: row.user_id },
          message,
        )
        .catch((error: Error) =>
          log?.error({ err: error, job: row.id }, "telling of a failed import failed"),
        );
    };
    try {
      if (row.kind === "Connector") {
        if (!options.readSource) throw new FinalImportFailure("This server cannot read data sources");
        await options.readSource(row);
      }
      const outcome = await runImportJob(database, row);
      options.dataChanged?.(row.organisation_id);
      log?.info({ job: row.id, ...outcome }, "import finished");
    } catch (error) {
      // The provider refused for good (docs/integration.md, "Schedules"): the job ends Failed.
      if (error instanceof FinalImportFailure) {
        log?.warn(
          { job: row.id, status: error.status, reason: error.message },
          "import refused by the provider",
        );
        await finishJob(db, row, "Failed", { message: error.message });
        await tellFailure(error.message);
        return;
      }
      log?.error({ err: error, job: row.id }, "import failed");
      await failImportAttempt(db, row, error as Error);
      if (row.attempts >= maxImportAttempts) await tellFailure(shownImportFailure(error));
      throw error;
    }
  }

  /**
   * pg-boss gave up on a job without its last attempt recording why it ended (the server stopped
   * or the attempt expired): the row becomes FailedPermanently with the last reason it knows.
   */
  async function buried(job: Job<ImportJobData>) {
    const { organisationId, importJobId } = job.data;
    await sql`
      update import_jobs set status = 'FailedPermanently', finished_at = now(),
        result = jsonb_build_object('message', 'The import failed ' || attempts || ' times: '
          || coalesce(result ->> 'message', 'the server stopped during the import'))
      where organisation_id = ${organisationId} and id = ${importJobId} and status in ('Pending', 'Running')
    `.execute(db);
  }

  await recover();

  /**
   * At start, every unended row gets a live job: one is sent when missing (a crash between the
   * row's insert and the send, or a row queued before pg-boss); an active job whose organisation's
   * import lock is free belongs to a server that died mid-import (its transaction rolled back with
   * it), so it is failed now, to run again at once rather than when it expires.
   */
  async function recover() {
    const open = await db
      .selectFrom("import_jobs")
      .select(["organisation_id", "id", "status"])
      .where("status", "in", ["Pending", "Running"])
      .orderBy("created_at")
      .execute();
    for (const row of open) {
      let job = await boss.getJobById<ImportJobData>(importQueueName, row.id);
      if (!job) {
        await send(row);
        job = await boss.getJobById<ImportJobData>(importQueueName, row.id);
      }
      if (job?.state === "active" && (await importLockFree(row.organisation_id))) {
        await boss.fail(importQueueName, job, { message: "the server stopped during the import" });
        job = await boss.getJobById<ImportJobData>(importQueueName, row.id);
      }
      if (row.status === "Running" && job?.state !== "active") {
        await db
          .updateTable("import_jobs")
          .set({ status: "Pending" })
          .where("organisation_id", "=", row.organisation_id)
          .where("id", "=", row.id)
          .where("status", "=", "Running")
          .execute();
      }
    }
  }

  /** No transaction holds the organisation's import lock (`runImportJob` takes it). */
  async function importLockFree(organisationId: string) {
    return db.transaction().execute(async (tx) => {
      const result = await sql<{ free: boolean }>`
        select pg_try_advisory_xact_lock(hashtext(${organisationId})) as free`.execute(tx);
      return Boolean(result.rows[0]?.free);
    });
  }

  let workerId: string | undefined;
  let stopped = false;
  const queue: ImportQueue = {
    database,
    async send(job) {
      await send(job);
      if (workerId && !stopped) boss.notifyWorker(workerId);
    },
    async schedule(key, cron, tz, data) {
      await boss.schedule(scheduleQueueName, cron, data, { tz, key });
    },
    async unschedule(key) {
      await boss.unschedule(scheduleQueueName, key);
    },
    async getSchedule(key) {
      const found = await boss.getSchedule(scheduleQueueName, key);
      return found ? { cron: found.cron, timezone: found.timezone, data: found.data } : null;
    },
    async drain() {
      for (;;) {
        const [job] = await boss.fetch<ImportJobData>(importQueueName);
        if (job) {
          await deliver(job).then(
            () => boss.complete(importQueueName, job),
            (error: Error) => boss.fail(importQueueName, job, { message: error.message }),
          );
          continue;
        }
        const [dead] = await boss.fetch<ImportJobData>(importDeadLetterName);
        if (!dead) return;
        await buried(dead);
        await boss.complete(importDeadLetterName, dead);
      }
    },
    async stop(timeoutMs = 30_000) {
      if (stopped) return;
      stopped = true;
      await boss.stop({ graceful: true, timeout: timeoutMs });
    },
  };
  if (options.work) {
    const polling = { pollingIntervalSeconds: options.pollingIntervalSeconds ?? 2 };
    workerId = await boss.work<ImportJobData>(importQueueName, polling, async ([job]) => {
      if (job) await deliver(job);
    });
    await boss.work<ImportJobData>(importDeadLetterName, polling, async ([job]) => {
      if (job) await buried(job);
    });
    await boss.work<ScheduledImportData>(scheduleQueueName, polling, async ([job]) => {
      if (job && options.scheduledImport) await options.scheduledImport(job.data, queue);
    });
  }

  return queue;
}
