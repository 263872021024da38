import { z } from "zod";
import { yearMonthSchema } from "./common";

/**
 * The filter parameters (docs/api.md#filter-parameters) as zod pieces, shared by every analytics, report and
 * export contract. Their normalisation: case-insensitive, first letter capitalised, anything else falls back
 * to the default. Ids are the numeric ids of clients, items and salespeople.
 */
export function normalised<const T extends readonly string[]>(values: T) {
  return (value: string | undefined): T[number] | undefined =>
    values.find((v) => v.toLowerCase() === value?.trim().toLowerCase());
}

export const dataTypes = ["Revenue", "Margin"] as const;
export const stockTypes = ["Subscription", "Product", "Hourly"] as const;
export const varianceTypes = ["Client", "Service", "Price", "Volume", "Usage", "Transfer"] as const;
export const signs = ["Positive", "Negative"] as const;
export const recordTypes = ["Actual", "Budget", "Forecast"] as const;

/** dataType: Revenue or Margin, default Revenue. */
export const dataTypeQuery = z
  .string()
  .optional()
  .transform((v) => normalised(dataTypes)(v) ?? "Revenue");

/** stockType: Subscription, Product or Hourly; anything else means no stock-type filter. */
export const stockTypeQuery = z.string().optional().transform(normalised(stockTypes));

/** varType / VarianceType: one of the six types, or none. */
export const varTypeQuery = z.string().optional().transform(normalised(varianceTypes));

/** sign: Positive or Negative, or none. */
export const signQuery = z.string().optional().transform(normalised(signs));

/** recordType*: Actual (default), Budget or Forecast. */
export const recordTypeQuery = z
  .string()
  .optional()
  .transform((v) => normalised(recordTypes)(v) ?? "Actual");

/** A numeric id of a client, item or salesperson. */
export const idQuery = z.string().regex(/^\d{1,9}$/, "expected a numeric id");

/** A period sent as year-month (docs/api.md#filter-parameters). */
export const yearMonthQuery = yearMonthSchema;

/** Booleans in a query string: true/false, 1/0, case-insensitive. */
export const booleanQuery = z
  .string()
  .regex(/^(true|false|1|0)$/i, "expected true or false")
  .transform((v) => v.toLowerCase() === "true" || v === "1");

/** A count of periods, 1 to 500 (the period range cap, docs/behaviour.md#periods). */
export const periodCountQuery = z.coerce.number().int().min(1).max(500);

/** Paging of large tables (AG Grid's server-side model): rows [startRow, startRow + rowLimit). */
export const pagingQuery = {
  startRow: z.coerce.number().int().min(0).default(0),
  rowLimit: z.coerce.number().int().min(1).max(1000).default(100),
};
