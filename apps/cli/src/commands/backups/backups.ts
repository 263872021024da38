import {
  type Backup,
  backupCreate,
  backupDelete,
  backupDownload,
  backupList,
  backupReason,
  backupRestore,
  deleteAlsoLoses,
  restoreSummary,
} from "@varia/contracts";
import type { CommandContext } from "../../context";
import { CliError } from "../../errors/cli-error";
import { pickListed } from "../../filters/listed-id";
import { configuredClient } from "../../http/client";
import { formatByteCount, formatCount, formatSize, formatUtc } from "../../output/format";
import { formatTable } from "../../output/table";
import { checkOutput, downloadTo, reportWritten, where } from "../../transfer/download-to";
import { followJob } from "../import/follow-job";
import { printJob } from "../import/job-outcome";

/** When a backup was taken, to the second (several may share a minute). */
const takenAt = (iso: string) => formatUtc(iso, { seconds: true });

const lines = (n: number) => `${formatCount(n)} invoice ${n === 1 ? "line" : "lines"}`;

/** The backup a user named by its id or its first characters, from the list (`pickListed`). */
async function named(ctx: CommandContext, id: string): Promise<{ backup: Backup; all: Backup[] }> {
  const { client } = configuredClient(ctx);
  const all = await client.call(backupList);
  const backup = pickListed(all, id, {
    keys: (b) => [b.backupID],
    describe: (b) => `${b.backupID}  ${takenAt(b.createdAt)}  ${backupReason(b)}`,
    what: "backup",
    whats: "backups",
    listedBy: "varia backups list",
  });
  return { backup, all };
}

/** `varia backups list`: Backup/BackupList, newest first. */
export async function runBackupsList(ctx: CommandContext) {
  const { client } = configuredClient(ctx);
  const backups = await client.call(backupList);
  if (ctx.options.json) return ctx.terminal.json(backups);
  if (backups.length === 0) return ctx.terminal.out("No backups yet: one is taken before every import");
  ctx.terminal.out(
    formatTable(
      [
        ["ID", "TAKEN", "WHY", "LINES", "SIZE"],
        ...backups.map((b) => [
          b.backupID,
          takenAt(b.createdAt),
          backupReason(b),
          formatCount(b.lineCount),
          formatSize(b.sizeBytes),
        ]),
      ],
      ["left", "left", "left", "right", "right"],
    ),
  );
}

/** `varia backups create`: Backup/Create. */
export async function runBackupsCreate(ctx: CommandContext) {
  const { client } = configuredClient(ctx);
  const backup = await client.call(backupCreate);
  if (ctx.options.json) return ctx.terminal.json(backup);
  ctx.terminal.out(
    `Backup ${backup.backupID} taken: ${lines(backup.lineCount)} (${formatByteCount(backup.sizeBytes)})`,
  );
}

/** `varia backups download`: Backup/Download to a file. */
export async function runBackupsDownload(ctx: CommandContext, [id]: string[], options: { output: string }) {
  const binary = "a gzip-compressed backup";
  checkOutput(ctx, options.output, binary);
  const { client } = configuredClient(ctx);
  const { backup } = await named(ctx, id!);
  const file = await downloadTo(
    ctx,
    options.output,
    (onProgress) => client.download(backupDownload, { query: { backupID: backup.backupID } }, { onProgress }),
    binary,
  );
  reportWritten(
    ctx,
    options.output,
    { file: options.output, bytes: file.body.length },
    `Wrote backup ${backup.backupID} (${formatByteCount(file.body.length)}) to ${where(options.output)}`,
  );
}

/** What a restore of `backup` undoes, in a sentence (as the Backups page's confirmation says it). */
function undoes(backup: Backup, all: Backup[]): string {
  const { importsUndone, restoresUndone } = restoreSummary(all, backup);
  const undone = [
    ...importsUndone.map(
      (b) => `the import ${b.importFileName ? `of ${b.importFileName} ` : ""}at ${takenAt(b.createdAt)}`,
    ),
    ...restoresUndone.map((b) => `the restore of ${takenAt(b.createdAt)}`),
  ];
  return undone.length
    ? `it undoes ${undone.join("; ")}`
    : "no import or restore has been made since it was taken";
}

/**
 * `varia backups restore`: Backup/Restore, only with --yes (a pipeline that forgets it changes
 * nothing); the backup is read from the list first, to say what the restore undoes and to refuse an
 * unknown id. With --wait, the job is followed as `import upload --wait` follows one.
 */
export async function runBackupsRestore(
  ctx: CommandContext,
  [id]: string[],
  options: { yes?: boolean; wait?: boolean; pollInterval: number; waitTimeout?: number },
) {
  const { backup, all } = await named(ctx, id!);
  const what = `the backup of ${takenAt(backup.createdAt)} (${backupReason(backup)})`;
  if (!options.yes)
    throw new CliError(
      `Restoring ${what} replaces the organisation's invoice lines, clients, items and salespeople; ${undoes(backup, all)}. A backup of the data as it is now is taken first. Run again with --yes to restore`,
    );
  const { client } = configuredClient(ctx);
  const queued = await client.call(backupRestore, { query: { backupID: backup.backupID } });
  if (!options.wait) {
    if (ctx.options.json) return ctx.terminal.json(queued);
    return ctx.terminal.out(
      `Restore queued as job ${queued.jobGuid} (varia import status ${queued.jobGuid})`,
    );
  }
  ctx.terminal.note(`Restoring ${what} as job ${queued.jobGuid}`);
  printJob(ctx, await followJob(ctx, client, queued.jobGuid, options));
}

/** `varia backups delete`: Backup/Delete, only with --yes. */
export async function runBackupsDelete(ctx: CommandContext, [id]: string[], options: { yes?: boolean }) {
  const { backup, all } = await named(ctx, id!);
  const what = `the backup of ${takenAt(backup.createdAt)} (${backupReason(backup)}, ${lines(backup.lineCount)})`;
  const alsoLost = deleteAlsoLoses(all, backup);
  if (!options.yes)
    throw new CliError(
      `Deleting ${what} means it can no longer be restored${alsoLost ? `, and ${alsoLost}` : ""}; run again with --yes to delete it`,
    );
  const { client } = configuredClient(ctx);
  await client.call(backupDelete, { query: { backupID: backup.backupID } });
  if (ctx.options.json) return ctx.terminal.json({ deleted: backup.backupID });
  ctx.terminal.out(`Deleted ${what}`);
}
