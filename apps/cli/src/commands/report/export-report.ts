import { reportExport } from "@varia/contracts";
import type { CommandContext } from "../../context";
import { noteMonthsWithoutData } from "../../filters/default-months";
import { configuredClient } from "../../http/client";
import { formatByteCount } from "../../output/format";
import { checkOutput, checkOutputName, downloadTo, reportWritten, where } from "../../transfer/download-to";
import { type ReportFilterOptions, reportBody } from "./report-filters";

/** `varia report export`: Report/ExportReport to a file, with the bytes it took. */
export async function runReportExport(
  ctx: CommandContext,
  [report]: string[],
  options: ReportFilterOptions & { output: string; format?: "csv" | "xlsx" },
) {
  const format = options.format ?? (options.output.toLowerCase().endsWith(".xlsx") ? "xlsx" : "csv");
  const binary = format === "xlsx" ? "an XLSX file" : null;
  checkOutputName(
    options.output,
    `.${format}`,
    options.output.toLowerCase().endsWith(".json")
      ? `for JSON, \`varia report run ${report} --json > ${options.output}\``
      : "name the file .csv or .xlsx, or give --format to match its name",
  );
  checkOutput(ctx, options.output, binary);
  const { client } = configuredClient(ctx);
  const body = await reportBody(client, report!, options);
  const noted = noteMonthsWithoutData(ctx, client, { from: body.dateFrom ?? body.dateTo!, to: body.dateTo! });
  const [file] = await Promise.all([
    downloadTo(
      ctx,
      options.output,
      (onProgress) => client.download(reportExport, { body: { ...body, format } }, { onProgress }),
      binary,
    ),
    noted,
  ]);
  reportWritten(
    ctx,
    options.output,
    { file: options.output, bytes: file.body.length, format },
    `Wrote ${report} (${format.toUpperCase()}, ${formatByteCount(file.body.length)}) to ${where(options.output)}`,
  );
}
