import { importGetJobStatus, importGetJobs, importJobListLimits } from "@varia/contracts";
import type { CommandContext } from "../../context";
import { pickListed } from "../../filters/listed-id";
import { configuredClient } from "../../http/client";
import { formatUtc } from "../../output/format";
import { printJob } from "./job-outcome";

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * `varia import status`: Import/GetJobStatus once, of the job named by its id or by the first
 * characters of the id of one of the latest jobs (`varia import list`, `pickListed`).
 */
export async function runJobStatus(ctx: CommandContext, [given]: string[]) {
  const { client } = configuredClient(ctx);
  const jobGuid = uuid.test(given!)
    ? given!
    : pickListed(await client.call(importGetJobs, { query: { Limit: importJobListLimits.max } }), given!, {
        keys: (j) => [j.jobGuid],
        describe: (j) => `${j.jobGuid}  ${formatUtc(j.createdAt)}  ${j.fileName}  ${j.status}`,
        what: "job",
        whats: "jobs",
        listedBy: "varia import list",
      }).jobGuid;
  const job = await client.call(importGetJobStatus, { query: { JobGuid: jobGuid } });
  printJob(ctx, job);
}
