import type { Command } from "commander";
import { listedIdArgument } from "../../filters/listed-id";
import type { Lazy } from "../../program";
import { pollIntervalOption, waitTimeoutOption } from "../job-options";

const backupID = listedIdArgument("a backup's id", "varia backups list");

/** `varia backups list|create|download|restore|delete`: the organisation's backups (docs/storage.md, "Backups are undo records and snapshots"). */
export function defineBackups(program: Command, lazy: Lazy) {
  const backups = program
    .command("backups")
    .description("The organisation's backups: list, create, download, restore, delete");
  backups
    .command("list")
    .description("List the backups, newest first: when each was taken, why, the lines it holds and its size")
    .action(lazy(() => import("./backups").then((m) => m.runBackupsList)));
  backups
    .command("create")
    .description("Take a backup of the organisation's invoice data now (kept until deleted)")
    .action(lazy(() => import("./backups").then((m) => m.runBackupsCreate)));
  backups
    .command("download")
    .argument("<backup>", "a backup's id (`varia backups list`), or its first characters", backupID)
    .description("Save a backup as its portable file (gzip'd JSON), saying how many bytes")
    .requiredOption("-o, --output <file>", "where to write the backup (- for stdout, not a terminal)")
    .action(lazy(() => import("./backups").then((m) => m.runBackupsDownload)));
  backups
    .command("restore")
    .argument("<backup>", "a backup's id (`varia backups list`), or its first characters", backupID)
    .description(
      "Restore a backup as a job (an admin's token only), undoing every import and restore since; with --wait, follow it",
    )
    .option("--yes", "restore it: without, say what it would undo and change nothing")
    .option("--wait", "follow the job until it ends: exit 4 when it fails")
    .addOption(pollIntervalOption())
    .addOption(waitTimeoutOption())
    .action(lazy(() => import("./backups").then((m) => m.runBackupsRestore)));
  backups
    .command("delete")
    .argument("<backup>", "a backup's id (`varia backups list`), or its first characters", backupID)
    .description("Delete a backup (an admin's token only): what it holds can no longer be restored")
    .option("--yes", "delete it: without, say what would go and change nothing")
    .action(lazy(() => import("./backups").then((m) => m.runBackupsDelete)));
}
