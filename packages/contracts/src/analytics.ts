import { z } from "zod";
import { abilities } from "./abilities";
import { type Contract, defineContract } from "./define-contract";
import {
  booleanQuery,
  dataTypes,
  idQuery,
  normalised,
  pagingQuery,
  periodCountQuery,
  recordTypeQuery,
  recordTypes,
  signQuery,
  stockTypeQuery,
  stockTypes,
  varTypeQuery,
  yearMonthQuery,
} from "./filter-query";

/*
 * The analytics calls (docs/api.md#the-calls-by-area). Every number is computed by @varia/variance from the
 * monthly cube; money is integer cents (fields ending in `Cents`), ratios are fractions (0.25 = 25 %), and
 * periods are year-months ("2025-06"). DateFrom and DateTo are the two compared months (F and T); PeriodFrom
 * and PeriodTo bound a series. Query keys are matched without regard to case.
 */

/**
 * A required parameter normalised (docs/api.md#filter-parameters): it must be sent, a bad value falls back.
 */
function requiredNormalised<const T extends readonly string[]>(values: T, fallback: T[number] | undefined) {
  return z.string().transform((v) => normalised(values)(v) ?? fallback);
}

/** The filter fields every analytics call accepts (docs/api.md#filter-parameters). */
export const analyticsFilterShape = {
  dataType: requiredNormalised(dataTypes, "Revenue")
    .optional()
    .transform((v) => v ?? "Revenue"),
  dateFrom: yearMonthQuery.optional(),
  dateTo: yearMonthQuery.optional(),
  recordTypeFrom: recordTypeQuery,
  recordTypeTo: recordTypeQuery,
  clientID: idQuery.optional(),
  stockItemID: idQuery.optional(),
  salespersonID: idQuery.optional(),
  /**
   * A client by code, an item by code, a salesperson by name (docs/api.md#filter-parameters: client,
   * stockItem, salesperson).
   */
  client: z.string().min(1).max(100).optional(),
  stockItem: z.string().min(1).max(100).optional(),
  salesperson: z.string().min(1).max(200).optional(),
  stockType: stockTypeQuery,
  varType: varTypeQuery,
  sign: signQuery,
  periodType: z.string().optional(),
  periodFrom: yearMonthQuery.optional(),
  periodTo: yearMonthQuery.optional(),
  trendPeriodCount: periodCountQuery.optional(),
  showAdhoc: booleanQuery.optional(),
  segment: z.string().optional(),
  dimension: z.string().optional(),
  thirdClientID: idQuery.optional(),
  thirdStockItemID: idQuery.optional(),
  rank: z.string().optional(),
  heatmap: z.string().optional(),
  report: z.string().optional(),
};

export const analyticsFilterQuery = z.object(analyticsFilterShape);

/** The filter fields with a call's own (PascalCase) parameters in place of the same names. */
function withParameters<E extends z.ZodRawShape>(extra: E) {
  const taken = new Set(Object.keys(extra).map((k) => k.toLowerCase()));
  const base = Object.fromEntries(
    Object.entries(analyticsFilterShape).filter(([k]) => !taken.has(k.toLowerCase())),
  ) as typeof analyticsFilterShape;
  return z.object({ ...base, ...extra });
}
export type AnalyticsFilter = z.output<typeof analyticsFilterQuery>;

/** Sorting and a text filter of the server-side tables. */
export const tableShape = {
  ...pagingQuery,
  sortBy: z.string().max(60).optional(),
  sortDir: z
    .string()
    .optional()
    .transform((v) => (v?.toLowerCase() === "asc" ? "asc" : "desc")),
  search: z.string().max(200).optional(),
};

const money = z.number().int();
const sums = z.object({ positiveCents: money, negativeCents: money });
const byTypeSchema = z.object({
  Client: sums,
  Service: sums,
  Price: sums,
  Volume: sums,
  Usage: sums,
  Transfer: sums,
});

const badgeVariant = z.enum(["new", "added", "lost", "removed", "existing", "adhoc", "sku"]);

export const activityRowSchema = z.object({
  clientID: z.number().int(),
  clientCode: z.string(),
  clientName: z.string(),
  stockItemID: z.number().int(),
  itemCode: z.string(),
  itemName: z.string(),
  stockType: z.string(),
  salespersonID: z.number().int(),
  salesperson: z.string(),
  /**
   * docs/api.md#shapes: the value in DateTo, its change from DateFrom (`...Variance`) and the value in
   * DateFrom.
   */
  valueCents: money,
  valueCentsVariance: money,
  valueFromCents: money,
  quantityFrom: z.number(),
  quantityTo: z.number(),
  parts: z.record(z.string(), money),
  status: z.enum(["Existing", "Added", "Removed", "Adhoc"]),
  badgeVariant,
  clientBadge: z.enum(["new", "lost"]).optional(),
});

