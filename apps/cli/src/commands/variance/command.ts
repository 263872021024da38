import type { Command } from "commander";
import {
  clientOption,
  dataTypeOption,
  fromOption,
  itemOption,
  salespersonOption,
  stockTypeOption,
  toOption,
} from "../../filters/filter-options";
import type { Lazy } from "../../program";

/** `varia variance`: the variance between two months. */
export function defineVariance(program: Command, lazy: Lazy) {
  program
    .command("variance")
    .description(
      "The variance between two months: totals, each type's increase and decrease, acquired and lost clients",
    )
    .addOption(fromOption())
    .addOption(toOption())
    .addOption(dataTypeOption())
    .addOption(stockTypeOption())
    .addOption(clientOption())
    .addOption(itemOption())
    .addOption(salespersonOption("this salesperson's view, with Transfer"))
    .action(lazy(() => import("./show-variance").then((m) => m.runVariance)));
}
