import { revenueBySegment as segmentsOf } from "@varia/variance";
import type { ReportDefinition } from "./report-definition";
import { money } from "./report-money";

/** MRR in T split by stock type, salesperson, service or client size band (docs/methodology.md, "Charts"). */
export const revenueBySegment: ReportDefinition = {
  id: "revenue-by-segment",
  singlePeriod: true,
  columns: [
    { field: "segment", header: "Segment", kind: "text" },
    { field: "value", header: "MRR", kind: "money" },
    { field: "share", header: "Share", kind: "percent" },
  ],
  run({ cube, query, filter, segment }) {
    const segments = segmentsOf(cube, { ...filter, showAdhoc: false, month: query.to, segment });
    const total = segments.reduce((sum, s) => sum + s.value, 0);
    return {
      rows: segments.map((s) => ({ segment: s.label, value: money(s.value), share: s.share })),
      totals: { value: money(total), share: segments.length ? 1 : null },
    };
  },
};
