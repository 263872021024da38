import { authorisedPing, getVariance, type VarianceJsonDto } from "@varia/contracts";
import type { CommandContext } from "../../context";
import { defaultMonths, noteMonthsWithoutData } from "../../filters/default-months";
import { checkMonthOrder } from "../../filters/filter-options";
import { resolveDimensions } from "../../filters/resolve-dimension";
import { configuredClient } from "../../http/client";
import { moneyFormatter } from "../../output/format";
import { formatTable } from "../../output/table";
import type { Paint } from "../../output/terminal";

interface VarianceOptions {
  from?: string;
  to?: string;
  dataType?: string;
  stockType?: string;
  client?: string;
  item?: string;
  salesperson?: string;
}

const types = ["Client", "Service", "Price", "Volume", "Usage", "Transfer"] as const;

/**
 * The readable variance: the two totals, each type's increase, decrease and net, the change, and
 * the acquired and lost clients by code and name; money in the organisation's currency. Sums are
 * added in cents, so the table agrees with the JSON to the cent.
 */
export function varianceTable(v: VarianceJsonDto, money: (major: number) => string, paint: Paint): string {
  const cents = (major: number) => Math.round(major * 100);
  const signed = (major: number) =>
    major > 0 ? paint.green(money(major)) : major < 0 ? paint.red(money(major)) : money(major);
  const rows: string[][] = [
    ["", "Increase", "Decrease", "Net"],
    [`${v.dataType} ${v.periodFrom}`, "", "", money(v.totalFrom)],
    ...types.map((t) => [
      `  ${t}`,
      money(v.byType[t].positive),
      money(v.byType[t].negative),
      signed((cents(v.byType[t].positive) + cents(v.byType[t].negative)) / 100),
    ]),
    [`${v.dataType} ${v.periodTo}`, "", "", money(v.totalTo)],
    ["Change", "", "", signed((cents(v.totalTo) - cents(v.totalFrom)) / 100)],
  ];
  const out = [formatTable(rows, ["left", "right", "right", "right"])];
  for (const [title, clients] of [
    ["Acquired clients", v.acquiredClients],
    ["Lost clients", v.lostClients],
  ] as const) {
    out.push("", `${title} (${clients.length})`);
    if (clients.length)
      out.push(
        formatTable(
          clients.map((c) => [`  ${c.clientCode}`, c.clientName, signed(c.value)]),
          ["left", "left", "right"],
        ),
      );
  }
  return out.join("\n");
}

/** `varia variance`: DashboardAlpha/GetVariance, the JSON of the engine, or a table. */
export async function runVariance(ctx: CommandContext, _args: string[], options: VarianceOptions) {
  checkMonthOrder(options.from, options.to);
  const { client } = configuredClient(ctx);
  // The currency is the organisation's, from the profile: asked for at once, beside the rest.
  const ping = ctx.options.json ? undefined : client.call(authorisedPing);
  ping?.catch(() => {});
  const [named, months] = await Promise.all([
    resolveDimensions(client, options),
    defaultMonths(client, options.from, options.to),
  ]);
  const result = client.call(getVariance, {
    query: {
      dataType: options.dataType,
      dateFrom: months.from,
      dateTo: months.to,
      stockType: options.stockType,
      clientID: named.client?.id,
      stockItemID: named.item?.id,
      salespersonID: named.salesperson?.id,
    },
  });
  const noted = noteMonthsWithoutData(ctx, client, months);
  if (ctx.options.json) {
    const [variance] = await Promise.all([result, noted]);
    ctx.terminal.json(variance);
    return;
  }
  const [variance, { profile }] = await Promise.all([result, ping!, noted]);
  ctx.terminal.out(
    varianceTable(variance, moneyFormatter(profile.subscriptionCurrencyCode), ctx.terminal.paint),
  );
}
