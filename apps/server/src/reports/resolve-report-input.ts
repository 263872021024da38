import type { ReportRetention, ReportSegment } from "@varia/contracts";
import { periodFormat, periodFromKey, periodFromMonthIndex, periodMonthIndex } from "@varia/period";
import type { Cube, DataType, MonthIndex, StockType, VarianceFilter } from "@varia/variance";
import type { Analysis } from "../analytics/cube-cache";
import { exclusionFilter } from "../analytics/resolve-filter";
import type { ReportInput } from "./report-definition";

/** The filter values of a report body after the contract's parsing. */
export interface ReportFilterValues {
  dataType: DataType;
  dateFrom?: string | undefined;
  dateTo?: string | undefined;
  stockType?: StockType | undefined;
  clientID?: number | undefined;
  stockItemID?: number | undefined;
  salespersonID?: number | undefined;
  showAdhoc: boolean;
  segment: ReportSegment;
  retention: ReportRetention;
}

export const monthOfYearMonth = (ym: string): MonthIndex => periodMonthIndex(periodFromKey(ym));
export const yearMonthOf = (month: MonthIndex): string =>
  periodFormat(periodFromMonthIndex(month), "yearMonth");

/** The latest month with actual data, else the current month. */
export function latestMonth(cube: Cube, now: Date): MonthIndex {
  // `now` is the latest invoiced month (report-routes.ts): a prepaid line's service period reaches
  // into months to come, which are not actuals yet, as the actual periods say.
  const current = now.getUTCFullYear() * 12 + now.getUTCMonth();
  const months = cube.months("Actual").filter((m) => m <= current);
  return months.at(-1) ?? current;
}

/**
 * The engine's query from a report's filter values and the exclusions of the active lists: dateTo
 * defaults to the latest actual month and dateFrom to the month before dateTo.
 */
export function resolveReportInput(analysis: Analysis, values: ReportFilterValues, now: Date): ReportInput {
  const { cube } = analysis;
  const to = values.dateTo ? monthOfYearMonth(values.dateTo) : latestMonth(cube, now);
  const from = values.dateFrom ? monthOfYearMonth(values.dateFrom) : to - 1;
  const filter: VarianceFilter = {
    dataType: values.dataType,
    recordTypeFrom: "Actual",
    recordTypeTo: "Actual",
    stockType: values.stockType,
    clientId: values.clientID,
    itemId: values.stockItemID,
    salespersonId: values.salespersonID,
    showAdhoc: values.showAdhoc,
    ...exclusionFilter(analysis),
  };
  return {
    cube,
    filter,
    query: { ...filter, from, to },
    segment: values.segment,
    retention: values.retention,
  };
}
