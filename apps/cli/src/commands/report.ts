import { writeFile } from "node:fs/promises";
import {
  lookupReportList,
  type ReportResult,
  type ReportRunBody,
  reportExport,
  reportRun,
} from "@varia/contracts";
import type { Command } from "commander";
import { CliError } from "../cli-error";
import { configuredClient } from "../client";
import { type Output, printJson } from "../output";
import { formatMoney } from "./variance";

const yearMonth = /^\d{4}-(0[1-9]|1[0-2])$/;

interface FilterOptions {
  from?: string;
  to?: string;
  dataType: string;
  stockType?: string;
  clientId?: string;
  itemId?: string;
  salespersonId?: string;
  segment?: string;
  adhoc?: boolean;
}

function withFilters(command: Command): Command {
  return command
    .option("--from <YYYY-MM>", "the first month (default: the month before --to)")
    .option("--to <YYYY-MM>", "the second month (default: the latest month with data)")
    .option("--data-type <type>", "Revenue or Margin", "Revenue")
    .option("--stock-type <type>", "Subscription, Product or Hourly")
    .option("--client-id <id>", "only this client")
    .option("--item-id <id>", "only this service")
    .option("--salesperson-id <id>", "only this salesperson")
    .option("--segment <segment>", "revenue by segment: stockType, salesperson, item or clientSize")
    .option("--adhoc", "show ad-hoc revenue beside MRR where the report can");
}

function filterBody(reportID: string, options: FilterOptions) {
  for (const [flag, value] of [
    ["--from", options.from],
    ["--to", options.to],
  ] as const) {
    if (value !== undefined && !yearMonth.test(value))
      throw new CliError(`Invalid ${flag} '${value}': expected YYYY-MM`);
  }
  return {
    reportID,
    dataType: options.dataType,
    dateFrom: options.from,
    dateTo: options.to,
    stockType: options.stockType,
    clientID: options.clientId,
    stockItemID: options.itemId,
    salespersonID: options.salespersonId,
    segment: options.segment,
    showAdhoc: options.adhoc === true,
  } as ReportRunBody;
}

function cellText(kind: string, value: string | number | null | undefined): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "number" && kind === "money") return formatMoney(value);
  if (typeof value === "number" && kind === "percent") return `${(value * 100).toFixed(2)} %`;
  return String(value);
}

/** A report as an aligned text table: numbers right-aligned, totals last. */
export function reportTable(result: ReportResult): string {
  const header = result.columns.map((c) => c.header);
  const body = result.rows.map((row) => result.columns.map((c) => cellText(c.kind, row[c.field])));
  const hasTotals = result.columns.some(
    (c) => result.totals[c.field] !== undefined && result.totals[c.field] !== null,
  );
  const totals = hasTotals
    ? [
        result.columns.map((c, i) =>
          i === 0 && result.totals[c.field] == null ? "Total" : cellText(c.kind, result.totals[c.field]),
        ),
      ]
    : [];
  const all = [header, ...body, ...totals];
  const widths = result.columns.map((_, i) => Math.max(...all.map((r) => r[i]!.length)));
  const right = result.columns.map((c) => c.kind !== "text");
  const line = (r: string[]) =>
    r.map((cell, i) => (right[i] ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!))).join("  ");
  const title = `${result.name}, ${result.dataType}${result.dateFrom ? ` ${result.dateFrom} to` : ""}${result.dateTo ? ` ${result.dateTo}` : ""}`;
  return [
    title,
    "",
    line(header),
    ...body.map(line),
    ...(totals.length ? [line(totals[0]!)] : []),
    ...result.notes.map((n) => `\n${n}`),
  ].join("\n");
}

/** `varia report list|run|export`. */
export function registerReport(program: Command, output: Output) {
  const command = program.command("report").description("List, run and export reports");
  command
    .command("list")
    .description("The reports the server offers")
    .option("--json", "print JSON")
    .action(async (options: { json?: boolean }) => {
      const reports = await configuredClient().call(lookupReportList, { query: {} });
      if (options.json) printJson(output, reports);
      else for (const r of reports) output.out(`${r.reportID.padEnd(26)} ${r.name}: ${r.description}`);
    });
  withFilters(command.command("run").argument("<report>", "a report id from `varia report list`"))
    .description("Run a report and print its rows")
    .option("--json", "print JSON")
    .action(async (report: string, options: FilterOptions & { json?: boolean }) => {
      const result = await configuredClient().call(reportRun, {
        body: { ...filterBody(report, options), rowLimit: 10_000 },
      });
      output.out(options.json ? JSON.stringify(result, null, 2) : reportTable(result));
    });
  withFilters(command.command("export").argument("<report>", "a report id from `varia report list`"))
    .description("Export a report as CSV or XLSX")
    .requiredOption("-o, --output <file>", "where to write the file")
    .option("--format <format>", "csv or xlsx (default: xlsx for a file named *.xlsx, else csv)")
    .option("--json", "print JSON")
    .action(
      async (
        report: string,
        options: FilterOptions & { output: string; format?: string; json?: boolean },
      ) => {
        const format = options.format ?? (options.output.toLowerCase().endsWith(".xlsx") ? "xlsx" : "csv");
        if (format !== "csv" && format !== "xlsx")
          throw new CliError(`Invalid --format '${format}': expected csv or xlsx`);
        const file = await configuredClient().download(reportExport, {
          body: { ...filterBody(report, options), format },
        });
        await writeFile(options.output, file.data);
        if (options.json) printJson(output, { file: options.output, bytes: file.data.length, format });
        else
          output.out(
            `Wrote ${report} (${format.toUpperCase()}, ${file.data.length} bytes) to ${options.output}`,
          );
      },
    );
}
