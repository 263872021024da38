import { importJobListLimits } from "@varia/contracts";
import { type Command, InvalidArgumentError, Option } from "commander";
import { integerAtLeast } from "../../filters/filter-options";
import { listedIdArgument } from "../../filters/listed-id";
import type { Lazy } from "../../program";
import { pollIntervalOption, waitTimeoutOption } from "../job-options";

/** `--limit` of `import list`: a whole number from 1 to what Import/GetJobs answers at most. */
function parseJobLimit(value: string): number {
  const n = integerAtLeast(1)(value);
  if (n > importJobListLimits.max)
    throw new InvalidArgumentError(`expected at most ${importJobListLimits.max}.`);
  return n;
}

/**
 * `--name` of `import upload`: a plain file name ending in .csv, as the server keeps it with the job
 * (docs/import.md, "Validation": the upload is refused otherwise, after its bytes are sent).
 */
function parseUploadName(value: string): string {
  const name = value.trim();
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  if (!/\.csv$/i.test(name) || /[/\\\u0000-\u001f\u007f]/.test(name) || name.length > 255)
    throw new InvalidArgumentError("expected a file name ending in .csv, such as lines-2025-06.csv.");
  return name;
}

/** `varia import upload|status|list|template`. */
export function defineImport(program: Command, lazy: Lazy) {
  const command = program.command("import").description("Import invoice lines from CSV");
  command
    .command("upload")
    .argument(
      "<file>",
      "a CSV of invoice lines (`varia import template` shows the columns); - reads standard input",
    )
    .description(
      "Upload a CSV of invoice lines (bytes sent shown on a terminal); with --wait, follow the job to its end",
    )
    .option(
      "--wait",
      "follow the job until it ends: exit 2 when the file is rejected, 4 when the job fails otherwise",
    )
    .addOption(pollIntervalOption())
    .addOption(waitTimeoutOption())
    .option("--idempotency-key <key>", "makes a retried upload a no-op (default: the file's SHA-256)")
    .addOption(
      new Option(
        "--name <file name>",
        "the name the job and its backup are listed under (default: the file's own; stdin.csv for -)",
      ).argParser(parseUploadName),
    )
    .action(lazy(() => import("./upload-file").then((m) => m.runUpload)));
  command
    .command("status")
    .argument(
      "<job>",
      "the job id that `varia import upload` printed, or the first characters of one of the latest (`varia import list`)",
      listedIdArgument("a job id", "varia import upload"),
    )
    .description("Show an import job's status, and a rejected file's bad cells (exit codes as upload --wait)")
    .action(lazy(() => import("./job-status").then((m) => m.runJobStatus)));
  command
    .command("list")
    .description(
      "List the latest imports, newest first: uploads, data sources' imports and restores, with who started each",
    )
    .addOption(
      new Option("--limit <n>", `how many (at most ${importJobListLimits.max})`)
        .argParser(parseJobLimit)
        .default(importJobListLimits.default, String(importJobListLimits.default)),
    )
    .action(lazy(() => import("./list-jobs").then((m) => m.runImportList)));
  command
    .command("template")
    .description("Print the CSV template (or save it with -o)")
    .option("-o, --output <file>", "write the template to a file (- for stdout, exactly as served)")
    .action(lazy(() => import("./template").then((m) => m.runTemplate)));
}
