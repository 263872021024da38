import { abilities, abilityKey, type ContractName } from "@varia/contracts";
import type { MatrixEntry } from "./authorization-matrix";

/** Matrix entries of the reports contracts (see authorization-matrix.ts). */
export const reportMatrix: Partial<Record<ContractName, MatrixEntry>> = {
  lookupReportList: {},
  lookupClientList: { input: { body: { search: "a", startRow: 1, rowLimit: 10 } } },
  lookupSkuList: { input: { body: { search: "a", startRow: 1, rowLimit: 10 } } },
  lookupSalespersonList: { input: { body: {} } },
  reportGetFilter: { input: { query: { reportID: "mrr-by-client" } } },
  // Forecast/View opens the forecast report only (test/report.test.ts): not this one.
  reportRun: {
    input: { body: { reportID: "mrr-by-client", dateFrom: "2025-05", dateTo: "2025-06" } },
    // The caller `tokenWith(Forecast/View)`, spelled out: authorization-matrix.ts imports this file.
    expect: { [`token:${abilityKey(abilities.varianceForecastView)}`]: 403 },
  },
  reportExport: { input: { body: { reportID: "lost-clients", format: "csv" } } },
  helpText: { input: { query: { key: "mrr" } } },
};
