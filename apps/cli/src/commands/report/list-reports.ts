import { lookupReportList } from "@varia/contracts";
import type { CommandContext } from "../../context";
import { configuredClient } from "../../http/client";
import { formatTable } from "../../output/table";

/** `varia report list`: Lookup/GetReportList. */
export async function runReportList(ctx: CommandContext) {
  const { client } = configuredClient(ctx);
  const reports = await client.call(lookupReportList, { query: {} }, { cache: false });
  if (ctx.options.json) {
    ctx.terminal.json(reports);
    return;
  }
  ctx.terminal.out(
    formatTable([
      ["REPORT", "NAME", "DESCRIPTION"],
      ...reports.map((r) => [r.reportID, r.name, ctx.terminal.paint.dim(r.description)]),
    ]),
  );
}
