import {
  type Backup,
  backupCreate,
  backupDelete,
  backupDownload,
  backupList,
  backupReason,
  backupRestore,
} from "@varia/contracts";
import type { FastifyInstance } from "fastify";
import { actsAsAdmin } from "../auth/caller-reach";
import { AppError } from "../errors";
import { registerContract } from "../http/contract-route";
import type { AppDeps } from "../http/deps";
import { portableBackup, takeBackup } from "../imports/backups";
import { enqueueRestore } from "../imports/import-jobs";

const iso = (value: unknown) => new Date(value as string).toISOString();

/**
 * A backup as a restore job names it where an import names its file (Import/GetJobs, the CLI's
 * outcome): when it was taken, in UTC, and why.
 */
function backupName(backup: Backup): string {
  return `the backup of ${backup.createdAt.slice(0, 10)} ${backup.createdAt.slice(11, 19)} UTC (${backupReason(backup)})`;
}

/** Backups (docs/storage.md, docs/settings.md): list, take now, download, restore (admins only, as a job), delete (admins only). */
export async function backupRoutes(app: FastifyInstance, deps: AppDeps) {
  /** The organisation's backups as Backup/BackupList answers them, newest first; only `backupID` when given. */
  const backupsOf = async (organisationId: string, backupID?: string) => {
    let query = deps.db
      .selectFrom("backups as b")
      .leftJoin("import_jobs as j", (join) =>
        join.onRef("j.organisation_id", "=", "b.organisation_id").onRef("j.id", "=", "b.import_job_id"),
      )
      .select([
        "b.id",
        "b.reason",
        "b.line_count",
        "b.size_bytes",
        "b.created_at",
        "b.import_job_id",
        "j.file_name",
      ])
      .where("b.organisation_id", "=", organisationId);
    if (backupID) query = query.where("b.id", "=", backupID);
    const rows = await query.orderBy("b.created_at", "desc").execute();
    return rows.map((r) => ({
      backupID: r.id,
      reason: r.reason,
      lineCount: r.line_count,
      sizeBytes: r.size_bytes,
      createdAt: iso(r.created_at),
      importFileName: r.file_name ?? null,
      importJobGuid: r.import_job_id,
    }));
  };

  registerContract(app, deps, backupList, ({ auth }) => backupsOf(auth!.organisation.id));

  registerContract(app, deps, backupCreate, async ({ auth }) => {
    const taken = await deps.database.bulkTransaction((session) =>
      takeBackup(session, auth!.organisation.id, "OnDemand"),
    );
    // As the list will show it: the time the database stamped it with.
    const [backup] = await backupsOf(auth!.organisation.id, taken.id);
    return backup!;
  });

  registerContract(app, deps, backupDownload, async ({ auth, query, reply }) => {
    const backup = await portableBackup(deps.database, auth!.organisation.id, query.backupID);
    if (!backup) throw new AppError("NotFound", `No backup ${query.backupID}`);
    const stamp = iso(backup.createdAt).replace(/[:.]/g, "-");
    reply
      .type("application/gzip")
      .header(
        "content-disposition",
        `attachment; filename="varia-backup-${auth!.organisation.tenant}-${stamp}.json.gz"`,
      );
    return backup.file as unknown as string;
  });

  registerContract(app, deps, backupRestore, async ({ auth, query }) => {
    if (!actsAsAdmin(auth!)) throw new AppError("Forbidden", "Only an admin can restore a backup.");
    const [backup] = await backupsOf(auth!.organisation.id, query.backupID);
    if (!backup) throw new AppError("NotFound", `No backup ${query.backupID}`);
    return enqueueRestore(
      deps.jobs,
      auth!.organisation.id,
      auth!.user.id,
      backup.backupID,
      backupName(backup),
    );
  });

  // The backup's stored lines go with its row (a foreign key with on delete cascade).
  registerContract(app, deps, backupDelete, async ({ auth, query }) => {
    if (!actsAsAdmin(auth!)) throw new AppError("Forbidden", "Only an admin can delete a backup.");
    const deleted = await deps.db
      .deleteFrom("backups")
      .where("organisation_id", "=", auth!.organisation.id)
      .where("id", "=", query.backupID)
      .executeTakeFirst();
    if (Number(deleted.numDeletedRows) !== 1) throw new AppError("NotFound", `No backup ${query.backupID}`);
  });
}
