import { type Command, Option } from "commander";
import {
  choiceOption,
  clientOption,
  dataTypeOption,
  fromOption,
  itemOption,
  salespersonOption,
  stockTypeOption,
  toOption,
} from "../../filters/filter-options";
import type { Lazy } from "../../program";

function withFilters(command: Command): Command {
  return command
    .addOption(fromOption())
    .addOption(toOption())
    .addOption(dataTypeOption())
    .addOption(stockTypeOption())
    .addOption(clientOption())
    .addOption(itemOption())
    .addOption(salespersonOption())
    .addOption(
      choiceOption("--segment <segment>", "the segments of revenue-by-segment", [
        "stockType",
        "salesperson",
        "item",
        "clientSize",
      ]),
    )
    .addOption(
      choiceOption("--retention <measure>", "what cohort-retention follows month by month", [
        "mrr",
        "clients",
      ]),
    )
    .option("--adhoc", "show ad-hoc revenue beside MRR (mrr-by-client)");
}

/** `varia report list|run|export`. */
export function defineReport(program: Command, lazy: Lazy) {
  const report = program.command("report").description("List, run and export reports");
  report
    .command("list")
    .description("The reports the server offers")
    .action(lazy(() => import("./list-reports").then((m) => m.runReportList)));
  withFilters(report.command("run").argument("<report>", "a report id from `varia report list`"))
    .description("Run a report and print its rows (clients and services by code and name)")
    .action(lazy(() => import("./run-report").then((m) => m.runReport)));
  withFilters(report.command("export").argument("<report>", "a report id from `varia report list`"))
    .description("Export a report as CSV or XLSX, saying how many bytes were written")
    .requiredOption(
      "-o, --output <file>",
      "where to write the file (- for stdout; an XLSX file not to a terminal)",
    )
    .addOption(
      new Option(
        "--format <format>",
        "csv or xlsx (default: xlsx for a file named *.xlsx, else csv)",
      ).choices(["csv", "xlsx"]),
    )
    .action(lazy(() => import("./export-report").then((m) => m.runReportExport)));
}
