import { periodFormat, periodFromKey } from "@varia/period";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { EmptyState, PageFrame } from "../pages/PageFrame";
import { useViewFilter } from "./filters/use-view-filter";
import { viewHref, viewPaths } from "./filters/view-filter";
import { varianceStepLabel } from "./variance-labels";

/**
 * A route whose screen is not built yet. It says so, says what the product already offers for it
 * (the API, the CLI, level 1), and never shows made-up content.
 */
export function PlaceholderPage({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <PageFrame title={title}>
      <EmptyState title="This screen is not built yet">{children}</EmptyState>
    </PageFrame>
  );
}

/** Levels 2 to 4: what the link asked for, and the way back to level 1 with the same filter. */
export function DrillDownPlaceholder({ level }: { level: 2 | 3 | 4 }) {
  const { filter } = useViewFilter();
  const months =
    filter.dateFrom && filter.dateTo
      ? `${periodFormat(periodFromKey(filter.dateFrom))} to ${periodFormat(periodFromKey(filter.dateTo))}`
      : "";
  const back = viewHref(viewPaths.level1, filter, {
    varType: null,
    sign: null,
    thirdClientID: null,
    thirdStockItemID: null,
  });
  const titles = { 2: "Positive or Negative", 3: "Specific", 4: "Invoice Data" } as const;
  const asked =
    level === 2 && filter.varType && filter.sign
      ? `${varianceStepLabel(filter.varType, filter.sign)}, ${months}`
      : level === 3 && (filter.thirdClientID || filter.thirdStockItemID)
        ? `${filter.thirdClientID ? "a client" : "a service"}, ${months}`
        : months;
  return (
    <PlaceholderPage title={titles[level]}>
      <p>
        Level {level} lists what makes up a figure of level 1{asked ? ` (here: ${asked})` : ""}. Its screen is
        not built yet; the numbers are already served by the API.
      </p>
      <p className="empty-state__actions">
        <Link className="button button--primary" to={back}>
          Back to the overview
        </Link>
        {filter.thirdClientID ? (
          <Link
            className="button button--secondary"
            to={viewHref(viewPaths.level1, filter, {
              thirdClientID: null,
              clientID: filter.thirdClientID,
              client: null,
            })}
          >
            The overview of this client
          </Link>
        ) : null}
      </p>
    </PlaceholderPage>
  );
}
