import { randomUUID } from "node:crypto";
import { rm, stat } from "node:fs/promises";
import type { ImportJob, ImportJobSummary, ImportRowError, JobKind, MaintenanceJob } from "@varia/contracts";
import { type Kysely, type Selectable, sql } from "kysely";
import { CubeCellsBuilder } from "../cube/cube-cells";
import {
  cellsVersion,
  changeCubeSnapshot,
  cubeIsEmpty,
  dropCubeSnapshot,
  withoutEmptyCells,
  writeCubeSnapshot,
} from "../cube/cube-snapshot";
import { addLinesToCube, applyCubeChanges, rebuildMonthlyCube } from "../cube/monthly-cube";
import type { Database } from "../db/database";
import type { Schema } from "../db/schema";
import { backupsToKeep } from "../settings/organisation-settings";
import { pruneUndoRecords, RestoreRefused, restoreBackup, takeUndoRecord } from "./backups";
import { DimensionResolver } from "./dimension-resolver";
import type { ImportQueue } from "./import-queue";
import { stagingColumns } from "./read-import-file";
import { readImportFileOnThread } from "./read-import-file-in-worker";
import {
  analyzeStagedLines,
  attachFreshLineTable,
  checkDimensionIds,
  createFreshLineTable,
  createStagingTable,
  hasLinePartition,
  hasStoredLines,
  holdOrganisation,
  linePartition,
  mergeStagedLines,
  readKnownDimensions,
  writeDimensions,
} from "./store-invoice-lines";
import { withStoredIds } from "./stored-id-batch";
import { takeUploadReading } from "./upload-readings";

/**
 * A failure that trying again cannot mend (a provider's refusal, docs/integration.md, "Schedules"):
 * the job ends Failed with its message at once.
 */
export class FinalImportFailure extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

/** How often a job that failed for a reason other than its data is tried before FailedPermanently. */
export const maxImportAttempts = 3;

export interface NewImportJob {
  organisationId: string;
  userId: string | null;
  fileName: string;
  filePath: string;
  sha256: string;
  idempotencyKey: string | undefined;
}

/**
 * Queues an import: its `import_jobs` row, which the API reads, and its pg-boss job, which delivers
 * it. The same Idempotency-Key (or, without one, the same file content) within an organisation
 * answers with the job already queued: a retried upload is a no-op.
 */
export async function enqueueImport(queue: ImportQueue, job: NewImportJob) {
  const { db } = queue.database;
  const key = job.idempotencyKey ?? `sha256:${job.sha256}`;
  const id = randomUUID();
  const inserted = await db
    .insertInto("import_jobs")
    .values({
      organisation_id: job.organisationId,
      id,
      user_id: job.userId,
      status: "Pending",
      file_name: job.fileName,
      file_path: job.filePath,
      file_sha256: job.sha256,
      idempotency_key: key,
    })
    .onConflict((oc) => oc.columns(["organisation_id", "idempotency_key"]).doNothing())
    .returning(["id", "status"])
    .executeTakeFirst();
  if (inserted) {
    await queue.send({ organisation_id: job.organisationId, id });
    return { jobGuid: inserted.id, status: inserted.status, duplicate: false };
  }
  const existing = await db
    .selectFrom("import_jobs")
    .select(["id", "status"])
    .where("organisation_id", "=", job.organisationId)
    .where("idempotency_key", "=", key)
    .executeTakeFirstOrThrow();
  return { jobGuid: existing.id, status: existing.status, duplicate: true };
}

/** A job's row as Import/GetJobStatus answers it. */
function jobOfRow(row: Selectable<Schema["import_jobs"]>): ImportJob {
  const result = (typeof row.result === "string" ? JSON.parse(row.result) : row.result) as {
    errors?: ImportRowError[];
    errorCount?: number;
    message?: string;
  } | null;
  return {
    jobGuid: row.id,
    kind: row.kind,
    status: row.status,
    fileName: row.file_name,
    rowsImported: row.rows_imported,
    rowsReplaced: row.rows_replaced,
    errors: result?.errors ?? [],
    errorCount: result?.errorCount ?? 0,
    message: result?.message ?? null,
    createdAt: new Date(row.created_at as unknown as string).toISOString(),
    finishedAt: row.finished_at ? new Date(row.finished_at as unknown as string).toISOString() : null,
  };
}

