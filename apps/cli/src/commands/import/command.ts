import { type Command, Option } from "commander";
import { idArgument, parseSeconds } from "../../filters/filter-options";
import type { Lazy } from "../../program";

/** `varia import upload|status|template`. */
export function defineImport(program: Command, lazy: Lazy) {
  const command = program.command("import").description("Import invoice lines from CSV");
  command
    .command("upload")
    .argument("<file>", "a CSV of invoice lines (`varia import template` shows the columns)")
    .description(
      "Upload a CSV of invoice lines (bytes sent shown on a terminal); with --wait, follow the job to its end",
    )
    .option(
      "--wait",
      "follow the job until it ends: exit 2 when the file is rejected, 4 when the job fails otherwise",
    )
    .addOption(
      new Option("--poll-interval <seconds>", "seconds between status checks while waiting")
        .argParser(parseSeconds)
        .default(5000, "5"),
    )
    .option("--idempotency-key <key>", "makes a retried upload a no-op (default: the file's SHA-256)")
    .action(lazy(() => import("./upload-file").then((m) => m.runUpload)));
  command
    .command("status")
    .argument(
      "<job>",
      "the job id that `varia import upload` printed",
      idArgument("a job id", "varia import upload"),
    )
    .description("Show an import job's status, and a rejected file's bad cells (exit codes as upload --wait)")
    .action(lazy(() => import("./job-status").then((m) => m.runJobStatus)));
  command
    .command("template")
    .description("Print the CSV template (or save it with -o)")
    .option("-o, --output <file>", "write the template to a file")
    .action(lazy(() => import("./template").then((m) => m.runTemplate)));
}
