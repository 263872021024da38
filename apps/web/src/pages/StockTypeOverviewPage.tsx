import { selectActualPeriods } from "@varia/machines";
import { periodDefaultRange, periodFormat } from "@varia/period";
import { StartupContext } from "../shell/startup-context";
import { EmptyState, PageFrame } from "./PageFrame";

/** Level 1 of the variance dashboard (spec 2.2). */
export function StockTypeOverviewPage() {
  const periods = StartupContext.useSelector(selectActualPeriods);
  const range = periodDefaultRange(periods);
  return (
    <PageFrame title="Stock Type Overview">
      {range ? (
        <>
          <p className="page__subtitle">
            Comparing {periodFormat(range.dateFrom)} with {periodFormat(range.dateTo)}
          </p>
          <EmptyState title="Variance analysis is not available yet">
            <p>
              {periods.length} months of invoice data are imported. The dashboards that explain how recurring
              revenue moved between them are being built.
            </p>
          </EmptyState>
        </>
      ) : (
        <EmptyState title="No data imported yet">
          <p>
            Import invoice lines from a CSV file, QuickBooks or Xero to see how your recurring revenue moves.
          </p>
        </EmptyState>
      )}
    </PageFrame>
  );
}
