import type { Command } from "commander";
import type { Lazy } from "../../program";
import { pollIntervalOption, waitTimeoutOption } from "../job-options";

/** `varia sources list|run`: the accounting package's data sources (docs/integration.md). */
export function defineSources(program: Command, lazy: Lazy) {
  const sources = program
    .command("sources")
    .description("The accounting package's data sources (QuickBooks, Xero): list, import now");
  sources
    .command("list")
    .description(
      "List the companies or organisations the organisation's connections read, with their schedules",
    )
    .action(lazy(() => import("./data-sources").then((m) => m.runSourcesList)));
  sources
    .command("run")
    .argument("<source>", "a data source's id or name (`varia sources list`)")
    .description(
      "Import from the data source now, outside its schedule; with --wait, follow the job to its end",
    )
    .option("--wait", "follow the job until it ends: exit 4 when it fails")
    .addOption(pollIntervalOption())
    .addOption(waitTimeoutOption())
    .action(lazy(() => import("./data-sources").then((m) => m.runSourcesRun)));
}
