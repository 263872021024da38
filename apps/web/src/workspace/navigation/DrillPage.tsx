import type { ReactNode } from "react";
import { PageFrame } from "../../pages/PageFrame";
import { StartupContext } from "../../shell/startup-context";
import { DataTypeToggle } from "../filters/DataTypeToggle";
import { FilterChips } from "../filters/FilterChips";
import { FilterPanel } from "../filters/FilterPanel";
import type { ViewFilter } from "../filters/view-filter";
import { NoDataYet } from "../NoDataYet";
import { Breadcrumbs } from "./Breadcrumbs";
import { type DrillLevel, drillCrumbs, type SubjectNames } from "./drill-path";

/**
 * The frame of a drill-down page (levels 2 to 4): the breadcrumbs of its path, its title, the
 * revenue/margin toggle and the filter button (and any other actions), and the filters in force.
 */
export function DrillPage({
  level,
  title,
  filter,
  setFilter,
  names,
  actions,
  subtitle,
  children,
}: {
  level: DrillLevel;
  title: string;
  filter: ViewFilter;
  setFilter: (changes: Partial<ViewFilter>, options?: { replace?: boolean }) => void;
  names: SubjectNames;
  actions?: ReactNode;
  /** A line under the title: what the page shows, for which months. */
  subtitle?: ReactNode;
  children: ReactNode;
}) {
  const margins = StartupContext.useSelector((s) => s.context.profile?.organisationHasMargins ?? true);
  if (!filter.dateFrom || !filter.dateTo) {
    return (
      <NoDataYet title={title}>
        <p>Import invoice lines from a CSV file to see how your recurring revenue moves.</p>
      </NoDataYet>
    );
  }
  return (
    <PageFrame
      title={title}
      lead={<Breadcrumbs crumbs={drillCrumbs(level, filter, names)} />}
      actions={
        <div className="page__actions">
          {actions}
          {margins ? (
            <DataTypeToggle value={filter.dataType} onChange={(dataType) => setFilter({ dataType })} />
          ) : null}
          <FilterPanel filter={filter} onApply={setFilter} />
        </div>
      }
    >
      {subtitle ? <p className="page__subtitle">{subtitle}</p> : null}
      <FilterChips filter={filter} onChange={setFilter} />
      {children}
    </PageFrame>
  );
}
