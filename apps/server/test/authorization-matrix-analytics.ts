import type { ContractName } from "@varia/contracts";
import type { MatrixEntry } from "./authorization-matrix";

const chart = {
  DataType: "Revenue",
  DateFrom: "2025-05",
  DateTo: "2025-06",
  RecordTypeFrom: "Actual",
  RecordTypeTo: "Actual",
  StockType: "",
  PeriodFrom: "2025-01",
  PeriodTo: "2025-06",
};
const months = { dataType: "Revenue", dateFrom: "2025-05", dateTo: "2025-06" };

/** Matrix entries of the analytics contracts (see authorization-matrix.ts). */
export const analyticsMatrix: Partial<Record<ContractName, MatrixEntry>> = {
  christmasChart: { input: { query: chart } },
  trendChart: {
    input: {
      query: { ...chart, RecordType: "Actual", PeriodMode: "Monthly", ShowAdhoc: "false" },
    },
  },
  waterfallChart: { input: { query: { ...chart, RecordType: "Actual" } } },
  activityTable: { input: { body: { ...months, startRow: 0, rowLimit: 10 } } },
  activityTableGet: { input: { query: months } },
  gridGeneralKpi: { input: { query: { ...months, segment: "stockType" } } },
  gridSpecificKpi: { input: { query: { ...months, segment: "item" } } },
  tableInvoiceData: { input: { query: months } },
  specificMrrKpi: { input: { query: months } },
  specificRankContributionKpi: { input: { query: months } },
  expandedSpecificRankContributionKpi: { input: { query: months } },
  clientsSubscribedKpi: { input: { query: months } },
  expandedClientsSubscribedKpi: { input: { query: months } },
  lostMrrKpi: { input: { query: months } },
  lostRankContributionKpi: { input: { query: { ...months, type: "Rank" } } },
  specificDonutChart: { input: { query: { ...months, dimension: "salesperson" } } },
  powerfulBar: { input: { query: months } },
  varianceBars: { input: { query: { ...months, varType: "Client", sign: "Positive" } } },
  comparisonKpiChart: { input: { query: months } },
  simpleKpiChart: { input: { query: months } },
  lineChart: { input: { query: { ...months, periodFrom: "2025-01", periodTo: "2025-06" } } },
  overviewKpi: { input: { query: months } },
  chartClientKpis: { input: { body: months } },
  chartOverviewKpi: { input: { body: months } },
  chartRevenueBySegment: { input: { body: { ...months, segment: "clientSize" } } },
  chartSpecificMrrKpi: { input: { body: months } },
  specificClientDetail: { input: { query: { ...months, clientID: "1" } } },
  skuDetail: { input: { query: { ...months, stockItemID: "1" } } },
  specificSalespersonDetail: { input: { query: { ...months, contactID: "1" } } },
};