export async function getImportJob(
  db: Kysely<Schema>,
  organisationId: string,
  id: string,
): Promise<ImportJob | null> {
  const row = await db
    .selectFrom("import_jobs")
    .selectAll()
    .where("organisation_id", "=", organisationId)
    .where("id", "=", id)
    .executeTakeFirst();
  return row ? jobOfRow(row) : null;
}

/**
 * The organisation's latest jobs, newest first (Import/GetJobs; docs/import.md, "The list of jobs"):
 * each as its status without the bad cells, with the name of the user who started it.
 */
/** Who started a job whose user has been deleted since. */
export const deletedUserLabel = "A deleted user";

export async function listImportJobs(
  db: Kysely<Schema>,
  organisationId: string,
  limit: number,
): Promise<ImportJobSummary[]> {
  const rows = await db
    .selectFrom("import_jobs")
    .leftJoin("users", (join) =>
      join
        .onRef("users.organisation_id", "=", "import_jobs.organisation_id")
        .onRef("users.id", "=", "import_jobs.user_id"),
    )
    .selectAll("import_jobs")
    .select("users.name as started_by")
    .where("import_jobs.organisation_id", "=", organisationId)
    .orderBy("import_jobs.created_at", "desc")
    .orderBy("import_jobs.id")
    .limit(limit)
    .execute();
  return rows.map(({ started_by, ...row }) => {
    const { errors: _errors, ...job } = jobOfRow(row);
    // A job keeps the id of a user deleted since: it was a person's, not the server's.
    return { ...job, startedBy: started_by ?? (row.user_id ? deletedUserLabel : null) };
  });
}

class RejectedFile extends Error {
  constructor(
    readonly errors: ImportRowError[],
    readonly errorCount: number,
    message = `The file has ${errorCount} invalid ${errorCount === 1 ? "cell" : "cells"}; nothing was imported`,
  ) {
    super(message);
  }
}

/** Lines from which an import gathers the tables' statistics again. */
const analyzeFromLines = 50_000;

/** Files from this size on are read on a worker thread (see `readImportFileOnThread`). */
export const workerThresholdBytes = 4 * 1024 * 1024;

/**
 * Runs one claimed job in one transaction (docs/storage.md): the file read as a stream (or taken as
 * read while it was uploaded) with every row checked, and loaded into a staging table with binary
 * COPY; the undo record (the stored lines the file replaces) kept; clients, items and salespeople
 * written; the staged lines merged into `invoice_lines` (a first import's copied straight into a
 * table of their own, indexed after them, that becomes the organisation's partition); the cube cells of the lines replaced and
 * added changed, in `monthly_cube` and in the cube snapshot; the job marked Completed. A file with bad rows changes nothing and lists every bad
 * cell.
 */
