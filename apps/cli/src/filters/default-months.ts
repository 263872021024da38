import type { ApiClient } from "@varia/api-client";
import { actualPeriods } from "@varia/contracts";
import { periodDefaultRange, periodFormat, periodFromKey, periodPrevious } from "@varia/period";
import type { CommandContext } from "../context";
import { CliError } from "../errors/cli-error";
import { checkMonthOrder } from "./filter-options";

/**
 * The two months to compare when --from or --to is left out, as the app chooses them: --to the
 * latest month with actual data, --from the one before it in the data (or the calendar month before
 * --to when --to is given). Asks the server only when --to is missing. A --from after the latest month
 * (when --to is left out) is a usage error; callers check a --from after a given --to first.
 */
export async function defaultMonths(
  client: ApiClient,
  from: string | undefined,
  to: string | undefined,
): Promise<{ from: string; to: string }> {
  if (to) return { to, from: from ?? periodFormat(periodPrevious(periodFromKey(to)), "yearMonth") };
  const range = periodDefaultRange(await client.call(actualPeriods, undefined, { cache: false }));
  // No months to default to: a usage error (exit 1), not the server's refusal (2): nothing was
  // refused, and months given (--from, --to) are answered, zeros and all (apps/cli/README.md, "Exit codes").
  if (!range)
    throw new CliError("No months with actual data yet: give --from and --to, or import data first");
  const latest = periodFormat(range.dateTo, "yearMonth");
  checkMonthOrder(from, latest, true);
  return { to: latest, from: from ?? periodFormat(range.dateFrom, "yearMonth") };
}

/**
 * Notes on stderr which of the months compared hold no actual data (a year typed wrong reads as a
 * business that lost every client); asked for beside the command's own call, and quiet when that
 * question fails (the command's own call says why).
 */
export async function noteMonthsWithoutData(
  ctx: CommandContext,
  client: ApiClient,
  months: { from: string; to: string },
): Promise<void> {
  const periods = await client.call(actualPeriods, undefined, { cache: false }).catch(() => undefined);
  if (!periods) return;
  const held = new Set(periods.map((p) => periodFormat(p, "yearMonth")));
  const missing = [...new Set([months.from, months.to])].filter((m) => !held.has(m));
  if (missing.length)
    ctx.terminal.note(
      `No actual data in ${missing.join(" or ")} (\`varia periods\` lists the months with data)`,
    );
}
