import type { Backup } from "@varia/contracts";

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