const table = <T extends z.ZodType>(row: T) =>
  z.object({ rows: z.array(row), rowCount: z.number().int(), startRow: z.number().int() });

export const kpiSchema = z.object({
  periodFrom: z.string(),
  periodTo: z.string(),
  mrrCents: money,
  arrCents: money,
  mrrFromCents: money,
  mrrCentsVariance: money,
  /** ARR and ARPA in DateFrom, for their change. */
  arrFromCents: money,
  clientsSubscribed: z.number().int(),
  clientsSubscribedFrom: z.number().int(),
  arpaCents: money,
  arpaFromCents: money,
  newMrrCents: money,
  churnedMrrCents: money,
  expansionMrrCents: money,
  contractionMrrCents: money,
  grr: z.number().nullable(),
  nrr: z.number().nullable(),
  adhocCents: money.optional(),
});

const segmentRow = z.object({
  key: z.string(),
  label: z.string(),
  valueCents: money,
  share: z.number(),
  valueCentsVariance: money.optional(),
  valueFromCents: money.optional(),
});
const segmentsSchema = z.object({ segment: z.string(), period: z.string(), rows: z.array(segmentRow) });

const rankedRow = z.object({
  clientID: z.number().int(),
  clientCode: z.string(),
  clientName: z.string(),
  valueCents: money,
  rank: z.number().int(),
  contribution: z.number(),
  badgeVariant: badgeVariant.optional(),
});

const seriesPoint = z.object({
  period: z.string(),
  totalCents: money,
  adhocCents: money.optional(),
  byType: byTypeSchema.optional(),
});

function get<Q extends z.ZodType, R extends z.ZodType>(name: string, query: Q, response: R, summary: string) {
  return defineContract({
    name: `VarianceOverview/${name}`,
    method: "GET",
    root: "variance",
    path: `VarianceOverview/${name}`,
    query,
    response,
    responseKind: "json",
    access: abilities.varianceDashboardView,
    summary,
  });
}

const filterQuery = analyticsFilterQuery;

export const christmasChart = get(
  "ChristmasChart",
  withParameters({
    DataType: requiredNormalised(dataTypes, "Revenue"),
    DateFrom: yearMonthQuery,
    DateTo: yearMonthQuery,
    RecordTypeFrom: requiredNormalised(recordTypes, "Actual"),
    RecordTypeTo: requiredNormalised(recordTypes, "Actual"),
    StockType: requiredNormalised(stockTypes, undefined),
    PeriodFrom: yearMonthQuery,
    PeriodTo: yearMonthQuery,
    VarianceType: varTypeQuery,
    ResponsiblePersonID: idQuery.optional(),
  }),
  z.object({
    points: z.array(
      z.object({ period: z.string(), byType: byTypeSchema, netCents: money, startsTheData: z.boolean() }),
    ),
  }),
  "Year-end chart: each month from PeriodFrom to PeriodTo against the month before, by type and sign; startsTheData marks a month where the data starts (or before it), whose change is none.",
);

export const trendChart = get(
  "TrendChart",
  withParameters({
    DataType: requiredNormalised(dataTypes, "Revenue"),
    PeriodFrom: yearMonthQuery,
    PeriodTo: yearMonthQuery,
    RecordType: requiredNormalised(recordTypes, "Actual"),
    PeriodMode: z.string().min(1),
    RecordTypeFrom: requiredNormalised(recordTypes, "Actual"),
    RecordTypeTo: requiredNormalised(recordTypes, "Actual"),
    ShowAdhoc: booleanQuery,
    SkuID: idQuery.optional(),
    VarType: varTypeQuery,
    PeriodCount: periodCountQuery.default(8),
    ResponsiblePersonID: idQuery.optional(),
    VarianceType: varTypeQuery,
  }),
  z.object({ points: z.array(seriesPoint) }),
  "The total for each of the PeriodCount months ending at PeriodTo (default 8), with Adhoc and by type.",
);

