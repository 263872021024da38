import type { FastifyBaseLogger } from "fastify";
import { dataChanged } from "../analytics/cube-cache";
import type { Database } from "../db/database";
import { claimNextImport, failImportAttempt, requeueInterruptedImports, runImportJob } from "./import-jobs";

/**
 * Runs queued imports one after another. `kick` starts it at once after an upload; a slow poll picks
 * up jobs queued by other servers. `stop` lets the running job finish.
 */
export function startImportWorker(
  database: Database,
  log: FastifyBaseLogger,
  options: { pollMs?: number } = {},
) {
  const { db } = database;
  let running: Promise<void> | null = null;
  let again = false;
  let stopped = false;

  async function drain() {
    do {
      again = false;
      for (;;) {
        if (stopped) return;
        const job = await claimNextImport(db);
        if (!job) break;
        log.info({ job: job.id, attempt: job.attempts }, "import started");
        try {
          const outcome = await runImportJob(database, job);
          dataChanged(db, job.organisation_id);
          log.info({ job: job.id, ...outcome }, "import finished");
        } catch (error) {
          log.error({ err: error, job: job.id }, "import failed");
          await failImportAttempt(db, job, error as Error);
        }
      }
    } while (again && !stopped);
  }

  function kick() {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = drain()
      .catch((error) => log.error({ err: error }, "import worker failed"))
      .finally(() => {
        running = null;
      });
  }

  const ready = requeueInterruptedImports(db).then(kick);
  const timer = setInterval(kick, options.pollMs ?? 2000);
  timer.unref();

  return {
    kick,
    ready,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
