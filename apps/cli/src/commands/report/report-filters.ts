import type { ApiClient } from "@varia/api-client";
import { type ReportFilterName, type ReportRunBody, reportCatalogue, reportIDs } from "@varia/contracts";
import { CliError } from "../../errors/cli-error";
import { defaultMonths } from "../../filters/default-months";
import { checkMonthOrder } from "../../filters/filter-options";
import { resolveDimensions } from "../../filters/resolve-dimension";

export interface ReportFilterOptions {
  from?: string;
  to?: string;
  dataType?: string;
  stockType?: string;
  client?: string;
  item?: string;
  salesperson?: string;
  segment?: string;
  retention?: string;
  adhoc?: boolean;
}

/** Each option and the report filter it sets. */
const optionFilters: Record<keyof ReportFilterOptions, { flag: string; filter: ReportFilterName }> = {
  from: { flag: "--from", filter: "dateFrom" },
  to: { flag: "--to", filter: "dateTo" },
  dataType: { flag: "--data-type", filter: "dataType" },
  stockType: { flag: "--stock-type", filter: "stockType" },
  client: { flag: "--client", filter: "clientID" },
  item: { flag: "--item", filter: "stockItemID" },
  salesperson: { flag: "--salesperson", filter: "salespersonID" },
  segment: { flag: "--segment", filter: "segment" },
  retention: { flag: "--retention", filter: "retention" },
  adhoc: { flag: "--adhoc", filter: "showAdhoc" },
};

/**
 * A usage error for an option the report does not take (a one-month report given --from, say), which
 * would otherwise be dropped without a word; it names the options the report does take. Answers the
 * filters the report takes.
 */
function checkReportOptions(reportID: string, options: ReportFilterOptions): Set<ReportFilterName> {
  const taken = new Set<ReportFilterName>(
    reportCatalogue.find((r) => r.reportID === reportID)?.filters ?? [],
  );
  const given = (Object.keys(optionFilters) as (keyof ReportFilterOptions)[]).filter(
    (name) => options[name] !== undefined && options[name] !== false,
  );
  const refused = given.filter((name) => !taken.has(optionFilters[name].filter));
  if (!refused.length) return taken;
  const takes = Object.values(optionFilters)
    .filter((o) => taken.has(o.filter))
    .map((o) => o.flag);
  throw new CliError(
    `${reportID} does not take ${refused.map((name) => optionFilters[name].flag).join(", ")}; it takes ${takes.join(", ")}`,
  );
}

/**
 * The body of Report/Run and Report/ExportReport: the filters, clients and services named by code or
 * name, and the months `varia variance` would compare when --from or --to is left out (the latest
 * months with actual data), so the two commands agree.
 */
export async function reportBody(client: ApiClient, reportID: string, options: ReportFilterOptions) {
  if (!(reportIDs as readonly string[]).includes(reportID))
    throw new CliError(`Unknown report '${reportID}'. Reports: ${reportIDs.join(", ")}`);
  const taken = checkReportOptions(reportID, options);
  checkMonthOrder(options.from, options.to);
  const [named, months] = await Promise.all([
    resolveDimensions(client, options),
    defaultMonths(client, options.from, options.to),
  ]);
  return {
    reportID,
    dataType: options.dataType,
    // A report of one month (dateTo) is given no other.
    dateFrom: taken.has("dateFrom") ? months.from : undefined,
    dateTo: months.to,
    stockType: options.stockType,
    clientID: named.client?.id,
    stockItemID: named.item?.id,
    salespersonID: named.salesperson?.id,
    segment: options.segment,
    retention: options.retention,
    showAdhoc: options.adhoc === true,
  } as ReportRunBody;
}