export const waterfallChart = get(
  "WaterfallChart",
  withParameters({
    DataType: requiredNormalised(dataTypes, "Revenue"),
    DateFrom: yearMonthQuery,
    DateTo: yearMonthQuery,
    RecordTypeFrom: requiredNormalised(recordTypes, "Actual"),
    RecordTypeTo: requiredNormalised(recordTypes, "Actual"),
    StockType: requiredNormalised(stockTypes, undefined),
    PeriodFrom: yearMonthQuery,
    PeriodTo: yearMonthQuery,
    RecordType: requiredNormalised(recordTypes, "Actual"),
    ResponsiblePersonID: idQuery.optional(),
  }),
  z.object({
    steps: z.array(
      z.object({
        label: z.string(),
        kind: z.enum(["total", "step"]),
        type: z.string().optional(),
        sign: z.enum(["Positive", "Negative"]).optional(),
        valueCents: money,
      }),
    ),
  }),
  "Start total (DateFrom), one step per type and sign, end total (DateTo).",
);

/**
 * The activity table's rows of one badge only (docs/api.md#shapes): new or lost clients, added or removed
 * services...
 */
export const activityBadges = ["new", "added", "lost", "removed", "existing", "adhoc"] as const;
const activityBadgeQuery = z
  .string()
  .optional()
  .transform((v) => normalised(activityBadges)(v || undefined));

const activityQuery = z.object({ ...analyticsFilterShape, ...tableShape, badgeVariant: activityBadgeQuery });
const activityResponse = table(activityRowSchema).extend({
  totals: z.object({
    valueCents: money,
    valueCentsVariance: money,
    valueFromCents: money,
    /** With a varType: the listed rows' parts of that type (the waterfall's step when nothing narrows them). */
    stepCents: money.optional(),
  }),
});

export const activityTableGet = get(
  "ActivityTable",
  activityQuery,
  activityResponse,
  "One row per client and service: values in both months, the change split by type, the line status; paged, sorted and filtered on the server.",
);

export const activityTable = defineContract({
  name: "VarianceOverview/ActivityTable (POST)",
  method: "POST",
  root: "variance",
  path: "VarianceOverview/ActivityTable",
  body: z.object({
    ...analyticsFilterShape,
    ...tableShape,
    badgeVariant: activityBadgeQuery,
    trendPeriodCount: z.coerce.number().int().min(1).max(500).optional(),
    showAdhoc: z.union([z.boolean(), booleanQuery]).optional(),
  }),
  response: activityResponse,
  responseKind: "json",
  access: abilities.varianceDashboardView,
  summary: "The activity table with its filters in a JSON body.",
});

export const overviewKpi = get(
  "OverviewKpi",
  filterQuery,
  kpiSchema,
  "MRR, ARR, clients subscribed, ARPA, new, churned, expansion, contraction, GRR and NRR (docs/methodology.md#kpis).",
);

export const specificMrrKpi = get(
  "SpecificMRRKpi",
  filterQuery,
  z.object({
    periodFrom: z.string(),
    periodTo: z.string(),
    mrrCents: money,
    mrrFromCents: money,
    mrrCentsVariance: money,
    arrCents: money,
  }),
  "The MRR of the filtered client, service, stock type or salesperson in both months.",
);

const rankContribution = z.object({
  period: z.string(),
  clientID: z.number().int().nullable(),
  rank: z.number().int().nullable(),
  contribution: z.number().nullable(),
  valueCents: money,
  clientCount: z.number().int(),
});

export const specificRankContributionKpi = get(
  "SpecificRankContributionKpi",
  filterQuery,
  rankContribution,
  "The filtered client's rank (1 = largest) and share of the total in DateTo.",
);

export const expandedSpecificRankContributionKpi = get(
  "ExpandedSpecificRankContributionKpi",
  z.object({ ...analyticsFilterShape, ...tableShape }),
  table(rankedRow),
  "Every client ranked by value in DateTo with its share; paged.",
);

export const clientsSubscribedKpi = get(
  "ClientsSubscribedKpi",
  filterQuery,
  z.object({
    periodFrom: z.string(),
    periodTo: z.string(),
    clientsSubscribed: z.number().int(),
    clientsSubscribedFrom: z.number().int(),
    variance: z.number().int(),
    acquired: z.number().int(),
    lost: z.number().int(),
  }),
  "Active clients in both months (docs/methodology.md#activity), with acquired and lost counts.",
);

export const expandedClientsSubscribedKpi = get(
  "ExpandedClientsSubscribedKpi",
  z.object({ ...analyticsFilterShape, ...tableShape }),
  table(rankedRow),
  "The clients subscribed in DateTo with their value, and the lost ones of DateFrom; paged.",
);

export const lostMrrKpi = get(
  "LostMRRKpi",
  filterQuery,
  z.object({
    periodFrom: z.string(),
    periodTo: z.string(),
    lostMrrCents: money,
    lostClients: z.number().int(),
  }),
  "The MRR of lost clients (negative) and their count.",
);

