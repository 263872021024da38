import { periodFormat, periodFromKey, periodMonthIndex } from "@varia/period";
import { PageFrame } from "../../pages/PageFrame";
import { StartupContext } from "../../shell/startup-context";
import { useFormat } from "../../ui/format";
import { CardGrid } from "../cards/CardGrid";
import { DataTypeToggle } from "../filters/DataTypeToggle";
import { FilterChips } from "../filters/FilterChips";
import { FilterPanel } from "../filters/FilterPanel";
import { useViewFilter } from "../filters/use-view-filter";
import { NoDataYet } from "../NoDataYet";
import { measureName } from "../variance-labels";
import { level1DrawnMark, level1Layout } from "./level-1-layout";

/**
 * Level 1, `/variance/dashboard/stockTypeOverview`: how MRR moved between the two months of the
 * filter, and every figure's way to what explains it.
 */
export function Level1Page() {
  const { filter, setFilter } = useViewFilter();
  const format = useFormat();
  const margins = StartupContext.useSelector((s) => s.context.profile?.organisationHasMargins ?? true);
  const title = "Stock Type Overview";
  if (!filter.dateFrom || !filter.dateTo) {
    return (
      <NoDataYet title={title}>
        <p>Import invoice lines from a CSV file to see how your recurring revenue moves.</p>
      </NoDataYet>
    );
  }
  const from = periodFromKey(filter.dateFrom);
  const to = periodFromKey(filter.dateTo);
  const months = periodMonthIndex(to) - periodMonthIndex(from);
  return (
    <PageFrame
      title={title}
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
        How {measureName(filter.dataType)} moved from <strong>{periodFormat(from)}</strong> to{" "}
        <strong>{periodFormat(to)}</strong>
        {months > 1 ? ` (${format.duration(months)} apart)` : ""}
        {filter.stockType ? `, ${filter.stockType.toLowerCase()} only` : ""}
      </p>
      <FilterChips filter={filter} onChange={setFilter} />
      <CardGrid layout={level1Layout} filter={filter} markName={level1DrawnMark} />
    </PageFrame>
  );
}
