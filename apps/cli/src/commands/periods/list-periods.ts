import { actualPeriods } from "@varia/contracts";
import { periodFormat, periodsSortNewestFirst } from "@varia/period";
import type { CommandContext } from "../../context";
import { configuredClient } from "../../http/client";
import { formatTable } from "../../output/table";

/** `varia periods`: ActualPeriods, newest first, as YYYY-MM (and `Jun 2026` on a terminal). */
export async function runPeriods(ctx: CommandContext, _args: string[], options: { limit?: number }) {
  const { client } = configuredClient(ctx);
  const periods = periodsSortNewestFirst(await client.call(actualPeriods, undefined, { cache: false })).slice(
    0,
    options.limit,
  );
  const months = periods.map((p) => periodFormat(p, "yearMonth"));
  if (ctx.options.json) {
    ctx.terminal.json({ periods: months });
    return;
  }
  if (!periods.length) {
    ctx.terminal.note("No months with actual data yet: import invoice lines with `varia import upload`.");
    return;
  }
  ctx.terminal.out(formatTable(periods.map((p, i) => [months[i]!, ctx.terminal.paint.dim(periodFormat(p))])));
}
