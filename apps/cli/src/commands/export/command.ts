import type { Command } from "commander";
import {
  clientOption,
  fromOption,
  itemOption,
  salespersonOption,
  toOption,
} from "../../filters/filter-options";
import type { Lazy } from "../../program";

/**
 * `varia export raw`. No --data-type: every line has its Amount, Cost and Margin whichever the
 * measure (docs/import.md, "Exports").
 */
export function defineExport(program: Command, lazy: Lazy) {
  const command = program.command("export").description("Export data");
  command
    .command("raw")
    .description("Export the invoice lines as CSV (formula-like cells neutralised), saying how many bytes")
    .requiredOption("-o, --output <file>", "where to write the CSV (- for stdout)")
    .addOption(fromOption("the first month of invoice dates"))
    .addOption(toOption("the last month of invoice dates"))
    .addOption(clientOption())
    .addOption(itemOption())
    .addOption(salespersonOption())
    .action(lazy(() => import("./export-raw").then((m) => m.runExportRaw)));
}
