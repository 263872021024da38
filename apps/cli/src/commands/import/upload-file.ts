import { createWriteStream, openAsBlob } from "node:fs";
import { mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { pipeline } from "node:stream/promises";
import { importUpload, type JobStatus } from "@varia/contracts";
import type { CommandContext } from "../../context";
import { CliError } from "../../errors/cli-error";
import { exitCodes } from "../../errors/exit-codes";
import { configuredClient } from "../../http/client";
import { formatSize, formatTransfer } from "../../output/format";
import { throttled } from "../../transfer/throttled";
import { followJob } from "./follow-job";
import { jobExitCode, jobSummary, printJob } from "./job-outcome";

interface UploadOptions {
  wait?: boolean;
  pollInterval: number;
  waitTimeout?: number;
  idempotencyKey?: string;
  name?: string;
}

/** The file argument that means standard input, as Unix tools take it. */
const stdinPath = "-";

/**
 * Standard input (`-`, as in `generate-lines | varia import upload -`) copied to a file of its own,
 * `stdin.csv` in a folder removed when the command ends: the upload is sent from disk with its size,
 * and never held in memory whole. A terminal is refused: nobody types a CSV.
 */
async function stdinToFile(ctx: CommandContext): Promise<string> {
  if (process.stdin.isTTY)
    throw new CliError(
      "Standard input is a terminal: pipe the CSV in (... | varia import upload -), or give its file",
    );
  const folder = await mkdtemp(join(tmpdir(), "varia-stdin-"));
  ctx.onClose(() => rm(folder, { recursive: true, force: true }));
  const path = join(folder, "stdin.csv");
  await pipeline(process.stdin, createWriteStream(path)).catch((error: Error) => {
    throw new CliError(`Cannot read standard input: ${error.message}`);
  });
  return path;
}

/**
 * `varia import upload`: sends the file from disk as it is read (never held in memory whole; never
 * retried), showing the bytes sent on a terminal; with --wait, follows the job to its end.
 */
export async function runUpload(ctx: CommandContext, [file]: string[], options: UploadOptions) {
  const path = file === stdinPath ? await stdinToFile(ctx) : file!;
  const info = await stat(path).catch((error: NodeJS.ErrnoException) => {
    throw new CliError(`Cannot read ${path}: ${error.code === "ENOENT" ? "no such file" : error.message}`);
  });
  if (!info.isFile()) throw new CliError(`Cannot read ${path}: not a file`);
  const data = await openAsBlob(path, { type: "text/csv" });
  const { client } = configuredClient(ctx);
  const name = options.name ?? basename(path);
  ctx.terminal.note(`Uploading ${name} (${formatSize(info.size)})...`);
  const show = throttled((sent: number, total: number | undefined) =>
    ctx.terminal.progress(`Uploading ${name}: ${formatTransfer(sent, total)}`),
  );
  const queued = await client.upload(
    importUpload,
    {
      file: data,
      fileName: name,
      headers: options.idempotencyKey ? { "idempotency-key": options.idempotencyKey } : {},
    },
    { onProgress: (sent, total) => show.update(sent, total) },
  );
  show.flush();
  ctx.terminal.endProgress();
  if (!options.wait) {
    if (ctx.options.json) ctx.terminal.json(queued);
    else if (!queued.duplicate) ctx.terminal.out(`Queued as job ${queued.jobGuid}`);
    else
      ctx.terminal.out(
        `Already uploaded as job ${queued.jobGuid} (${queued.status}): nothing is imported again`,
      );
    if (queued.duplicate) noteFailedBefore(ctx, queued);
    return;
  }
  // The same file (or key) again imports nothing: the job followed is the one it was the first time.
  ctx.terminal.note(
    queued.duplicate
      ? `${name} was already uploaded as job ${queued.jobGuid}: nothing is imported again; that job's status follows`
      : `Uploaded ${name} as job ${queued.jobGuid}`,
  );
  const job = await followJob(ctx, client, queued.jobGuid, options);
  // Said on stdout and in the JSON too: a script (or --quiet) must not read the earlier upload's
  // "lines imported" as this one's.
  if (ctx.options.json) {
    ctx.terminal.json({ ...job, duplicate: queued.duplicate });
    ctx.exitWith(jobExitCode(job));
  } else if (queued.duplicate && jobExitCode(job) === exitCodes.ok) {
    ctx.terminal.out(
      `${name} was uploaded before, as job ${job.jobGuid}: nothing is imported again. What that upload did: ${jobSummary(job)}`,
    );
  } else printJob(ctx, job);
  // A refused file's bad cells are listed above already.
  if (queued.duplicate && job.status === "FailedPermanently") noteFailedBefore(ctx, job);
}

/**
 * The same file (or key) as a job that failed answers that job again, and imports nothing: said
 * with what to do, as a pipeline run again after a failure would otherwise fail the same way. A
 * file refused for its data must change (its bad cells are listed by `varia import status`); one
 * whose import failed otherwise (the server's fault) is sent again under a new key.
 */
function noteFailedBefore(ctx: CommandContext, job: { jobGuid: string; status: JobStatus }) {
  if (job.status === "Failed")
    ctx.terminal.note(
      `That job was refused for the file's data: correct the file (\`varia import status ${job.jobGuid}\` lists its bad cells) and upload it again`,
    );
  else if (job.status === "FailedPermanently")
    ctx.terminal.note(
      "That job failed for a reason other than the file's data: to import the same file again, upload it with a new --idempotency-key",
    );
}
