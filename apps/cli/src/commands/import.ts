import { openAsBlob } from "node:fs";
import { stat, writeFile } from "node:fs/promises";
import { basename } from "node:path";
import type { ApiClient } from "@varia/api-client";
import { type ImportJob, importGetJobStatus, importTemplate, importUpload } from "@varia/contracts";
import { importJobMachine, jobPollIntervalMs, jobStatusLabels } from "@varia/machines";
import type { Command } from "commander";
import { createActor, fromPromise, toPromise } from "xstate";
import { CliError } from "../cli-error";
import { configuredClient } from "../client";
import { type Output, printJson } from "../output";

/** Prints a rejected file's bad rows, one a line, as a person reads them. */
function describeRowErrors(job: ImportJob): string[] {
  const lines = job.errors.map((e) => `  line ${e.line}, ${e.column || "file"}: ${e.message}`);
  if (job.errorCount > job.errors.length) lines.push(`  ... and ${job.errorCount - job.errors.length} more`);
  return lines;
}

function summary(job: ImportJob): string {
  const label = jobStatusLabels[job.status];
  if (job.status === "Completed") return `${label}: ${job.rowsImported} lines imported from ${job.fileName}`;
  if (job.status === "Failed" || job.status === "FailedPermanently") {
    return [`${label}: ${job.message ?? job.fileName}`, ...describeRowErrors(job)].join("\n");
  }
  return `${label} (${job.fileName})`;
}

/**
 * Follows a job to its end with the importJob machine (the web app's own), printing each status
 * change to stderr; answers the final job.
 */
export async function waitForJob(client: ApiClient, jobGuid: string, pollIntervalMs: number, output: Output) {
  const machine = importJobMachine.provide({
    actors: {
      getStatus: fromPromise(({ input }) =>
        client.call(importGetJobStatus, { query: { JobGuid: input.jobGuid } }),
      ),
    },
  });
  const actor = createActor(machine, { input: { jobGuid, pollIntervalMs } });
  let last = "";
  actor.subscribe((snapshot) => {
    const label = jobStatusLabels[snapshot.context.status];
    if (label !== last && snapshot.status !== "done") {
      last = label;
      output.err(`${label}...`);
    }
  });
  actor.start();
  const { job } = await toPromise(actor);
  if (!job) throw new CliError(`Could not follow job ${jobGuid}`);
  return job;
}

/** A file's size as a person reads it. */
function sizeOf(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

function exitCodeOf(job: ImportJob): number {
  return job.status === "Completed"
    ? 0
    : job.status === "Failed" || job.status === "FailedPermanently"
      ? 2
      : 0;
}

export function registerImport(program: Command, output: Output) {
  const command = program.command("import").description("Import invoice lines from CSV");

  command
    .command("upload <file>")
    .description("Upload a CSV of invoice lines; with --wait, follow the job to its end")
    .option("--wait", "follow the job until it completes or fails (exit code 2 when it fails)")
    .option(
      "--poll-interval <seconds>",
      "seconds between status checks while waiting",
      String(jobPollIntervalMs / 1000),
    )
    .option("--idempotency-key <key>", "makes a retried upload a no-op (default: the file's SHA-256)")
    .option("--json", "print JSON")
    .action(
      async (
        file: string,
        options: { wait?: boolean; pollInterval: string; idempotencyKey?: string; json?: boolean },
      ) => {
        const seconds = Number(options.pollInterval);
        if (!Number.isFinite(seconds) || seconds <= 0) {
          throw new CliError(
            `Invalid --poll-interval '${options.pollInterval}': a number of seconds above 0`,
          );
        }
        const info = await stat(file).catch((error: NodeJS.ErrnoException) => {
          throw new CliError(
            `Cannot read ${file}: ${error.code === "ENOENT" ? "no such file" : error.message}`,
          );
        });
        if (!info.isFile()) throw new CliError(`Cannot read ${file}: not a file`);
        // Sent from disk as it is read, never held in memory whole.
        const data = await openAsBlob(file, { type: "text/csv" });
        const client = configuredClient();
        if (options.wait && !options.json)
          output.err(`Uploading ${basename(file)} (${sizeOf(info.size)})...`);
        const queued = await client.upload(importUpload, {
          file: data,
          fileName: basename(file),
          headers: options.idempotencyKey ? { "idempotency-key": options.idempotencyKey } : {},
        });
        if (!options.wait) {
          if (options.json) printJson(output, queued);
          else output.out(`${queued.duplicate ? "Already uploaded as" : "Queued as"} job ${queued.jobGuid}`);
          return;
        }
        if (!options.json) output.err(`Uploaded ${basename(file)} as job ${queued.jobGuid}`);
        const job = await waitForJob(client, queued.jobGuid, seconds * 1000, output);
        if (options.json) printJson(output, job);
        else output.out(summary(job));
        process.exitCode = exitCodeOf(job);
      },
    );

  command
    .command("status <job>")
    .description("Show an import job's status (and a rejected file's bad rows)")
    .option("--json", "print JSON")
    .action(async (jobGuid: string, options: { json?: boolean }) => {
      const job = await configuredClient().call(importGetJobStatus, { query: { JobGuid: jobGuid } });
      if (options.json) printJson(output, job);
      else output.out(summary(job));
      process.exitCode = exitCodeOf(job);
    });

  command
    .command("template")
    .description("Print the CSV template (or save it with -o)")
    .option("-o, --output <file>", "write the template to a file")
    .option("--json", "print JSON")
    .action(async (options: { output?: string; json?: boolean }) => {
      const file = await configuredClient().download(importTemplate);
      const text = new TextDecoder().decode(file.data);
      if (options.output) {
        await writeFile(options.output, text);
        if (options.json) printJson(output, { file: options.output, bytes: file.data.length });
        else output.out(`Saved the template to ${options.output}`);
      } else if (options.json) printJson(output, { fileName: file.fileName, content: text });
      else output.out(text.trimEnd());
    });
}
