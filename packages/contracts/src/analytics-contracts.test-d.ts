import { describe, expectTypeOf, it } from "vitest";
import type {
  activityTable,
  activityTableGet,
  lineChart,
  lostRankContributionKpi,
  overviewKpi,
  specificSalespersonDetail,
  trendChart,
  waterfallChart,
} from "./analytics";
import type { BodyOf, QueryOf, ResponseOf } from "./define-contract";

type Sums = { positiveCents: number; negativeCents: number };

// Type tests (checked by tsc in the typecheck, never run): the inferred types of the analytics calls.
describe("analytics contracts", () => {
  it("WaterfallChart takes its required parameters as strings and answers steps in cents", () => {
    type Query = QueryOf<typeof waterfallChart>;
    expectTypeOf<Query["DataType"]>().toEqualTypeOf<string>();
    expectTypeOf<Query["DateFrom"]>().toEqualTypeOf<string>();
    expectTypeOf<Query["PeriodTo"]>().toEqualTypeOf<string>();
    expectTypeOf<Query["RecordType"]>().toEqualTypeOf<string>();
    // The call's ClientID is the filter's clientID: query keys match without regard to case.
    expectTypeOf<Query["clientID"]>().toEqualTypeOf<string | undefined>();
    expectTypeOf<Query["ResponsiblePersonID"]>().toEqualTypeOf<string | undefined>();
    expectTypeOf<ResponseOf<typeof waterfallChart>["steps"][number]>().toEqualTypeOf<{
      label: string;
      kind: "total" | "step";
      type?: string | undefined;
      sign?: "Positive" | "Negative" | undefined;
      valueCents: number;
    }>();
  });

  it("TrendChart's PeriodCount is optional (8 by default) and ShowAdhoc required", () => {
    expectTypeOf<QueryOf<typeof trendChart>["PeriodCount"]>().toEqualTypeOf<unknown>();
    expectTypeOf<QueryOf<typeof trendChart>["ShowAdhoc"]>().toEqualTypeOf<string>();
    expectTypeOf<QueryOf<typeof lineChart>["periodFrom"]>().toEqualTypeOf<string>();
  });

  it("ActivityTable pages on the server and its rows follow docs/api.md#shapes", () => {
    expectTypeOf<QueryOf<typeof activityTableGet>["startRow"]>().toEqualTypeOf<unknown>();
    expectTypeOf<BodyOf<typeof activityTable>["showAdhoc"]>().toEqualTypeOf<boolean | string | undefined>();
    type Answer = ResponseOf<typeof activityTableGet>;
    expectTypeOf<Answer["rowCount"]>().toEqualTypeOf<number>();
    expectTypeOf<Answer["rows"][number]["valueCentsVariance"]>().toEqualTypeOf<number>();
    expectTypeOf<Answer["rows"][number]["badgeVariant"]>().toEqualTypeOf<
      "new" | "added" | "lost" | "removed" | "existing" | "adhoc" | "sku"
    >();
    expectTypeOf<Answer["rows"][number]["status"]>().toEqualTypeOf<
      "Existing" | "Added" | "Removed" | "Adhoc"
    >();
  });

  it("KPIs are cents and ratios; lost clients by Revenue, Rank or Contribution; Transfer per salesperson", () => {
    expectTypeOf<ResponseOf<typeof overviewKpi>["grr"]>().toEqualTypeOf<number | null>();
    expectTypeOf<ResponseOf<typeof overviewKpi>["arpaCents"]>().toEqualTypeOf<number>();
    expectTypeOf<ResponseOf<typeof lostRankContributionKpi>["type"]>().toEqualTypeOf<
      "Revenue" | "Rank" | "Contribution"
    >();
    expectTypeOf<QueryOf<typeof specificSalespersonDetail>["contactID"]>().toEqualTypeOf<string>();
    expectTypeOf<ResponseOf<typeof specificSalespersonDetail>["byType"]["Transfer"]>().toEqualTypeOf<Sums>();
  });
});
