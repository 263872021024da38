import { z } from "zod";
import { abilities } from "./abilities";
import { yearMonthSchema } from "./common";
import { defineContract } from "./define-contract";

const idSchema = z.string().regex(/^\d{1,18}$/, "expected a numeric id");

/**
 * docs/api.md#filter-parameters: dataType is Revenue or Margin, case-insensitive, anything else falls back to
 * Revenue.
 */
export const dataTypeSchema = z
  .string()
  .optional()
  .transform((value) => (value?.toLowerCase() === "margin" ? "Margin" : "Revenue"));

export const exportRawData = defineContract({
  name: "Data/ExportRawData",
  method: "GET",
  root: "variance",
  path: "Data/ExportRawData",
  query: z.object({
    dataType: dataTypeSchema,
    dateFrom: yearMonthSchema.optional(),
    dateTo: yearMonthSchema.optional(),
    clientID: idSchema.optional(),
    stockItemID: idSchema.optional(),
    salespersonID: idSchema.optional(),
  }),
  response: z.string(),
  responseKind: "file",
  access: abilities.varianceExportData,
  summary:
    "The invoice lines as CSV, streamed; cells that a spreadsheet would run as a formula are neutralised.",
});