export const lostKpiTypes = ["Revenue", "Rank", "Contribution"] as const;

export const lostRankContributionKpi = get(
  "LostRankContributionKpi",
  z.object({
    ...analyticsFilterShape,
    ...tableShape,
    type: z
      .string()
      .optional()
      .transform((v) => normalised(lostKpiTypes)(v) ?? "Revenue"),
  }),
  table(rankedRow).extend({ type: z.enum(lostKpiTypes) }),
  "Lost clients with the revenue they took, their rank and share in DateFrom (type Revenue, Rank or Contribution orders the list).",
);

export const gridGeneralKpi = get(
  "GridGeneralKpi",
  filterQuery,
  segmentsSchema,
  "The total of DateTo split by a segment (stockType, salesperson, item, clientSize), with DateFrom beside it.",
);

export const gridSpecificKpi = get(
  "GridSpecificKpi",
  filterQuery,
  segmentsSchema,
  "The filtered view split by a segment, with DateFrom beside it.",
);

export const specificDonutChart = get(
  "SpecificDonutChart",
  filterQuery,
  segmentsSchema,
  "Shares of DateTo's total by a dimension (default stockType).",
);

export const powerfulBar = get(
  "PowerfulBar",
  filterQuery,
  z.object({ periodFrom: z.string(), periodTo: z.string(), byType: byTypeSchema }),
  "Positive and negative sums of each variance type.",
);

export const varianceBars = get(
  "VarianceBars",
  z.object({ ...analyticsFilterShape, ...tableShape }),
  table(
    z.object({
      type: z.string(),
      sign: z.enum(["Positive", "Negative"]),
      clientID: z.number().int(),
      clientCode: z.string(),
      clientName: z.string(),
      stockItemID: z.number().int().nullable(),
      itemCode: z.string().nullable(),
      itemName: z.string().nullable(),
      valueCents: money,
    }),
  ).extend({
    /** The sum of every contributor that matches (not only the page's): level 2's total. */
    totals: z.object({ valueCents: money }),
  }),
  "The contributors of a type and sign (varType, sign), largest first (docs/methodology.md#signs-contributions-and-lists), and their total.",
);

export const comparisonKpiChart = get(
  "ComparisonKpiChart",
  filterQuery,
  z.object({
    periodFrom: z.string(),
    periodTo: z.string(),
    rows: z.array(z.object({ key: z.string(), label: z.string(), fromCents: money, toCents: money })),
  }),
  "DateFrom against DateTo by a dimension (default stockType).",
);

export const simpleKpiChart = get(
  "SimpleKpiChart",
  filterQuery,
  z.object({ points: z.array(seriesPoint) }),
  "The total over the trendPeriodCount months (default 12) ending at DateTo.",
);

export const lineChart = get(
  "LineChart",
  z.object({ ...analyticsFilterShape, periodFrom: yearMonthQuery, periodTo: yearMonthQuery }),
  z.object({ points: z.array(seriesPoint) }),
  "The total of every month from periodFrom to periodTo.",
);

export const tableInvoiceData = get(
  "TableInvoiceData",
  z.object({ ...analyticsFilterShape, ...tableShape }),
  table(
    z.object({
      invoiceNumber: z.string(),
      lineNumber: z.number().int(),
      invoiceDate: z.string(),
      clientCode: z.string(),
      clientName: z.string(),
      itemCode: z.string(),
      itemName: z.string(),
      salesperson: z.string().nullable(),
      quantity: z.string(),
      amountCents: money,
      costCents: money,
      serviceFrom: z.string().nullable(),
      serviceTo: z.string().nullable(),
      recordType: z.string(),
    }),
  ).extend({
    /** The sums of every line listed (not only the page's): level 4's totals row. */
    totals: z.object({ amountCents: money, costCents: money }),
  }),
  "The invoice lines behind the figures: the filtered client, service, salesperson and stock type, dated DateFrom to DateTo; paged, sorted (invoiceDate, invoiceNumber, clientName, itemName, clientCode, itemCode, amountCents) and searched; with the sums of every line listed.",
);

function chartPost<R extends z.ZodType>(name: string, response: R, summary: string) {
  return defineContract({
    name: `Chart/${name}`,
    method: "POST",
    root: "variance",
    path: `Chart/${name}`,
    body: z.object({
      ...analyticsFilterShape,
      showAdhoc: z.union([z.boolean(), booleanQuery]).optional(),
      trendPeriodCount: z.coerce.number().int().min(1).max(500).optional(),
    }),
    response,
    responseKind: "json",
    access: abilities.varianceDashboardView,
    summary,
  });
}

