import { z } from "zod";
import { abilities, figureScreenAbilities } from "./abilities";
import { yearMonthSchema } from "./common";
import { type Contract, defineContract } from "./define-contract";
import { dataTypes, normalised, stockTypes } from "./filter-query";
import { reportCatalogue, reportIDs, reportRetentions, reportSegments } from "./report-catalogue";

export * from "./report-catalogue";

/** Lookups, reports and help text (docs/api.md#the-calls-by-area). */

// --- Lookups -------------------------------------------------------------------------------------

/** Search parameters of the dimension lookups: text over code and name, rows [startRow, startRow + rowLimit) counted from 1. */
export const lookupSearchSchema = z.object({
  search: z.string().max(200).nullish(),
  startRow: z.number().int().min(1).default(1),
  rowLimit: z.number().int().min(1).max(1000).default(100),
});
export type LookupSearch = z.input<typeof lookupSearchSchema>;

const lookupPage = <T extends z.ZodType>(row: T) =>
  z.object({ rows: z.array(row), rowCount: z.number().int() });

export const lookupClientRowSchema = z.object({ clientID: z.string(), code: z.string(), name: z.string() });
export const lookupSkuRowSchema = z.object({
  stockItemID: z.string(),
  code: z.string(),
  name: z.string(),
  stockType: z.enum(stockTypes),
});
export const lookupSalespersonRowSchema = z.object({ salespersonID: z.string(), name: z.string() });

/** The client, service and salesperson pickers are on every screen that filters. */
const lookupAccess = figureScreenAbilities;

export const lookupClientList = defineContract({
  name: "Lookup/GetClientList",
  method: "POST",
  root: "variance",
  path: "Lookup/GetClientList",
  body: lookupSearchSchema,
  response: lookupPage(lookupClientRowSchema),
  responseKind: "json",
  access: lookupAccess,
  policy: "lookup",
  summary:
    "The organisation's clients whose code or name contains the search text, by name, a page at a time.",
});

export const lookupSkuList = defineContract({
  name: "Lookup/GetSkuList",
  method: "POST",
  root: "variance",
  path: "Lookup/GetSkuList",
  body: lookupSearchSchema,
  response: lookupPage(lookupSkuRowSchema),
  responseKind: "json",
  access: lookupAccess,
  policy: "lookup",
  summary: "The organisation's items (services) whose code or name contains the search text, by name.",
});

export const lookupSalespersonList = defineContract({
  name: "Lookup/GetSalespersonList",
  method: "POST",
  root: "variance",
  path: "Lookup/GetSalespersonList",
  body: lookupSearchSchema,
  response: lookupPage(lookupSalespersonRowSchema),
  responseKind: "json",
  access: lookupAccess,
  policy: "lookup",
  summary: "The organisation's salespeople whose name contains the search text, by name.",
});

export const reportSummarySchema = z.object({
  reportID: z.enum(reportIDs),
  reportType: z.string(),
  name: z.string(),
  description: z.string(),
});
export type ReportSummary = z.infer<typeof reportSummarySchema>;

export const lookupReportList = defineContract({
  name: "Lookup/GetReportList",
  method: "GET",
  root: "variance",
  path: "Lookup/GetReportList",
  query: z.object({
    /** A report's system name (reportType), case-insensitive: only that report. */
    systemName: z.string().max(100).optional(),
    /** Text the report's name or description contains, case-insensitive. */
    value: z.string().max(200).optional(),
  }),
  response: z.array(reportSummarySchema),
  responseKind: "json",
  access: abilities.varianceReportsView,
  policy: "lookup",
  summary: "The report catalogue, optionally one system name or the reports matching a text.",
});

// --- Reports -------------------------------------------------------------------------------------

/** A numeric id in a JSON body, as a number or a string of digits; null means not given. */
const bodyId = z
  .union([z.number().int().min(0).max(999_999_999), z.string().regex(/^\d{1,9}$/, "expected a numeric id")])
  .nullish()
  .transform((v) => (v === null || v === undefined ? undefined : Number(v)));

