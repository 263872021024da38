import { z } from "zod";
import { abilities } from "./abilities";
import { yearMonthSchema } from "./common";
import { defineContract } from "./define-contract";

/**
 * What every CSV download starts with, the server's (raw data, a report, the import template) and the
 * web app's own (a grid's Download): UTF-8's byte order mark, without which Excel on Windows reads a
 * CSV as the local code page and garbles "Célestine Café". The importer skips it, so a download can
 * be imported again (docs/import.md, "Exports").
 */
export const csvByteOrderMark = "\uFEFF";

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
