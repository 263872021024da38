import { maintenanceJobs } from "@varia/contracts";
import type { Command } from "commander";
import type { Lazy } from "../../program";
import { pollIntervalOption, waitTimeoutOption } from "../job-options";

/** `varia jobs add`: the organisation's maintenance jobs (docs/integration.md, "Maintenance jobs"). */
export function defineJobs(program: Command, lazy: Lazy) {
  const jobs = program.command("jobs").description("The organisation's maintenance jobs: add one");
  jobs
    .command("add")
    .argument("<job>", `the job: ${maintenanceJobs.join(", ")} (the cube built again from the stored lines)`)
    .description(
      "Queue a maintenance job; with --wait, follow it to its end (`varia import status` follows it too)",
    )
    .option("--wait", "follow the job until it ends: exit 4 when it fails")
    .addOption(pollIntervalOption())
    .addOption(waitTimeoutOption())
    .action(lazy(() => import("./add-job").then((m) => m.runJobsAdd)));
}
