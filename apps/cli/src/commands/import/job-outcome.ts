import { type ImportJob, importedLinesSplit, restoredLinesSentence } from "@varia/contracts";
import { jobStatusLabels } from "@varia/machines";
import type { CommandContext } from "../../context";
import { type ExitCode, exitCodes } from "../../errors/exit-codes";
import { formatCount } from "../../output/format";

/**
 * A job's exit code: a job that lists bad cells was rejected for its data (2); one that ended Failed
 * or FailedPermanently without any failed for another reason (4), after the server's retries; any
 * other status, 0.
 */
export function jobExitCode(job: ImportJob): ExitCode {
  if (job.status !== "Failed" && job.status !== "FailedPermanently") return exitCodes.ok;
  return job.errorCount > 0 ? exitCodes.refused : exitCodes.jobFailed;
}

/** A rejected file's bad cells, one a line, as a person reads them. */
export function rowErrorLines(job: ImportJob): string[] {
  const lines = job.errors.map((e) => `  line ${e.line}, ${e.column || "file"}: ${e.message}`);
  if (job.errorCount > job.errors.length)
    lines.push(`  ... and ${formatCount(job.errorCount - job.errors.length)} more`);
  return lines;
}

/**
 * What a completed job did, by its kind: an import's lines split into new ones and those that
 * replaced stored lines; a restore's lines, those stored once it ended.
 */
function completedWork(job: ImportJob): string {
  const lines = `${formatCount(job.rowsImported ?? 0)} ${job.rowsImported === 1 ? "line" : "lines"}`;
  if (job.kind === "Restore")
    return `restored ${job.fileName}: ${restoredLinesSentence(job.rowsImported ?? 0, formatCount)}`;
  if (job.kind === "RebuildCube") return `the cube rebuilt from the ${lines} stored`;
  const split = importedLinesSplit(job, formatCount);
  return `${lines} imported from ${job.fileName}${split ? `: ${split}` : ""}`;
}

/** A job's state in a line (the status label of docs/behaviour.md#import-jobs first), then its bad cells. */
export function jobSummary(job: ImportJob): string {
  const label = jobStatusLabels[job.status];
  if (job.status === "Completed") return `${label}: ${completedWork(job)}`;
  if (job.status === "Failed" || job.status === "FailedPermanently")
    return [`${label}: ${job.message ?? job.fileName}`, ...rowErrorLines(job)].join("\n");
  return `${label} (${job.fileName}, job ${job.jobGuid})`;
}

/**
 * A job as the command's result: with --json the job on stdout; else its summary, on stdout when
 * it did not fail, and on stderr with every bad cell when it did (an error, like any other). The
 * exit code follows `jobExitCode`.
 */
export function printJob(ctx: CommandContext, job: ImportJob): void {
  const code = jobExitCode(job);
  if (ctx.options.json) ctx.terminal.json(job);
  else if (code === exitCodes.ok) ctx.terminal.out(jobSummary(job));
  else ctx.terminal.error(jobSummary(job));
  ctx.exitWith(code);
}
