import { describe, expectTypeOf, it } from "vitest";
import type { BodyOf, QueryOf, ResponseOf } from "./define-contract";
import type { ReportID } from "./report-catalogue";
import type { helpText, lookupClientList, reportExport, reportGetFilter, reportRun } from "./reports";

// Type tests (checked by tsc in the typecheck, never run): the inferred types of the report calls.
describe("report contracts", () => {
  it("Report/Run takes a known report id and the filter values, and answers cells by field", () => {
    expectTypeOf<BodyOf<typeof reportRun>["reportID"]>().toEqualTypeOf<ReportID>();
    expectTypeOf<BodyOf<typeof reportRun>["clientID"]>().toEqualTypeOf<number | string | null | undefined>();
    expectTypeOf<BodyOf<typeof reportRun>["sortDirection"]>().toEqualTypeOf<
      "asc" | "desc" | null | undefined
    >();
    expectTypeOf<ResponseOf<typeof reportRun>["rows"]>().toEqualTypeOf<
      Record<string, string | number | null>[]
    >();
    expectTypeOf<ResponseOf<typeof reportRun>["columns"][number]["kind"]>().toEqualTypeOf<
      "money" | "number" | "percent" | "month" | "text"
    >();
  });

  it("Report/ExportReport adds the file format; getReportFilter takes the report id", () => {
    expectTypeOf<BodyOf<typeof reportExport>["format"]>().toEqualTypeOf<"csv" | "xlsx" | undefined>();
    expectTypeOf<QueryOf<typeof reportGetFilter>>().toEqualTypeOf<{ reportID: ReportID }>();
  });

  it("lookups page from row 1 and answer rows with a count; help text is keyed by text", () => {
    expectTypeOf<BodyOf<typeof lookupClientList>>().toEqualTypeOf<{
      search?: string | null | undefined;
      startRow?: number | undefined;
      rowLimit?: number | undefined;
    }>();
    expectTypeOf<ResponseOf<typeof lookupClientList>>().toEqualTypeOf<{
      rows: { clientID: string; code: string; name: string }[];
      rowCount: number;
    }>();
    expectTypeOf<ResponseOf<typeof helpText>["format"]>().toEqualTypeOf<"html" | "text">();
  });
});
