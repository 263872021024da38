import type { ReportResult } from "@varia/contracts";
import { describe, expect, it } from "vitest";
import { moneyFormatter } from "../../output/format";
import { reportTable } from "./run-report";

const movements = (quickRatios: (number | null)[]): ReportResult => ({
  reportID: "mrr-movements",
  reportType: "MrrMovements",
  name: "MRR movements",
  dataType: "Revenue",
  dateFrom: null,
  dateTo: "2025-07",
  columns: [
    { field: "month", header: "Month", kind: "month" },
    { field: "clients", header: "Clients", kind: "number" },
    { field: "quickRatio", header: "Quick ratio", kind: "number", decimals: 2 },
  ],
  rows: quickRatios.map((quickRatio, i) => ({ month: `2025-0${5 + i}`, clients: 1200 + i, quickRatio })),
  rowCount: quickRatios.length,
  startRow: 0,
  totals: { quickRatio: 1.5 },
  notes: [],
});

describe("reportTable", () => {
  it("writes a number column with `decimals` with exactly that many, so the decimal points line up", () => {
    const table = reportTable(movements([1.6, 1.29, null]), moneyFormatter("USD"));
    expect(table.split("\n").slice(2)).toEqual([
      "Month    Clients  Quick ratio",
      "2025-05    1,200         1.60",
      "2025-06    1,201         1.29",
      "2025-07    1,202",
      "Total                    1.50",
    ]);
  });
});
