import { importGetJobStatus } from "@varia/contracts";
import type { CommandContext } from "../../context";
import { configuredClient } from "../../http/client";
import { jobExitCode, jobSummary } from "./job-outcome";

/** `varia import status`: Import/GetJobStatus once. */
export async function runJobStatus(ctx: CommandContext, [jobGuid]: string[]) {
  const { client } = configuredClient(ctx);
  const job = await client.call(importGetJobStatus, { query: { JobGuid: jobGuid! } });
  if (ctx.options.json) ctx.terminal.json(job);
  else ctx.terminal.out(jobSummary(job));
  ctx.exitWith(jobExitCode(job));
}
