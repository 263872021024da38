import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "kysely";
import { PgBoss } from "pg-boss";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { runAdminCommand } from "../src/admin/commands";
import { createOrganisation } from "../src/admin/organisations";
import type { Database } from "../src/db/database";
import { enqueueImport, getImportJob } from "../src/imports/import-jobs";
import {
  type ImportJobData,
  type ImportQueue,
  importQueueName,
  jobQueueSchema,
  openImportQueue,
} from "../src/imports/import-queue";
import { openTestDatabase, testDatabaseKinds } from "./harness";

const file = [
  "InvoiceDate,InvoiceNumber,LineNumber,ClientCode,ItemCode,StockType,Quantity,Amount",
  "2025-05-03,INV-1,1,C001,PRO,Subscription,5,100.00",
  "2025-06-03,INV-2,1,C002,SUP,Hourly,2,50.00",
  "",
].join("\n");

for (const kind of testDatabaseKinds()) {
  describe(`import and restore jobs on pg-boss [${kind}]`, () => {
    let database: Database;
    let drop: () => Promise<void>;
    const dataDir = mkdtempSync(join(tmpdir(), "varia-queue-"));
    const open: ImportQueue[] = [];

    beforeAll(async () => {
      ({ database, drop } = await openTestDatabase(kind));
    });
    afterAll(async () => {
      for (const queue of open) await queue.stop();
      await drop();
      rmSync(dataDir, { recursive: true, force: true });
    });

    async function queue(options: Parameters<typeof openImportQueue>[1] = {}) {
      const opened = await openImportQueue(database, { pollingIntervalSeconds: 0.5, ...options });
      open.push(opened);
      return opened;
    }

    async function organisation(tenant: string) {
      const created = await createOrganisation(database.db, {
        tenant,
        name: tenant,
        adminEmail: `admin@${tenant}.example.com`,
        adminPassword: "a long enough password",
      });
      return created.organisationId;
    }

    async function enqueue(jobs: ImportQueue, organisationId: string, filePath: string) {
      return enqueueImport(jobs, {
        organisationId,
        userId: null,
        fileName: "lines.csv",
        filePath,
        sha256: randomUUID(),
        idempotencyKey: undefined,
      });
    }

    function csv() {
      const path = join(dataDir, `${randomUUID()}.csv`);
      writeFileSync(path, file);
      return path;
    }

    async function lineCount(organisationId: string) {
      const row = await database.db
        .selectFrom("invoice_lines")
        .select((eb) => eb.fn.countAll<string>().as("n"))
        .where("organisation_id", "=", organisationId)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    }

    it("keeps pg-boss's tables in a schema of their own", async () => {
      await queue();
      const schemas = await sql<{ table_schema: string }>`
        select distinct table_schema from information_schema.tables
        where table_name in ('job', 'queue') order by table_schema`.execute(database.db);
      expect(schemas.rows.map((r) => r.table_schema)).toEqual([jobQueueSchema]);
    });

    it("runs a seed-demo admin command's import before it returns, without a server", {
      timeout: 60_000,
    }, async () => {
      const organisationId = await organisation("demo");
      const queued = await runAdminCommand(database, "seed-demo", { tenant: "demo" }, { dataDir });
      const job = await getImportJob(database.db, organisationId, (queued as { jobGuid: string }).jobGuid);
      expect(job).toMatchObject({ status: "Completed" });
      expect(await lineCount(organisationId)).toBe(job?.rowsImported);
    });

    it("tries a job that fails for a reason other than its data three times, then FailedPermanently", async () => {
      const organisationId = await organisation("missing");
      const jobs = await queue({ work: true });
      const queued = await enqueue(jobs, organisationId, join(dataDir, "gone.csv"));
      await vi.waitFor(
        async () =>
          expect(await getImportJob(database.db, organisationId, queued.jobGuid)).toMatchObject({
            status: "FailedPermanently",
          }),
        { timeout: 30_000, interval: 50 },
      );
      const job = await getImportJob(database.db, organisationId, queued.jobGuid);
      // The cause (a missing file, with its path on the server) goes to the log, never to the user.
      expect(job?.message).toBe("The import failed 3 times: an unexpected error on the server");
      const row = await database.db
        .selectFrom("import_jobs")
        .select("attempts")
        .where("id", "=", queued.jobGuid)
        .executeTakeFirstOrThrow();
      expect(row.attempts).toBe(3);
    });

    /** A second pg-boss on the same database, standing in for a server that takes a job and dies. */
    async function otherServer() {
      const boss = new PgBoss({ ...database.jobQueueConnection, schema: jobQueueSchema, supervise: false });
      await boss.start();
      return boss;
    }

    it.runIf(kind === "pglite")(
      "runs pg-boss's statements on PGlite's one connection in turn, never inside another's transaction",
      async () => {
        const jobs = await queue();
        const organisationId = await organisation("between");
        const boss = await otherServer();
        const id = randomUUID();
        let entered!: () => void;
        const holding = new Promise<void>((resolve) => {
          entered = resolve;
        });
        let proceed!: () => void;
        const released = new Promise<void>((resolve) => {
          proceed = resolve;
        });
        const transaction = database.db
          .transaction()
          .execute(async (tx) => {
            entered();
            await released;
            // Statements of this transaction while the send waits for the connection.
            for (let i = 0; i < 5; i++) await sql`select 1`.execute(tx);
            throw new Error("rolled back");
          })
          .catch(() => {});
        await holding;
        // Sent by someone else (another request) while the transaction holds the connection.
        const sending = jobs.send({ organisation_id: organisationId, id });
        proceed();
        await transaction;
        await sending;
        // Sent after the rollback, not inside the transaction it rolled back.
        expect(await boss.getJobById(importQueueName, id)).toMatchObject({ state: "created" });
        await boss.deleteJob(importQueueName, id);
        await boss.stop();
      },
    );

    async function markRunning(id: string, attempts: number) {
      await database.db
        .updateTable("import_jobs")
        .set({ status: "Running", attempts })
        .where("id", "=", id)
        .execute();
    }

    it("runs a job again at start when the server running it died, and ends with the whole file", async () => {
      const organisationId = await organisation("crashed");
      const sender = await queue();
      const queued = await enqueue(sender, organisationId, csv());
      const boss = await otherServer();
      const [taken] = await boss.fetch<ImportJobData>(importQueueName);
      expect(taken?.id).toBe(queued.jobGuid);
      await markRunning(queued.jobGuid, 1);
      await boss.stop({ graceful: false }); // it took the job and never answered

      const restarted = await queue();
      expect(await getImportJob(database.db, organisationId, queued.jobGuid)).toMatchObject({
        status: "Pending",
      });
      await restarted.drain();
      expect(await getImportJob(database.db, organisationId, queued.jobGuid)).toMatchObject({
        status: "Completed",
        rowsImported: 2,
      });
      expect(await lineCount(organisationId)).toBe(2);
    });

    it("ends a job FailedPermanently when its server died on its last attempt", async () => {
      const organisationId = await organisation("lastattempt");
      const sender = await queue();
      const queued = await enqueue(sender, organisationId, csv());
      const boss = await otherServer();
      for (let attempt = 1; attempt <= 3; attempt++) {
        const [taken] = await boss.fetch<ImportJobData>(importQueueName);
        expect(taken?.id).toBe(queued.jobGuid);
        if (attempt < 3) await boss.fail(importQueueName, taken!, { message: "lost" });
      }
      await markRunning(queued.jobGuid, 3);
      await boss.stop({ graceful: false });

      const restarted = await queue();
      await restarted.drain();
      const job = await getImportJob(database.db, organisationId, queued.jobGuid);
      expect(job).toMatchObject({
        status: "FailedPermanently",
        message: "The import failed 3 times: the server stopped during the import",
      });
      expect(await lineCount(organisationId)).toBe(0);
    });

    it("sends the job of a row queued without one (a crash between the two), and skips a job already ended", async () => {
      const organisationId = await organisation("unsent");
      const id = randomUUID();
      await database.db
        .insertInto("import_jobs")
        .values({
          organisation_id: organisationId,
          id,
          user_id: null,
          status: "Pending",
          file_name: "lines.csv",
          file_path: csv(),
          file_sha256: "",
          idempotency_key: `test:${id}`,
        })
        .execute();
      const jobs = await queue();
      await jobs.drain();
      expect(await getImportJob(database.db, organisationId, id)).toMatchObject({ status: "Completed" });

      // Delivered again (at least once): the row has ended, so nothing runs.
      const boss = await otherServer();
      await boss.send(importQueueName, { organisationId, importJobId: id } satisfies ImportJobData);
      await boss.stop();
      await jobs.drain();
      const row = await database.db
        .selectFrom("import_jobs")
        .select(["status", "attempts"])
        .where("id", "=", id)
        .executeTakeFirstOrThrow();
      expect(row).toEqual({ status: "Completed", attempts: 1 });
      expect(await lineCount(organisationId)).toBe(2);
    });
  });
}
