import { getVariance, type VarianceJsonDto } from "@varia/contracts";
import type { Command } from "commander";
import { CliError } from "../cli-error";
import { configuredClient } from "../client";
import type { Output } from "../output";

const yearMonth = /^\d{4}-(0[1-9]|1[0-2])$/;
const types = ["Client", "Service", "Price", "Volume", "Usage", "Transfer"] as const;

/** Money in major units with two decimals and thousands separators. */
export function formatMoney(value: number): string {
  return value.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 });
}

/** The readable table of a variance: totals, each type's increases and decreases, the client lists. */
export function varianceTable(v: VarianceJsonDto): string {
  const cents = (major: number) => Math.round(major * 100);
  const net = (a: number, b: number) => formatMoney((cents(a) + cents(b)) / 100);
  const rows: string[][] = [
    [`${v.dataType} ${v.periodFrom}`, "", "", formatMoney(v.totalFrom)],
    ...types.map((t) => [
      `  ${t}`,
      formatMoney(v.byType[t].positive),
      formatMoney(v.byType[t].negative),
      net(v.byType[t].positive, v.byType[t].negative),
    ]),
    [`${v.dataType} ${v.periodTo}`, "", "", formatMoney(v.totalTo)],
    ["Change", "", "", formatMoney((cents(v.totalTo) - cents(v.totalFrom)) / 100)],
  ];
  const head = ["", "Increase", "Decrease", "Net"];
  const width = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (r: string[]) =>
    r.map((cell, i) => (i === 0 ? cell.padEnd(width[i]!) : cell.padStart(width[i]!))).join("  ");
  const out = [line(head), ...rows.map(line)];
  const list = (title: string, clients: { clientCode: string; value: number }[]) => {
    out.push("", `${title} (${clients.length})`);
    for (const c of clients) out.push(`  ${c.clientCode.padEnd(20)} ${formatMoney(c.value).padStart(14)}`);
  };
  list("Acquired clients", v.acquiredClients);
  list("Lost clients", v.lostClients);
  return out.join("\n");
}

/** `varia variance`: the variance between two months, the JSON of DESIGN 7.7 with --json. */
export function registerVariance(program: Command, output: Output) {
  program
    .command("variance")
    .description("The variance between two months: totals, each type's change, acquired and lost clients")
    .requiredOption("--from <YYYY-MM>", "the first month")
    .requiredOption("--to <YYYY-MM>", "the second month")
    .option("--data-type <type>", "Revenue or Margin", "Revenue")
    .option("--stock-type <type>", "Subscription, Product or Hourly")
    .option("--client <code>", "only this client")
    .option("--item <code>", "only this service")
    .option("--salesperson <name>", "this salesperson's view, with Transfer")
    .option("--json", "print the JSON of DESIGN.md 7.7")
    .action(
      async (options: {
        from: string;
        to: string;
        dataType: string;
        stockType?: string;
        client?: string;
        item?: string;
        salesperson?: string;
        json?: boolean;
      }) => {
        for (const [flag, value] of [
          ["--from", options.from],
          ["--to", options.to],
        ] as const) {
          if (!yearMonth.test(value)) throw new CliError(`Invalid ${flag} '${value}': expected YYYY-MM`);
        }
        if (!/^(revenue|margin)$/i.test(options.dataType))
          throw new CliError(`Invalid --data-type '${options.dataType}': expected Revenue or Margin`);
        if (options.stockType && !/^(subscription|product|hourly)$/i.test(options.stockType))
          throw new CliError(
            `Invalid --stock-type '${options.stockType}': expected Subscription, Product or Hourly`,
          );
        const result = await configuredClient().call(getVariance, {
          query: {
            dataType: options.dataType,
            dateFrom: options.from,
            dateTo: options.to,
            stockType: options.stockType,
            client: options.client,
            stockItem: options.item,
            salesperson: options.salesperson,
          },
        });
        output.out(options.json ? JSON.stringify(result, null, 2) : varianceTable(result));
      },
    );
}