export async function runImportJob(
  database: Database,
  job: { organisation_id: string; id: string; file_path: string; kind?: string; backup_id?: string | null },
  options: { workerThresholdBytes?: number } = {},
) {
  if (job.kind === "Restore") return runRestoreJob(database, { ...job, backup_id: job.backup_id ?? "" });
  if (job.kind === "RebuildCube") return runRebuildCubeJob(database, job);
  const organisationId = job.organisation_id;
  let readWhileUploaded = false;
  try {
    const rows = await database.bulkTransaction(async (session) => {
      const tx = session.db;
      // One import at a time per organisation, across every server of a PostgreSQL cluster.
      await sql`select pg_advisory_xact_lock(hashtext(${organisationId}))`.execute(tx);
      await holdOrganisation(tx, organisationId);
      const ids = new DimensionResolver(await readKnownDimensions(tx, organisationId));
      // None: a first import, which replaces nothing.
      const hasLines = await hasStoredLines(tx, organisationId);
      // Nor a partition: its lines go into a table of their own, indexed after the load
      // (docs/storage.md, "A first import: a table of its own, indexed after the load").
      const fresh = !hasLines && !(await hasLinePartition(tx, organisationId));
      const cellsBefore = {
        version: await cellsVersion(tx, organisationId),
        wasEmpty: await cubeIsEmpty(tx, organisationId),
      };
      if (fresh) await createFreshLineTable(tx, organisationId, job.id);
      else await createStagingTable(tx);
      // Read while it was uploaded to this server, or read now.
      const uploaded = takeUploadReading(job.file_path);
      readWhileUploaded = uploaded !== undefined;
      const reading =
        uploaded ??
        readImportFileOnThread(
          job.file_path,
          {},
          (await stat(job.file_path)).size >= (options.workerThresholdBytes ?? workerThresholdBytes),
        );
      try {
        for await (const batch of reading) {
          ids.add(batch.dimensions);
          if (fresh)
            await session.copyBinary(
              linePartition(organisationId),
              stagingColumns,
              [withStoredIds(batch.copy, batch.lineCount, ids.map)],
              { freeze: true },
            );
          else await session.copyBinary("import_lines", stagingColumns, batch.copy);
        }
        const summary = await reading.summary();
        if (summary.errorCount > 0) throw new RejectedFile(summary.errors, summary.errorCount);
        if (hasLines) await analyzeStagedLines(tx);
        // The lines the file replaces, kept to undo the import, and taken off the cube.
        const undo = await takeUndoRecord(tx, organisationId, job.id, hasLines);
        const replaced = new CubeCellsBuilder();
        if (undo.lineCount > 0)
          await addLinesToCube(
            tx,
            replaced,
            "backup_lines",
            sql`organisation_id = ${organisationId} and backup_id = ${undo.id}`,
            -1,
          );
        await writeDimensions(tx, organisationId, ids.changes());
        await checkDimensionIds(tx, organisationId, ids.map);
        if (fresh) await attachFreshLineTable(tx, organisationId);
        else await mergeStagedLines(tx, organisationId, job.id, ids.map, { hasLines });
        const replacedCells = replaced.finish();
        await applyCubeChanges(session, organisationId, replacedCells);
        await applyCubeChanges(session, organisationId, summary.cube, ids.map, {
          intoEmpty: cellsBefore.wasEmpty && replacedCells.month.length === 0,
        });
        await pruneUndoRecords(tx, organisationId, await backupsToKeep(tx, organisationId));
        // Fresh statistics after a large import, so that the next small one is joined to the stored
        // lines by key (PGlite runs no autovacuum to gather them). Those of the organisation's
        // partition, which the planner reads for its lines, not every organisation's.
        if (summary.lines >= analyzeFromLines)
          await sql`analyze ${sql.table(linePartition(organisationId))}, monthly_cube`.execute(tx);
        await tx
          .updateTable("import_jobs")
          .set({
            status: "Completed",
            rows_imported: summary.lines,
            rows_replaced: undo.lineCount,
            finished_at: new Date(),
            result: null,
          })
          .where("organisation_id", "=", organisationId)
          .where("id", "=", job.id)
          .execute();
        // An import from a data source during sign-up moves the wizard on (docs/integration.md#sign-up).
        if (job.kind === "Connector")
          await tx
            .updateTable("organisations")
            .set({ sign_up_step: "Configure" })
            .where("id", "=", organisationId)
            .where("sign_up_step", "=", "Data")
            .execute();
        // The cube as servers read it at start, changed by the same cells (it counts this job).
        await changeCubeSnapshot(tx, organisationId, cellsBefore, await cellsVersion(tx, organisationId), [
          { cells: replacedCells },
          { cells: summary.cube, ids: ids.map },
        ]);
        return summary.lines;
      } finally {
        await reading.close();
      }
    });
    await rm(job.file_path, { force: true });
    return { status: "Completed" as const, rows, readWhileUploaded };
  } catch (error) {
    if (error instanceof RejectedFile) {
      await finishJob(database.db, job, "Failed", {
        errors: error.errors,
        errorCount: error.errorCount,
        message: error.message,
      });
      await rm(job.file_path, { force: true });
      return { status: "Failed" as const, rows: 0 };
    }
    throw error;
  }
}

