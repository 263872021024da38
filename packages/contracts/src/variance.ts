import { z } from "zod";
import { abilities, figureScreenAbilities } from "./abilities";
import { analyticsFilterShape } from "./analytics";
import { periodSchema } from "./common";
import { defineContract } from "./define-contract";
import { yearMonthQuery } from "./filter-query";

export const actualPeriods = defineContract({
  name: "VarianceOverview/ActualPeriods",
  method: "GET",
  root: "variance",
  path: "VarianceOverview/ActualPeriods",
  response: z.array(periodSchema),
  responseKind: "json",
  // Every screen that shows the organisation's figures starts from these months.
  access: figureScreenAbilities,
  cacheTtlMs: 60_000,
  summary: "The months that hold actual data, newest first.",
});

export const costsImported = defineContract({
  name: "VarianceOverview/CostsImported",
  method: "GET",
  root: "variance",
  path: "VarianceOverview/CostsImported",
  response: z.object({
    /** Some line carries a cost. */
    costsImported: z.boolean(),
    /** Some Recurring line does: MRR's margin differs from its revenue. */
    recurringCostsImported: z.boolean(),
  }),
  responseKind: "json",
  // Asked by the screens that choose between revenue and margin (docs/methodology.md, "Revenue and margin").
  access: figureScreenAbilities,
  cacheTtlMs: 60_000,
  summary:
    "Whether any of the organisation's invoice lines carries a cost, and any Recurring one: without one, margin equals revenue.",
});

const sums = z.object({ positive: z.number(), negative: z.number() });

/**
 * The JSON of docs/methodology.md#the-same-numbers-everywhere (money in major units), as `varia variance
 * --json` prints it.
 */
export const varianceJsonSchema = z.object({
  dataType: z.enum(["Revenue", "Margin"]),
  periodFrom: z.string(),
  periodTo: z.string(),
  totalFrom: z.number(),
  totalTo: z.number(),
  byType: z.object({ Client: sums, Service: sums, Price: sums, Volume: sums, Usage: sums, Transfer: sums }),
  /** Each client by code and name. */
  acquiredClients: z.array(z.object({ clientCode: z.string(), clientName: z.string(), value: z.number() })),
  lostClients: z.array(z.object({ clientCode: z.string(), clientName: z.string(), value: z.number() })),
});
export type VarianceJsonDto = z.infer<typeof varianceJsonSchema>;

export const getVariance = defineContract({
  name: "DashboardAlpha/GetVariance",
  method: "GET",
  root: "variance",
  path: "DashboardAlpha/GetVariance",
  query: z.object({
    ...analyticsFilterShape,
    dateFrom: yearMonthQuery,
    dateTo: yearMonthQuery,
  }),
  response: varianceJsonSchema,
  responseKind: "json",
  access: abilities.varianceDashboardView,
  summary:
    "The variance between dateFrom and dateTo as the JSON `varia variance --json` prints (docs/methodology.md#the-same-numbers-everywhere): totals, each type's positive and negative sums, acquired and lost clients. Filters by id (clientID, stockItemID, salespersonID) or by code and name (client, stockItem, salesperson).",
});
