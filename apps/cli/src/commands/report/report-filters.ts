import type { ApiClient } from "@varia/api-client";
import { type ReportRunBody, reportIDs } from "@varia/contracts";
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
  adhoc?: boolean;
}

/**
 * The body of Report/Run and Report/ExportReport: the filters, clients and services named by code or
 * name, and the months `varia variance` would compare when --from or --to is left out (the latest
 * months with actual data), so the two commands agree.
 */
export async function reportBody(client: ApiClient, reportID: string, options: ReportFilterOptions) {
  if (!(reportIDs as readonly string[]).includes(reportID))
    throw new CliError(`Unknown report '${reportID}'. Reports: ${reportIDs.join(", ")}`);
  checkMonthOrder(options.from, options.to);
  const [named, months] = await Promise.all([
    resolveDimensions(client, options),
    defaultMonths(client, options.from, options.to),
  ]);
  return {
    reportID,
    dataType: options.dataType,
    dateFrom: months.from,
    dateTo: months.to,
    stockType: options.stockType,
    clientID: named.client?.id,
    stockItemID: named.item?.id,
    salespersonID: named.salesperson?.id,
    segment: options.segment,
    showAdhoc: options.adhoc === true,
  } as ReportRunBody;
}
