import { type ImportJobSummary, importGetJobs, jobKindLabels, jobStartedByLabel } from "@varia/contracts";
import type { CommandContext } from "../../context";
import { configuredClient } from "../../http/client";
import { formatCount, formatUtc } from "../../output/format";
import { formatTable } from "../../output/table";

/** What came of a job: its lines, a refused file's bad cells, or why it failed. */
function result(job: ImportJobSummary): string {
  if (job.status === "Completed")
    return `${formatCount(job.rowsImported ?? 0)} ${job.rowsImported === 1 ? "line" : "lines"}`;
  if (job.status === "Failed" && job.errorCount > 0)
    return `${formatCount(job.errorCount)} bad ${job.errorCount === 1 ? "cell" : "cells"}`;
  if (job.status === "Failed" || job.status === "FailedPermanently") return job.message ?? "";
  return "";
}

/**
 * `varia import list`: Import/GetJobs, the organisation's latest jobs newest first (docs/import.md,
 * "The list of jobs"); with --json, as the call answers them.
 */
export async function runImportList(ctx: CommandContext, _args: string[], options: { limit?: number }) {
  const { client } = configuredClient(ctx);
  const jobs = await client.call(importGetJobs, { query: { Limit: options.limit } });
  if (ctx.options.json) return ctx.terminal.json(jobs);
  if (jobs.length === 0) return ctx.terminal.out("No imports yet");
  ctx.terminal.out(
    formatTable(
      [
        ["JOB", "QUEUED", "KIND", "FILE OR SOURCE", "BY", "STATUS", "RESULT"],
        ...jobs.map((j) => [
          j.jobGuid,
          formatUtc(j.createdAt),
          jobKindLabels[j.kind],
          j.fileName,
          jobStartedByLabel(j),
          j.status,
          result(j),
        ]),
      ],
      ["left", "left", "left", "left", "left", "left", "left"],
    ),
  );
}