/** The filter values of a report (docs/api.md#filter-parameters, normalised likewise). */
export const reportFilterValuesSchema = z.object({
  reportID: z.enum(reportIDs),
  dataType: z
    .string()
    .nullish()
    .transform((v) => normalised(dataTypes)(v ?? undefined) ?? "Revenue"),
  /** The first period (YYYY-MM); default the month before dateTo. */
  dateFrom: yearMonthSchema.nullish().transform((v) => v ?? undefined),
  /** The second period (YYYY-MM); default the latest month with actual data. */
  dateTo: yearMonthSchema.nullish().transform((v) => v ?? undefined),
  stockType: z
    .string()
    .nullish()
    .transform((v) => normalised(stockTypes)(v ?? undefined)),
  clientID: bodyId,
  stockItemID: bodyId,
  salespersonID: bodyId,
  showAdhoc: z
    .boolean()
    .nullish()
    .transform((v) => v ?? false),
  segment: z
    .enum(reportSegments)
    .nullish()
    .transform((v) => v ?? "stockType"),
  retention: z
    .enum(reportRetentions)
    .nullish()
    .transform((v) => v ?? "mrr"),
});

const checkPeriods = <T extends { dateFrom?: string | undefined; dateTo?: string | undefined }>(value: T) =>
  !value.dateFrom || !value.dateTo || value.dateFrom <= value.dateTo;
const periodsMessage = { message: "dateFrom must not be after dateTo", path: ["dateFrom"] };

const sortSchema = {
  /** A column's field; default the report's own order. */
  sortField: z.string().max(100).nullish(),
  sortDirection: z.enum(["asc", "desc"]).nullish(),
};

/** Report/Run: the filter values, the sort, and the page (rows [startRow, startRow + rowLimit), from 0). */
export const reportRunBodySchema = reportFilterValuesSchema
  .extend({
    ...sortSchema,
    startRow: z.number().int().min(0).default(0),
    rowLimit: z.number().int().min(1).max(10_000).default(100),
  })
  .refine(checkPeriods, periodsMessage);
export type ReportRunBody = z.input<typeof reportRunBodySchema>;

export const reportColumnKinds = ["money", "number", "percent", "month", "text"] as const;
/**
 * A column: money in major units, percent as a fraction (0.25 = 25 %), month as 'YYYY-MM'. `shade` asks screens to tint
 * its cells by their value: "retention", a share kept of a start (1 = all of it kept). `decimals`: a number column
 * written with exactly this many decimals everywhere (the quick ratio: 2, so 1.60 sits under 1.29).
 */
export const reportColumnSchema = z.object({
  field: z.string(),
  header: z.string(),
  kind: z.enum(reportColumnKinds),
  shade: z.enum(["retention"]).optional(),
  decimals: z.number().int().min(0).max(4).optional(),
});
export type ReportColumn = z.infer<typeof reportColumnSchema>;

export const reportCellSchema = z.union([z.string(), z.number(), z.null()]);
export type ReportCell = z.infer<typeof reportCellSchema>;
export type ReportRow = Record<string, ReportCell>;

export const reportResultSchema = z.object({
  reportID: z.enum(reportIDs),
  reportType: z.string(),
  name: z.string(),
  dataType: z.enum(dataTypes),
  /** The periods the report was computed for (null when the report has one period). */
  dateFrom: z.string().nullable(),
  dateTo: z.string().nullable(),
  columns: z.array(reportColumnSchema),
  rows: z.array(z.record(z.string(), reportCellSchema)),
  /** All rows of the report; `rows` is the page asked for. */
  rowCount: z.number().int(),
  startRow: z.number().int(),
  /** The totals of the whole report by field, where a total means something. */
  totals: z.record(z.string(), reportCellSchema),
  notes: z.array(z.string()),
  /**
   * Headline numbers of the run by name, when the report has some. The forecast: fittedMonths,
   * alpha, beta, backtestMonths, backtestMae (money), backtestMape (a fraction, or null).
   */
  figures: z.record(z.string(), reportCellSchema).optional(),
});
export type ReportResult = z.infer<typeof reportResultSchema>;

export const reportRun = defineContract({
  name: "Report/Run",
  method: "POST",
  root: "variance",
  path: "Report/Run",
  body: reportRunBodySchema,
  response: reportResultSchema,
  responseKind: "json",
  // The forecast page is this call's forecast report: Forecast/View opens that report alone (the
  // server refuses it any other; docs/security.md, "Abilities and who may call").
  access: [abilities.varianceReportsView, abilities.varianceForecastView],
  summary: "Runs a report on the organisation's data: its columns and a sorted page of its rows.",
});

