import { addJob, maintenanceJobSchema } from "@varia/contracts";
import type { CommandContext } from "../../context";
import { CliError } from "../../errors/cli-error";
import { exitCodes } from "../../errors/exit-codes";
import { configuredClient } from "../../http/client";
import { followJob } from "../import/follow-job";
import { printJob } from "../import/job-outcome";

interface AddOptions {
  wait?: boolean;
  pollInterval: number;
  waitTimeout?: number;
}

/** `varia jobs add`: System/AddJob; with --wait, follows the job as `import upload --wait` does. */
export async function runJobsAdd(ctx: CommandContext, [named]: string[], options: AddOptions) {
  const job = maintenanceJobSchema.safeParse(named);
  if (!job.success)
    throw new CliError(
      `No maintenance job '${named}': one of ${maintenanceJobSchema.options.join(", ")}`,
      exitCodes.usage,
    );
  const { client } = configuredClient(ctx);
  const queued = await client.call(addJob, { body: { job: job.data } });
  if (!options.wait) {
    if (ctx.options.json) ctx.terminal.json(queued);
    else ctx.terminal.out(`Queued as job ${queued.jobGuid} (varia import status ${queued.jobGuid})`);
    return;
  }
  ctx.terminal.note(`${job.data} queued as job ${queued.jobGuid}`);
  printJob(ctx, await followJob(ctx, client, queued.jobGuid, options));
}
