/**
 * The report catalogue (docs/api.md#the-calls-by-area; Report: reportID, reportType): every report the server
 * runs, with the filters it takes. The server computes each with @varia/variance; the web and the CLI list
 * them from here or from Lookup/GetReportList.
 */

/** A filter a report may take (the names of the Report/Run body). */
export const reportFilterNames = [
  "dataType",
  "dateFrom",
  "dateTo",
  "stockType",
  "clientID",
  "stockItemID",
  "salespersonID",
  "showAdhoc",
  "segment",
  "retention",
] as const;
export type ReportFilterName = (typeof reportFilterNames)[number];

/** The segments of the revenue-by-segment report (docs/methodology.md#charts). */
export const reportSegments = ["stockType", "salesperson", "item", "clientSize"] as const;
export type ReportSegment = (typeof reportSegments)[number];

/** What the cohort report follows: its clients' MRR, or how many of them are active (docs/methodology.md, "Cohorts"). */
export const reportRetentions = ["mrr", "clients"] as const;
export type ReportRetention = (typeof reportRetentions)[number];

export interface ReportCatalogueEntry {
  readonly reportID: string;
  /** The report's system name. */
  readonly reportType: string;
  readonly name: string;
  /**
   * The name in a Margin view, for a report whose name says revenue ('Margin by segment'); the others
   * keep theirs (docs/behaviour.md, "Reports").
   */
  readonly marginName?: string;
  readonly description: string;
  /** The description in a Margin view, for a report whose description says revenue. */
  readonly marginDescription?: string;
  readonly filters: readonly ReportFilterName[];
  /**
   * Other words a reader may search the reports by (Lookup/GetReportList's value), as other
   * subscription tools name the same things: customers for clients, churn for lost clients.
   */
  readonly keywords: string;
}

const twoPeriods = [
  "dataType",
  "dateFrom",
  "dateTo",
  "stockType",
  "clientID",
  "stockItemID",
  "salespersonID",
] as const satisfies readonly ReportFilterName[];

export const reportCatalogue = [
  {
    reportID: "mrr-by-client",
    reportType: "MrrByClient",
    name: "MRR by client",
    description: "Each client's MRR in the two periods and the change, with its salesperson.",
    keywords: "customers accounts",
    filters: [...twoPeriods, "showAdhoc"],
  },
  {
    reportID: "mrr-by-service",
    reportType: "MrrByService",
    name: "MRR by service",
    description: "Each service's MRR in the two periods, the change, and how many clients take it.",
    keywords: "products plans items",
    filters: twoPeriods,
  },
  {
    reportID: "mrr-movements",
    reportType: "MrrMovements",
    name: "MRR movements",
    description:
      "Month by month for a year: MRR at the start, new, expansion, contraction, churned, MRR at the end, with clients, ARPA, NRR, GRR and the quick ratio.",
    keywords: "ARR net new MRR bridge churn expansion customers",
    filters: ["dataType", "dateTo", "stockType", "clientID", "stockItemID", "salespersonID"],
  },
  {
    reportID: "acquired-clients",
    reportType: "AcquiredClients",
    name: "Acquired clients",
    description: "Clients without MRR in the first period and with MRR in the second.",
    keywords: "new customers new business wins",
    filters: twoPeriods,
  },
  {
    reportID: "lost-clients",
    reportType: "LostClients",
    name: "Lost clients",
    description:
      "Clients with MRR in the first period and none in the second, with their rank and share then.",
    keywords: "churn churned customers cancellations",
    filters: twoPeriods,
  },
  {
    reportID: "price-changes",
    reportType: "PriceChanges",
    name: "Price changes",
    description: "Client services whose price effect between the two periods is not zero.",
    keywords: "pricing price increases discounts uplift",
    filters: twoPeriods,
  },
  {
    reportID: "salesperson-performance",
    reportType: "SalespersonPerformance",
    name: "Salesperson performance",
    description:
      "Each salesperson's MRR in the two periods and its change by type, with clients transferred in and out.",
    keywords: "sales reps team",
    filters: twoPeriods,
  },
  {
    reportID: "revenue-by-segment",
    reportType: "RevenueBySegment",
    name: "Revenue by segment",
    marginName: "Margin by segment",
    description:
      "MRR in one month by stock type, salesperson, service or client size band, with each part's share.",
    keywords: "breakdown mix customer size plans",
    filters: ["dataType", "dateTo", "stockType", "clientID", "stockItemID", "salespersonID", "segment"],
  },
  {
    reportID: "adhoc-revenue",
    reportType: "AdhocRevenue",
    name: "Ad-hoc revenue",
    marginName: "Ad-hoc margin",
    description: "Revenue of Adhoc items in the two periods, by client and item (never part of MRR).",
    marginDescription: "Margin of Adhoc items in the two periods, by client and item (never part of MRR).",
    keywords: "one-off non-recurring services projects",
    filters: ["dataType", "dateFrom", "dateTo", "clientID", "stockItemID", "salespersonID"],
  },
  {
    reportID: "cohort-retention",
    reportType: "CohortRetention",
    name: "Cohort retention",
    description:
      "Clients by the month they were first active: how many, their MRR then and now, and the share of MRR or clients kept each month after.",
    keywords: "cohorts logo retention customers churn NRR",
    filters: ["dataType", "dateTo", "stockType", "clientID", "stockItemID", "salespersonID", "retention"],
  },
  {
    reportID: "forecast",
    reportType: "Forecast",
    name: "Forecast",
    description: "MRR for the next 12 months by Holt's linear trend, with an 80% interval and the back-test.",
    keywords: "projection prediction ARR trend",
    filters: ["dataType", "dateTo", "stockType", "clientID", "stockItemID", "salespersonID"],
  },
] as const satisfies readonly ReportCatalogueEntry[];

export type ReportID = (typeof reportCatalogue)[number]["reportID"];

/** A report's name in a view of `dataType`: its margin name in a Margin view when it has one. */
export function reportName(report: ReportCatalogueEntry, dataType: string | null | undefined): string {
  return dataType === "Margin" && report.marginName ? report.marginName : report.name;
}
export const reportIDs = reportCatalogue.map((r) => r.reportID) as [ReportID, ...ReportID[]];