/** Ends a job with a result that is not its lines: Failed with the reason, or back to Pending. */
export async function finishJob(
  db: Kysely<Schema>,
  job: { organisation_id: string; id: string },
  status: "Failed" | "FailedPermanently" | "Pending",
  result: { errors?: ImportRowError[]; errorCount?: number; message: string },
) {
  await db
    .updateTable("import_jobs")
    .set({ status, result: JSON.stringify(result), finished_at: status === "Pending" ? null : new Date() })
    .where("organisation_id", "=", job.organisation_id)
    .where("id", "=", job.id)
    .execute();
}

/** The reason a job's users read for a failure that is not their data's (docs/api.md, "Import jobs"). */
export const unexpectedImportError = "an unexpected error on the server";

/** A failure whose message is written for the job's users (a connector's words for a provider's refusal). */
export class ShownImportFailure extends Error {}

/**
 * What a job's users (and its mail) are told of a failure that is not their data's: a
 * `ShownImportFailure`'s message; anything else (a database error, a missing file) as one plain
 * sentence, its text (SQL, paths) only in the server's log.
 */
export function shownImportFailure(error: unknown): string {
  return error instanceof ShownImportFailure ? error.message : unexpectedImportError;
}

/**
 * An attempt that failed for a reason other than its data: the row goes back to Pending with the
 * reason (pg-boss tries the job again), or after the last attempt to FailedPermanently. A row that
 * already ended (a second delivery of a finished job) is left as it is.
 */
export async function failImportAttempt(
  db: Kysely<Schema>,
  job: { organisation_id: string; id: string; attempts: number },
  error: Error,
) {
  const final = job.attempts >= maxImportAttempts;
  const reason = shownImportFailure(error);
  const message = final ? `The import failed ${job.attempts} times: ${reason}` : reason;
  await db
    .updateTable("import_jobs")
    .set({
      status: final ? "FailedPermanently" : "Pending",
      result: JSON.stringify({ message }),
      finished_at: final ? new Date() : null,
    })
    .where("organisation_id", "=", job.organisation_id)
    .where("id", "=", job.id)
    .where("status", "in", ["Pending", "Running"])
    .execute();
}

/**
 * Queues a job that is not an upload (a restore, a maintenance job, a data source's import): its
 * `import_jobs` row, which the API reads, then its pg-boss job, which delivers it; like an import,
 * it survives a restart. `id` when the caller names the job's file after it.
 */
export async function queueJob(
  queue: ImportQueue,
  job: {
    organisationId: string;
    userId: string | null;
    kind: Exclude<JobKind, "Import">;
    fileName: string;
    id?: string;
    filePath?: string;
    backupId?: string;
    dataSourceId?: string;
  },
) {
  const id = job.id ?? randomUUID();
  await queue.database.db
    .insertInto("import_jobs")
    .values({
      organisation_id: job.organisationId,
      id,
      user_id: job.userId,
      status: "Pending",
      kind: job.kind,
      file_name: job.fileName,
      file_path: job.filePath ?? "",
      file_sha256: "",
      idempotency_key: `${job.kind}:${id}`,
      backup_id: job.backupId ?? null,
      data_source_id: job.dataSourceId ?? null,
    })
    .execute();
  await queue.send({ organisation_id: job.organisationId, id });
  return { jobGuid: id, status: "Pending" as const };
}

