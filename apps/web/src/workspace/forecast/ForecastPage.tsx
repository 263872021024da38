import { periodFormat, periodFromKey } from "@varia/period";
import { PageFrame } from "../../pages/PageFrame";
import { StartupContext } from "../../shell/startup-context";
import type { LayoutItem } from "../cards/CardGrid";
import { CardGrid } from "../cards/CardGrid";
import { DataTypeToggle } from "../filters/DataTypeToggle";
import { FilterChips } from "../filters/FilterChips";
import { FilterPanel } from "../filters/FilterPanel";
import { useViewFilter } from "../filters/use-view-filter";
import { NoDataYet } from "../NoDataYet";
import { measureName } from "../variance-labels";

/**
 * The forecast page's layout:
 *   [ Forecast chart (8)             ][ MRR in 12 months (4) ]
 *   [                                ][ Back-tested error (4)]
 *   [ Forecast and history (12)                              ]
 */
export const forecastLayout: LayoutItem[] = [
  { card: "forecastAhead", span: 6 },
  { card: "forecastError", span: 6 },
  { card: "forecastChart", span: 12 },
  { card: "forecastTable", span: 12 },
];
export const forecastDrawnMark = "varia:forecast-cards-drawn";

/**
 * `/variance/forecast`: MRR of the next 12 months by Holt's linear trend fitted on up to 36 months
 * up to the view's later month, its 80% interval, and the method's back-tested error beside it.
 */
export function ForecastPage() {
  const { filter, setFilter } = useViewFilter();
  const margins = StartupContext.useSelector((s) => s.context.profile?.organisationHasMargins ?? true);
  if (!filter.dateTo) {
    return (
      <NoDataYet title="Forecast">
        <p>The forecast needs months of invoice lines to fit its trend on.</p>
      </NoDataYet>
    );
  }
  return (
    <PageFrame
      title="Forecast"
      actions={
        <div className="page__actions">
          {margins ? (
            <DataTypeToggle value={filter.dataType} onChange={(dataType) => setFilter({ dataType })} />
          ) : null}
          <FilterPanel filter={filter} onApply={setFilter} />
        </div>
      }
    >
      <p className="page__subtitle">
        {measureName(filter.dataType)} for the 12 months after{" "}
        <strong>{periodFormat(periodFromKey(filter.dateTo))}</strong>, by Holt's linear trend fitted on the
        months up to it (at most 36)
      </p>
      <FilterChips filter={filter} onChange={setFilter} />
      <CardGrid layout={forecastLayout} filter={filter} markName={forecastDrawnMark} />
    </PageFrame>
  );
}
