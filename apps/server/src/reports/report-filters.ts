import {
  type ReportFilter,
  type ReportFilterName,
  type ReportID,
  reportCatalogue,
  reportSegments,
  stockTypes,
} from "@varia/contracts";
import { periodFormat, periodFromMonthIndex } from "@varia/period";
import type { Cube } from "@varia/variance";
import { latestMonth, yearMonthOf } from "./resolve-report-input";

const segmentLabels: Record<(typeof reportSegments)[number], string> = {
  stockType: "Stock type",
  salesperson: "Salesperson",
  item: "Service",
  clientSize: "Client size",
};

/**
 * The name of a report's dateTo: 'To' beside From; alone, 'Month' for a report of that one month
 * (Revenue by segment), else 'Up to' for one that lists the months up to it (movements, cohorts,
 * forecast), so that a lone 'To' never leaves the reader asking "from when?".
 */
function dateToLabel(entry: (typeof reportCatalogue)[number]): string {
  if ((entry.filters as readonly ReportFilterName[]).includes("dateFrom")) return "To";
  return entry.reportID === "revenue-by-segment" ? "Month" : "Up to";
}

/**
 * The filters a report takes with their options: periods are the months with actual data (newest
 * first) up to the latest invoiced month, as the dashboards' actual periods; salespeople are those
 * of the cube; clients and items are picked through their lookups.
 */
export function reportFilters(cube: Cube, reportID: ReportID, now: Date) {
  const entry = reportCatalogue.find((r) => r.reportID === reportID)!;
  // The months offered are the actual periods: up to the latest invoiced month (`now`), not the
  // months to come that a prepaid line's service period reaches into.
  const latest = latestMonth(cube, now);
  const months = cube
    .months("Actual")
    .filter((m) => m <= latest)
    .reverse();
  const periods = months.map((m) => ({
    label: periodFormat(periodFromMonthIndex(m), "display"),
    value: yearMonthOf(m),
  }));
  const salespeople = [...cube.salespeople.values()]
    .sort((a, b) => a.name.toLowerCase().localeCompare(b.name.toLowerCase()) || a.id - b.id)
    .map((s) => ({ label: s.name, value: String(s.id) }));
  const filterOf = (name: ReportFilterName): ReportFilter => {
    switch (name) {
      case "dataType":
        return {
          name,
          label: "Data type",
          kind: "select",
          required: false,
          default: "Revenue",
          options: [
            { label: "Revenue", value: "Revenue" },
            { label: "Margin", value: "Margin" },
          ],
        };
      case "dateFrom":
        return {
          name,
          label: "From",
          kind: "period",
          required: false,
          default: yearMonthOf(latest - 1),
          options: periods,
        };
      case "dateTo":
        return {
          name,
          label: dateToLabel(entry),
          kind: "period",
          required: false,
          default: yearMonthOf(latest),
          options: periods,
        };
      case "stockType":
        return {
          name,
          label: "Stock type",
          kind: "select",
          required: false,
          default: null,
          options: stockTypes.map((t) => ({ label: t, value: t })),
        };
      case "clientID":
        return {
          name,
          label: "Client",
          kind: "lookup",
          required: false,
          default: null,
          lookup: "Lookup/GetClientList",
        };
      case "stockItemID":
        return {
          name,
          label: "Service",
          kind: "lookup",
          required: false,
          default: null,
          lookup: "Lookup/GetSkuList",
        };
      case "salespersonID":
        return {
          name,
          label: "Salesperson",
          kind: "select",
          required: false,
          default: null,
          options: salespeople,
        };
      case "showAdhoc":
        return { name, label: "Show ad-hoc", kind: "boolean", required: false, default: false };
      case "retention":
        return {
          name,
          label: "Retention of",
          kind: "select",
          required: false,
          default: "mrr",
          options: [
            { label: "MRR", value: "mrr" },
            { label: "Clients", value: "clients" },
          ],
        };
      case "segment":
        return {
          name,
          label: "Segment",
          kind: "select",
          required: false,
          default: "stockType",
          options: reportSegments.map((s) => ({ label: segmentLabels[s], value: s })),
        };
    }
  };
  return {
    reportID: entry.reportID,
    reportType: entry.reportType,
    name: entry.name,
    description: entry.description,
    filters: entry.filters.map(filterOf),
  };
}
