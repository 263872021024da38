import { exportRawData } from "@varia/contracts";
import type { CommandContext } from "../../context";
import { checkMonthOrder } from "../../filters/filter-options";
import { resolveDimensions } from "../../filters/resolve-dimension";
import { configuredClient } from "../../http/client";
import { formatByteCount, formatCount } from "../../output/format";
import { checkOutputName, downloadTo, reportWritten, where } from "../../transfer/download-to";

interface ExportOptions {
  output: string;
  from?: string;
  to?: string;
  client?: string;
  item?: string;
  salesperson?: string;
}

/** The records of a CSV after its header: line breaks outside quotes, read from the bytes. */
export function csvRecordCount(bytes: Uint8Array): number {
  let records = 0;
  let quoted = false;
  let content = false;
  for (const byte of bytes) {
    if (byte === 0x22) quoted = !quoted;
    if (byte === 0x0a && !quoted) {
      if (content) records++;
      content = false;
    } else if (byte !== 0x0d) content = true;
  }
  if (content) records++;
  return Math.max(0, records - 1);
}

/** `varia export raw`: Data/ExportRawData to a file, with its lines and bytes. */
export async function runExportRaw(ctx: CommandContext, _args: string[], options: ExportOptions) {
  checkMonthOrder(options.from, options.to);
  checkOutputName(options.output, ".csv", "the raw export is CSV only; name the file .csv");
  const { client } = configuredClient(ctx);
  const named = await resolveDimensions(client, options);
  const file = await downloadTo(ctx, options.output, (onProgress) =>
    client.download(
      exportRawData,
      {
        query: {
          dateFrom: options.from,
          dateTo: options.to,
          clientID: named.client?.id,
          stockItemID: named.item?.id,
          salespersonID: named.salesperson?.id,
        },
      },
      { onProgress },
    ),
  );
  const lines = csvRecordCount(file.body);
  reportWritten(
    ctx,
    options.output,
    { file: options.output, lines, bytes: file.body.length },
    `Wrote ${formatCount(lines)} invoice lines (${formatByteCount(file.body.length)}) to ${where(options.output)}`,
  );
}