/** Queues the restore of a backup; `name` is how the job names it (`backupName`). */
export function enqueueRestore(
  queue: ImportQueue,
  organisationId: string,
  userId: string,
  backupId: string,
  name: string,
) {
  return queueJob(queue, { organisationId, userId, kind: "Restore", fileName: name, backupId });
}

/** Restores a backup in one transaction (see `restoreBackup`). */
async function runRestoreJob(
  database: Database,
  job: { organisation_id: string; id: string; backup_id: string },
) {
  const rows = await database
    .bulkTransaction(async (session) => {
      const tx = session.db;
      await sql`select pg_advisory_xact_lock(hashtext(${job.organisation_id}))`.execute(tx);
      await holdOrganisation(tx, job.organisation_id);
      const lines = await restoreBackup(session, job.organisation_id, job.backup_id);
      if (lines === null) throw new RejectedFile([], 0, `Backup ${job.backup_id} does not exist`);
      await dropCubeSnapshot(tx, job.organisation_id);
      await tx
        .updateTable("import_jobs")
        .set({ status: "Completed", rows_imported: lines, finished_at: new Date(), result: null })
        .where("organisation_id", "=", job.organisation_id)
        .where("id", "=", job.id)
        .execute();
      return lines;
    })
    .catch(async (error) => {
      if (error instanceof RejectedFile || error instanceof RestoreRefused) {
        await finishJob(database.db, job, "Failed", { message: error.message });
        return -1;
      }
      throw error;
    });
  return { status: rows < 0 ? ("Failed" as const) : ("Completed" as const), rows: Math.max(rows, 0) };
}

/**
 * Queues a maintenance job of the organisation (docs/integration.md, "Maintenance jobs"): a row of
 * its own kind, delivered by the import queue. One of the same kind still waiting or running is
 * answered instead of a second.
 */
export async function enqueueMaintenance(
  queue: ImportQueue,
  organisationId: string,
  userId: string,
  kind: MaintenanceJob,
) {
  const { db } = queue.database;
  const open = await db
    .selectFrom("import_jobs")
    .select("id")
    .where("organisation_id", "=", organisationId)
    .where("kind", "=", kind)
    .where("status", "in", ["Pending", "Running"])
    .executeTakeFirst();
  if (open) return { jobGuid: open.id };
  const { jobGuid } = await queueJob(queue, {
    organisationId,
    userId,
    kind,
    fileName: maintenanceJobNames[kind],
  });
  return { jobGuid };
}

/** How a maintenance job names itself (the job's `fileName` in Import/GetJobStatus). */
const maintenanceJobNames: Record<MaintenanceJob, string> = { RebuildCube: "Rebuild the cube" };

/**
 * The cube is derived data (docs/storage.md): the RebuildCube job builds the organisation's
 * `monthly_cube` again from its stored lines, and its snapshot from the same cells, in one
 * transaction under the organisation's import lock. The lines themselves are not touched.
 */
async function runRebuildCubeJob(database: Database, job: { organisation_id: string; id: string }) {
  const organisationId = job.organisation_id;
  const lines = await database.bulkTransaction(async (session) => {
    const tx = session.db;
    await sql`select pg_advisory_xact_lock(hashtext(${organisationId}))`.execute(tx);
    await holdOrganisation(tx, organisationId);
    const rebuilt = await rebuildMonthlyCube(session, organisationId);
    await tx
      .updateTable("import_jobs")
      .set({ status: "Completed", rows_imported: rebuilt.lines, finished_at: new Date(), result: null })
      .where("organisation_id", "=", organisationId)
      .where("id", "=", job.id)
      .execute();
    // Its completion is a new cells version: the snapshot is written as of it.
    await writeCubeSnapshot(
      tx,
      organisationId,
      await cellsVersion(tx, organisationId),
      withoutEmptyCells(rebuilt.cells),
    );
    return rebuilt.lines;
  });
  return { status: "Completed" as const, rows: lines };
}
