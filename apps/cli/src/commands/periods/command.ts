import { type Command, Option } from "commander";
import { integerAtLeast } from "../../filters/filter-options";
import type { Lazy } from "../../program";

/** `varia periods`: the months with actual data. */
export function definePeriods(program: Command, lazy: Lazy) {
  program
    .command("periods")
    .description("List the months that hold actual data, newest first")
    .addOption(new Option("--limit <n>", "only the newest n months").argParser(integerAtLeast(1)))
    .action(lazy(() => import("./list-periods").then((m) => m.runPeriods)));
}
