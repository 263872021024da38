import { writeFile } from "node:fs/promises";
import { exportRawData } from "@varia/contracts";
import type { Command } from "commander";
import { CliError } from "../cli-error";
import { configuredClient } from "../client";
import { type Output, printJson } from "../output";

const yearMonth = /^\d{4}-(0[1-9]|1[0-2])$/;

export function registerExport(program: Command, output: Output) {
  const command = program.command("export").description("Export data");
  command
    .command("raw")
    .description("Export the invoice lines as CSV (formula cells neutralised)")
    .requiredOption("-o, --output <file>", "where to write the CSV")
    .option("--from <YYYY-MM>", "first month")
    .option("--to <YYYY-MM>", "last month")
    .option("--data-type <type>", "Revenue or Margin", "Revenue")
    .option("--client-id <id>", "only this client")
    .option("--item-id <id>", "only this service")
    .option("--salesperson-id <id>", "only this salesperson")
    .option("--json", "print JSON")
    .action(
      async (options: {
        output: string;
        from?: string;
        to?: string;
        dataType: string;
        clientId?: string;
        itemId?: string;
        salespersonId?: string;
        json?: boolean;
      }) => {
        for (const [flag, value] of [
          ["--from", options.from],
          ["--to", options.to],
        ] as const) {
          if (value !== undefined && !yearMonth.test(value))
            throw new CliError(`Invalid ${flag} '${value}': expected YYYY-MM`);
        }
        const file = await configuredClient().download(exportRawData, {
          query: {
            dataType: options.dataType,
            dateFrom: options.from,
            dateTo: options.to,
            clientID: options.clientId,
            stockItemID: options.itemId,
            salespersonID: options.salespersonId,
          },
        });
        await writeFile(options.output, file.data);
        const lines = Math.max(0, new TextDecoder().decode(file.data).trimEnd().split("\n").length - 1);
        if (options.json) printJson(output, { file: options.output, lines, bytes: file.data.length });
        else output.out(`Wrote ${lines} invoice lines to ${options.output}`);
      },
    );
}