export const reportExportFormats = ["csv", "xlsx"] as const;

/** Report/ExportReport: the filter values and sort of Report/Run, every row, as CSV or XLSX. */
export const reportExportBodySchema = reportFilterValuesSchema
  .extend({ ...sortSchema, format: z.enum(reportExportFormats).default("csv") })
  .refine(checkPeriods, periodsMessage);
export type ReportExportBody = z.input<typeof reportExportBodySchema>;

export const reportExport = defineContract({
  name: "Report/ExportReport",
  method: "POST",
  root: "variance",
  path: "Report/ExportReport",
  body: reportExportBodySchema,
  response: z.string(),
  responseKind: "file",
  access: abilities.varianceReportsView,
  summary:
    "A report's rows as a CSV file (streamed, formula-like cells neutralised) or an XLSX workbook (money as numbers with a currency format).",
});

export const reportFilterOptionSchema = z.object({ label: z.string(), value: z.string() });
export const reportFilterSchema = z.object({
  name: z.string(),
  label: z.string(),
  /** period: YYYY-MM; select: one of options; lookup: an id from the named lookup call; boolean. */
  kind: z.enum(["period", "select", "lookup", "boolean"]),
  required: z.boolean(),
  default: z.union([z.string(), z.boolean(), z.null()]),
  options: z.array(reportFilterOptionSchema).optional(),
  lookup: z.string().optional(),
});
export type ReportFilter = z.infer<typeof reportFilterSchema>;

export const reportGetFilter = defineContract({
  name: "Report/getReportFilter",
  method: "GET",
  root: "variance",
  path: "Report/getReportFilter",
  query: z.object({ reportID: z.enum(reportIDs) }),
  response: reportSummarySchema.extend({ filters: z.array(reportFilterSchema) }),
  responseKind: "json",
  access: abilities.varianceReportsView,
  summary: "The filters a report takes, with their options (periods are the months with actual data).",
});

// --- Help text -----------------------------------------------------------------------------------

export const helpTextSchema = z.object({
  key: z.string(),
  title: z.string(),
  format: z.enum(["html", "text"]),
  content: z.string(),
});
export type HelpText = z.infer<typeof helpTextSchema>;

/**
 * The help keys of the workspace's cards: each card's "?" asks for one, and the server has a text
 * for every one of them (its table is typed by this list, so a card cannot name a key it lacks).
 */
export const cardHelpKeys = [
  "mrr",
  "arr",
  "clientsSubscribed",
  "arpa",
  "nrr",
  "grr",
  "waterfallChart",
  "varianceTypes",
  "trendChart",
  "christmasChart",
  "acquiredClients",
  "lostClients",
  "revenueBySegment",
  "activityTable",
  "stepTotal",
  "stepContributors",
  "stepLargest",
  "stepHistory",
  "specificMrr",
  "specificRank",
  "specificContribution",
  "specificShare",
  "specificProfile",
  "specificHistory",
  "specificDonut",
  "invoiceLines",
  "forecast",
  "forecastBacktest",
] as const;
export type CardHelpKey = (typeof cardHelpKeys)[number];

/**
 * GET /api/variance/helpText?key: the help of a card, KPI, chart or report. The key is a plain name
 * (`mrr`) or the JSON of docs/api.md#shapes,
 * `{"name":"mrr","filterParams":{"dateFrom":"2025-05","dateTo":"2025-06"}}`.
 */
export const helpText = defineContract({
  name: "helpText",
  method: "GET",
  root: "variance",
  path: "helpText",
  query: z.object({ key: z.string().trim().min(1).max(2000) }),
  response: helpTextSchema,
  responseKind: "json",
  access: "authenticated",
  summary: "Help text by key (html or plain text); an unknown key answers 404.",
});

export const reportContracts = {
  lookupReportList,
  lookupClientList,
  lookupSkuList,
  lookupSalespersonList,
  reportGetFilter,
  reportRun,
  reportExport,
  helpText,
} as const satisfies Record<string, Contract>;

/** The catalogue entry of a report id. */
export function reportCatalogueEntry(reportID: string) {
  return reportCatalogue.find((r) => r.reportID === reportID);
}
