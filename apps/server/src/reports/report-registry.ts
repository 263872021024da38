import { type ReportID, reportCatalogue } from "@varia/contracts";
import { acquiredClients } from "./acquired-clients";
import { adhocRevenue } from "./adhoc-revenue";
import { cohortRetention } from "./cohort-retention";
import { forecastReport } from "./forecast-report";
import { lostClients } from "./lost-clients";
import { mrrByClient } from "./mrr-by-client";
import { mrrByService } from "./mrr-by-service";
import { mrrMovements } from "./mrr-movements";
import { priceChanges } from "./price-changes";
import type { ReportDefinition } from "./report-definition";
import { revenueBySegment } from "./revenue-by-segment";
import { salespersonPerformance } from "./salesperson-performance";

/** Every report the server runs, keyed by reportID (the catalogue of @varia/contracts). */
export const reportRegistry: Record<ReportID, ReportDefinition> = {
  "mrr-by-client": mrrByClient,
  "mrr-by-service": mrrByService,
  "mrr-movements": mrrMovements,
  "acquired-clients": acquiredClients,
  "lost-clients": lostClients,
  "price-changes": priceChanges,
  "salesperson-performance": salespersonPerformance,
  "revenue-by-segment": revenueBySegment,
  "adhoc-revenue": adhocRevenue,
  "cohort-retention": cohortRetention,
  forecast: forecastReport,
};

export function catalogueEntryOf(id: ReportID) {
  const entry = reportCatalogue.find((r) => r.reportID === id);
  if (!entry) throw new Error(`report ${id} is not in the catalogue`);
  return entry;
}
