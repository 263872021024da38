import type { ReportFilter } from "@varia/contracts";
import { describe, expect, it } from "vitest";
import { readReportValues, reportBody, reportValuesSearch } from "./report-values";

const filters: ReportFilter[] = [
  {
    name: "dataType",
    label: "Data type",
    kind: "select",
    required: false,
    default: "Revenue",
    options: [
      { label: "Revenue", value: "Revenue" },
      { label: "Margin", value: "Margin" },
    ],
  },
  {
    name: "dateTo",
    label: "To",
    kind: "period",
    required: false,
    default: "2026-10",
    options: [
      { label: "Oct 2026", value: "2026-10" },
      { label: "Sep 2026", value: "2026-09" },
    ],
  },
  {
    name: "clientID",
    label: "Client",
    kind: "lookup",
    required: false,
    default: null,
    lookup: "Lookup/GetClientList",
  },
  { name: "showAdhoc", label: "Show ad-hoc", kind: "boolean", required: false, default: false },
];

describe("a report's values", () => {
  it("come from the address, else the defaults; a value not among the options is the default", () => {
    expect(readReportValues(filters, "")).toEqual({
      dataType: "Revenue",
      dateTo: "2026-10",
      clientID: null,
      showAdhoc: false,
    });
    expect(readReportValues(filters, "?DATATYPE=Margin&dateTo=2031-01&clientid=7&showAdhoc=true")).toEqual({
      dataType: "Margin",
      dateTo: "2026-10",
      clientID: "7",
      showAdhoc: true,
    });
  });

  it("are written to the address of a run and to the Run body", () => {
    const values = { dataType: "Margin", dateTo: "2026-09", clientID: null, showAdhoc: true };
    expect(reportValuesSearch(values)).toBe("?dataType=Margin&dateTo=2026-09&showAdhoc=true&run=1");
    expect(reportBody("mrr-by-client", values)).toEqual({
      reportID: "mrr-by-client",
      dataType: "Margin",
      dateTo: "2026-09",
      showAdhoc: true,
    });
  });
});
