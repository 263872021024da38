import { z } from "zod";
import { abilities } from "./abilities";
import { emptySchema } from "./common";
import { defineContract } from "./define-contract";
import { jobStatusSchema } from "./imports";

export const backupSchema = z.object({
  backupID: z.string(),
  reason: z.enum(["BeforeImport", "OnDemand", "BeforeRestore"]),
  lineCount: z.number().int(),
  sizeBytes: z.number().int(),
  createdAt: z.string(),
  /** Taken before an import: the name of that import's file (a data source's import: its source). */
  importFileName: z.string().nullable(),
  /**
   * Taken before an import: that import's job (as `import/upload` answered it), so that a script can
   * undo one import by restoring the backup taken before it; null for the others.
   */
  importJobGuid: z.string().nullable(),
});
export type Backup = z.infer<typeof backupSchema>;

/**
 * Why a backup was taken, within a sentence: "before the import of lines.csv" (naming the import's
 * file when it was taken before one), "made by hand", "before a restore".
 */
export function backupReason(backup: Backup): string {
  if (backup.reason === "BeforeImport")
    return backup.importFileName ? `before the import of ${backup.importFileName}` : "before an import";
  return backup.reason === "OnDemand" ? "made by hand" : "before a restore";
}

/** What restoring a backup replaces: the imports and restores made since it was taken. */
export interface RestoreSummary {
  /** The imports undone: a backup taken before an import at or after this one's time marks one. */
  importsUndone: Backup[];
  /** Restores made since (each took a backup before it ran). */
  restoresUndone: Backup[];
}

/**
 * The imports and restores a restore of `chosen` undoes, from the list (newest first): every
 * automatic backup taken at or after it marks one (a backup taken before an import holds the data
 * the import then replaced, so restoring that backup undoes that import too).
 */
export function restoreSummary(backups: readonly Backup[], chosen: Backup): RestoreSummary {
  const since = backups.filter((b) => b.createdAt >= chosen.createdAt && b.backupID !== chosen.backupID);
  return {
    importsUndone: [
      ...(chosen.reason === "BeforeImport" ? [chosen] : []),
      ...since.filter((b) => b.reason === "BeforeImport"),
    ].sort((a, b) => a.createdAt.localeCompare(b.createdAt)),
    restoresUndone: since.filter((b) => b.reason === "BeforeRestore"),
  };
}

/**
 * The backups taken before earlier imports that could no longer be restored once `deleted`, a backup
 * taken before an import, is gone: restoring one undoes every import since, this one's too, unless a
 * restore in between left the snapshot the walk starts from. The Backups page and `varia backups
 * delete` say so before deleting.
 * (docs/storage.md, "Backups are undo records and snapshots")
 */
export function restoresLostByDeleting(backups: readonly Backup[], deleted: Backup): Backup[] {
  if (deleted.reason !== "BeforeImport") return [];
  const restores = backups.filter((b) => b.reason === "BeforeRestore");
  return backups.filter(
    (b) =>
      b.reason === "BeforeImport" &&
      b.createdAt < deleted.createdAt &&
      !restores.some((r) => r.createdAt > b.createdAt && r.createdAt < deleted.createdAt),
  );
}

/** What deleting `deleted` costs besides itself, in words: "" when it costs nothing more. */
export function deleteAlsoLoses(backups: readonly Backup[], deleted: Backup): string {
  const lost = restoresLostByDeleting(backups, deleted).length;
  if (lost === 0) return "";
  return `${lost === 1 ? "the backup" : `the ${lost} backups`} taken before earlier imports can then no longer be restored either, as restoring ${lost === 1 ? "it" : "one"} would undo this import too`;
}

export const backupList = defineContract({
  name: "Backup/BackupList",
  method: "GET",
  root: "api",
  path: "Backup/BackupList",
  response: z.array(backupSchema),
  responseKind: "json",
  access: abilities.settingsBackupsManage,
  summary: "The organisation's backups, newest first (one is taken before every import).",
});

export const backupCreate = defineContract({
  name: "Backup/Create",
  method: "POST",
  root: "api",
  path: "Backup/Create",
  response: backupSchema,
  responseKind: "json",
  access: abilities.settingsBackupsManage,
  policy: "never",
  summary: "Take a backup of the organisation's invoice data now.",
});

export const backupDownload = defineContract({
  name: "Backup/Download",
  method: "GET",
  root: "api",
  path: "Backup/Download",
  query: z.object({ backupID: z.uuid() }),
  response: z.string(),
  responseKind: "file",
  access: abilities.settingsBackupsManage,
  summary: "A backup as a portable file (gzip'd JSON).",
});

export const backupRestore = defineContract({
  name: "Backup/Restore",
  method: "POST",
  root: "api",
  path: "Backup/Restore",
  query: z.object({ backupID: z.uuid() }),
  response: z.object({ jobGuid: z.string(), status: jobStatusSchema }),
  responseKind: "json",
  access: abilities.settingsBackupsManage,
  policy: "never",
  summary: "Restore a backup (admins only), as a job: follow it with Import/GetJobStatus.",
});

export const backupDelete = defineContract({
  name: "Backup/Delete",
  method: "DELETE",
  root: "api",
  path: "Backup/Delete",
  query: z.object({ backupID: z.uuid() }),
  response: emptySchema,
  responseKind: "empty",
  access: abilities.settingsBackupsManage,
  policy: "never",
  summary: "Delete a backup (admins only); the data it holds can no longer be restored.",
});
