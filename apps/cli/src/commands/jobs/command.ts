import { maintenanceJobs } from "@varia/contracts";
import { type Command, InvalidArgumentError, Option } from "commander";
import type { Lazy } from "../../program";

function parsePollSeconds(value: string): number {
  const seconds = Number(value);
  if (!Number.isFinite(seconds) || seconds <= 0)
    throw new InvalidArgumentError("a number of seconds above 0.");
  return seconds * 1000;
}

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
    .addOption(
      new Option("--poll-interval <seconds>", "seconds between status checks while waiting")
        .argParser(parsePollSeconds)
        .default(5000, "5"),
    )
    .action(lazy(() => import("./add-job").then((m) => m.runJobsAdd)));
}