export const chartClientKpis = chartPost(
  "ClientKpis",
  z.object({
    clientID: z.number().int(),
    clientCode: z.string(),
    mrrCents: money,
    mrrFromCents: money,
    rank: z.number().int().nullable(),
    contribution: z.number().nullable(),
    trend: z.array(seriesPoint),
  }),
  "One client's MRR in both months, its rank and share, and its trend.",
);
export const chartOverviewKpi = chartPost(
  "OverviewKpi",
  kpiSchema,
  "The overview KPIs with the filters in a body.",
);
export const chartRevenueBySegment = chartPost(
  "RevenueBySegment",
  segmentsSchema,
  "Revenue by stock type, salesperson, item or client size band (segment).",
);
export const chartSpecificMrrKpi = chartPost(
  "SpecificMrrKpi",
  specificMrrKpi.response,
  "The MRR of the filtered view in both months, with the filters in a body.",
);

const detailItem = z.object({
  stockItemID: z.number().int(),
  itemCode: z.string(),
  itemName: z.string(),
  mrrCents: money,
  status: z.string(),
});

export const specificClientDetail = defineContract({
  name: "Client/SpecificClientDetail",
  method: "GET",
  root: "variance",
  path: "Client/SpecificClientDetail",
  query: z.object({ ...analyticsFilterShape, clientID: idQuery }),
  response: z.object({
    clientID: z.number().int(),
    clientCode: z.string(),
    clientName: z.string(),
    salesperson: z.string().nullable(),
    period: z.string(),
    mrrCents: money,
    mrrFromCents: money,
    rank: z.number().int().nullable(),
    contribution: z.number().nullable(),
    firstPeriod: z.string().nullable(),
    /** firstPeriod is where the data starts: the client may have been one before it. */
    firstPeriodStartsTheData: z.boolean(),
    lastPeriod: z.string().nullable(),
    services: z.array(detailItem),
  }),
  responseKind: "json",
  access: abilities.varianceDashboardView,
  summary: "A client: its salesperson, MRR, rank, first and last active months and its services.",
});

export const skuDetail = defineContract({
  name: "Sku/SkuDetail",
  method: "GET",
  root: "variance",
  path: "Sku/SkuDetail",
  query: z.object({ ...analyticsFilterShape, stockItemID: idQuery }),
  response: z.object({
    stockItemID: z.number().int(),
    itemCode: z.string(),
    itemName: z.string(),
    stockType: z.string(),
    category: z.string(),
    period: z.string(),
    mrrCents: money,
    mrrFromCents: money,
    clients: z.number().int(),
    clientsFrom: z.number().int(),
  }),
  responseKind: "json",
  access: abilities.varianceDashboardView,
  summary: "A service (SKU): its stock type, category, MRR and clients in both months.",
});

export const specificSalespersonDetail = defineContract({
  name: "Salesperson/SpecificSalespersonDetail",
  method: "GET",
  root: "variance",
  path: "Salesperson/SpecificSalespersonDetail",
  query: z.object({ ...analyticsFilterShape, contactID: idQuery }),
  response: z.object({
    salespersonID: z.number().int(),
    name: z.string(),
    periodFrom: z.string(),
    periodTo: z.string(),
    mrrCents: money,
    mrrFromCents: money,
    clients: z.number().int(),
    byType: byTypeSchema,
    transferInCents: money,
    transferOutCents: money,
  }),
  responseKind: "json",
  access: abilities.varianceDashboardView,
  summary:
    "A salesperson's view (docs/methodology.md#salespeople-and-transfer): clients owned, MRR, the change by type with transfers.",
});

export const analyticsContracts = {
  christmasChart,
  trendChart,
  waterfallChart,
  activityTable,
  activityTableGet,
  gridGeneralKpi,
  gridSpecificKpi,
  tableInvoiceData,
  specificMrrKpi,
  specificRankContributionKpi,
  expandedSpecificRankContributionKpi,
  clientsSubscribedKpi,
  expandedClientsSubscribedKpi,
  lostMrrKpi,
  lostRankContributionKpi,
  specificDonutChart,
  powerfulBar,
  varianceBars,
  comparisonKpiChart,
  simpleKpiChart,
  lineChart,
  overviewKpi,
  chartClientKpis,
  chartOverviewKpi,
  chartRevenueBySegment,
  chartSpecificMrrKpi,
  specificClientDetail,
  skuDetail,
  specificSalespersonDetail,
} as const satisfies Record<string, Contract>;
