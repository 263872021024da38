import { randomUUID } from "node:crypto";
import { createReadStream } from "node:fs";
import { rm } from "node:fs/promises";
import type { ImportJob, ImportRowError } from "@varia/contracts";
import { type Kysely, sql } from "kysely";
import type { Schema } from "../db/schema";
import { readBackup, restoreBackupContent, takeBackup } from "./backups";
import { importLimits } from "./invoice-columns";
import { parseInvoiceRows } from "./parse-invoice-rows";
import { createLineWriter, rebuildMonthlyCube } from "./store-invoice-lines";

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
 * Queues an import. The same Idempotency-Key (or, without one, the same file content) within an
 * organisation answers with the job already queued: a retried upload is a no-op.
 */
export async function enqueueImport(db: Kysely<Schema>, job: NewImportJob) {
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
  if (inserted) return { jobGuid: inserted.id, status: inserted.status, duplicate: false };
  const existing = await db
    .selectFrom("import_jobs")
    .select(["id", "status"])
    .where("organisation_id", "=", job.organisationId)
    .where("idempotency_key", "=", key)
    .executeTakeFirstOrThrow();
  return { jobGuid: existing.id, status: existing.status, duplicate: true };
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
  if (!row) return null;
  const result = (typeof row.result === "string" ? JSON.parse(row.result) : row.result) as {
    errors?: ImportRowError[];
    errorCount?: number;
    message?: string;
  } | null;
  return {
    jobGuid: row.id,
    status: row.status,
    fileName: row.file_name,
    rowsImported: row.rows_imported,
    errors: result?.errors ?? [],
    errorCount: result?.errorCount ?? 0,
    message: result?.message ?? null,
    createdAt: new Date(row.created_at as unknown as string).toISOString(),
    finishedAt: row.finished_at ? new Date(row.finished_at as unknown as string).toISOString() : null,
  };
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

/**
 * Runs one claimed job: every row in one transaction, the cube rebuilt, the job marked Completed
 * in that same transaction. A file with bad rows changes nothing and lists every bad cell.
 */
export async function runImportJob(
  db: Kysely<Schema>,
  job: { organisation_id: string; id: string; file_path: string; kind?: string; backup_id?: string | null },
) {
  if (job.kind === "Restore") return runRestoreJob(db, { ...job, backup_id: job.backup_id ?? "" });
  try {
    const rows = await db.transaction().execute(async (tx) => {
      // One import at a time per organisation, across every server of a PostgreSQL cluster.
      await sql`select pg_advisory_xact_lock(hashtext(${job.organisation_id}))`.execute(tx);
      // The data as it was before this import, to restore if the import was a mistake.
      await takeBackup(tx, job.organisation_id, "BeforeImport");
      const writer = createLineWriter(tx, job.organisation_id, job.id);
      const errors: ImportRowError[] = [];
      let errorCount = 0;
      const seen = new Map<string, number>();
      for await (const parsed of parseInvoiceRows(createReadStream(job.file_path))) {
        if (parsed.errors) {
          errorCount += parsed.errors.length;
          for (const e of parsed.errors) if (errors.length < importLimits.maxListedErrors) errors.push(e);
          continue;
        }
        const key = `${parsed.row.invoiceNumber}\u0000${parsed.row.lineNumber}`;
        const first = seen.get(key);
        if (first !== undefined) {
          errorCount++;
          if (errors.length < importLimits.maxListedErrors) {
            errors.push({
              line: parsed.row.line,
              column: "LineNumber",
              message: `invoice ${parsed.row.invoiceNumber} line ${parsed.row.lineNumber} is also on line ${first}`,
            });
          }
          continue;
        }
        seen.set(key, parsed.row.line);
        if (errorCount === 0) await writer.add(parsed.row);
      }
      if (errorCount > 0) throw new RejectedFile(errors, errorCount);
      const written = await writer.finish();
      await rebuildMonthlyCube(tx, job.organisation_id);
      await tx
        .updateTable("import_jobs")
        .set({ status: "Completed", rows_imported: written, finished_at: new Date(), result: null })
        .where("organisation_id", "=", job.organisation_id)
        .where("id", "=", job.id)
        .execute();
      return written;
    });
    await rm(job.file_path, { force: true });
    return { status: "Completed" as const, rows };
  } catch (error) {
    if (error instanceof RejectedFile) {
      await finishJob(db, job, "Failed", {
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

async function finishJob(
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

/** Claims the oldest pending job (any organisation), marking it Running; none: null. */
export async function claimNextImport(db: Kysely<Schema>) {
  const result = await sql<{
    organisation_id: string;
    id: string;
    file_path: string;
    attempts: number;
    kind: string;
    backup_id: string | null;
  }>`
    update import_jobs set status = 'Running', started_at = now(), attempts = attempts + 1
    where (organisation_id, id) = (
      select organisation_id, id from import_jobs where status = 'Pending'
      order by created_at limit 1 for update skip locked
    )
    returning organisation_id, id, file_path, attempts, kind, backup_id
  `.execute(db);
  return result.rows[0] ?? null;
}

/**
 * After a crash, a job left Running had its transaction rolled back with the process: it goes back
 * to Pending and runs again from the start, leaving no partial rows.
 */
export async function requeueInterruptedImports(db: Kysely<Schema>) {
  await db.updateTable("import_jobs").set({ status: "Pending" }).where("status", "=", "Running").execute();
}

/** A job that failed for a reason other than its data: tried again, or FailedPermanently. */
export async function failImportAttempt(
  db: Kysely<Schema>,
  job: { organisation_id: string; id: string; attempts: number },
  error: Error,
) {
  const final = job.attempts >= maxImportAttempts;
  await finishJob(db, job, final ? "FailedPermanently" : "Pending", {
    message: final ? `The import failed ${job.attempts} times: ${error.message}` : error.message,
  });
}

/** Runs every queued import now, one after another (admin commands run without a server). */
export async function runQueuedImports(db: Kysely<Schema>) {
  await requeueInterruptedImports(db);
  for (let job = await claimNextImport(db); job; job = await claimNextImport(db)) {
    try {
      await runImportJob(db, job);
    } catch (error) {
      await failImportAttempt(db, job, error as Error);
    }
  }
}

/** Queues the restore of a backup: a job like an import, so it survives a restart too. */
export async function enqueueRestore(
  db: Kysely<Schema>,
  organisationId: string,
  userId: string,
  backupId: string,
) {
  const id = randomUUID();
  await db
    .insertInto("import_jobs")
    .values({
      organisation_id: organisationId,
      id,
      user_id: userId,
      status: "Pending",
      file_name: `backup ${backupId}`,
      file_path: "",
      file_sha256: "",
      idempotency_key: `restore:${id}`,
      kind: "Restore",
      backup_id: backupId,
    })
    .execute();
  return { jobGuid: id, status: "Pending" as const };
}

/** Restores a backup in one transaction: a backup of the current data first, then the cube rebuilt. */
async function runRestoreJob(
  db: Kysely<Schema>,
  job: { organisation_id: string; id: string; backup_id: string },
) {
  const rows = await db
    .transaction()
    .execute(async (tx) => {
      await sql`select pg_advisory_xact_lock(hashtext(${job.organisation_id}))`.execute(tx);
      const backup = await tx
        .selectFrom("backups")
        .select("data")
        .where("organisation_id", "=", job.organisation_id)
        .where("id", "=", job.backup_id)
        .executeTakeFirst();
      if (!backup) throw new RejectedFile([], 0, `Backup ${job.backup_id} does not exist`);
      const content = readBackup(backup.data);
      await takeBackup(tx, job.organisation_id, "BeforeRestore");
      await restoreBackupContent(tx, job.organisation_id, content);
      await rebuildMonthlyCube(tx, job.organisation_id);
      await tx
        .updateTable("import_jobs")
        .set({
          status: "Completed",
          rows_imported: content.invoiceLines.length,
          finished_at: new Date(),
          result: null,
        })
        .where("organisation_id", "=", job.organisation_id)
        .where("id", "=", job.id)
        .execute();
      return content.invoiceLines.length;
    })
    .catch(async (error) => {
      if (error instanceof RejectedFile) {
        await finishJob(db, job, "Failed", { message: error.message });
        return -1;
      }
      throw error;
    });
  return { status: rows < 0 ? ("Failed" as const) : ("Completed" as const), rows: Math.max(rows, 0) };
}
