import {
  authorisedPing,
  type ReportCell,
  type ReportColumn,
  type ReportResult,
  reportRun,
} from "@varia/contracts";
import type { CommandContext } from "../../context";
import { noteMonthsWithoutData } from "../../filters/default-months";
import { configuredClient } from "../../http/client";
import { formatCount, formatFixed, formatPercent, moneyFormatter } from "../../output/format";
import { formatTable } from "../../output/table";
import { type ReportFilterOptions, reportBody } from "./report-filters";

function cellText(column: ReportColumn, value: ReportCell | undefined, money: (n: number) => string): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "number" && column.kind === "money") return money(value);
  if (typeof value === "number" && column.kind === "percent") return formatPercent(value);
  if (typeof value === "number" && column.kind === "number")
    return column.decimals === undefined ? formatCount(value) : formatFixed(value, column.decimals);
  return String(value);
}

/**
 * A report as an aligned table: text left, numbers right, money in the currency, totals last; a
 * report without rows says so instead of a header over a total of nothing.
 */
export function reportTable(result: ReportResult, money: (n: number) => string): string {
  const header = result.columns.map((c) => c.header);
  const body = result.rows.map((row) => result.columns.map((c) => cellText(c, row[c.field], money)));
  const hasTotals = result.columns.some((c) => result.totals[c.field] != null);
  const totals = hasTotals
    ? [
        result.columns.map((c, i) =>
          i === 0 && result.totals[c.field] == null ? "Total" : cellText(c, result.totals[c.field], money),
        ),
      ]
    : [];
  const title = `${result.name}, ${result.dataType}${result.dateFrom ? ` ${result.dateFrom} to` : ""}${
    result.dateTo ? ` ${result.dateTo}` : ""
  }`;
  const shown =
    result.rowCount > result.rows.length
      ? ` (the first ${formatCount(result.rows.length)} of ${formatCount(result.rowCount)} rows)`
      : "";
  if (result.rows.length === 0)
    return [
      title,
      "",
      "No rows: nothing matches these months and filters",
      ...result.notes.map((n) => `\n${n}`),
    ].join("\n");
  return [
    title + shown,
    "",
    formatTable(
      [header, ...body, ...totals],
      result.columns.map((c) => (c.kind === "text" || c.kind === "month" ? "left" : "right")),
    ),
    ...result.notes.map((n) => `\n${n}`),
  ].join("\n");
}

/** `varia report run`: Report/Run with up to 10,000 rows. */
export async function runReport(ctx: CommandContext, [report]: string[], options: ReportFilterOptions) {
  const { client } = configuredClient(ctx);
  // The currency is the organisation's, from the profile: asked for at once, beside the rest.
  const ping = ctx.options.json ? undefined : client.call(authorisedPing);
  ping?.catch(() => {});
  const body = await reportBody(client, report!, options);
  const run = client.call(reportRun, { body: { ...body, rowLimit: 10_000 } });
  const noted = noteMonthsWithoutData(ctx, client, { from: body.dateFrom ?? body.dateTo!, to: body.dateTo! });
  if (ctx.options.json) {
    const [result] = await Promise.all([run, noted]);
    ctx.terminal.json(result);
    return;
  }
  const [result, { profile }] = await Promise.all([run, ping!, noted]);
  ctx.terminal.out(reportTable(result, moneyFormatter(profile.subscriptionCurrencyCode)));
}
