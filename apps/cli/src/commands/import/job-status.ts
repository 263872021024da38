import { importGetJobStatus } from "@varia/contracts";
import type { CommandContext } from "../../context";
import { configuredClient } from "../../http/client";
import { printJob } from "./job-outcome";

/** `varia import status`: Import/GetJobStatus once. */
export async function runJobStatus(ctx: CommandContext, [jobGuid]: string[]) {
  const { client } = configuredClient(ctx);
  const job = await client.call(importGetJobStatus, { query: { JobGuid: jobGuid! } });
  printJob(ctx, job);
}
