import type { Period } from "@varia/period";
import { prefetchCards } from "../cards/CardGrid";
import { readViewFilter, viewPaths } from "../filters/view-filter";
import { level1Layout } from "./level-1-layout";

/**
 * Level 1 is where a sign-in lands (`/` leads there). When the workspace opens on it, its cards'
 * calls are sent as the workspace starts to render, not once the frame around them has rendered
 * (which takes the main thread a while): the server answers while the page renders. The cards take
 * the answers through the shared calls (cards/card-call.ts); CardGrid's own prefetch finds them.
 */
export function prefetchLevel1(pathname: string, search: string, actualPeriods: readonly Period[]) {
  if (pathname !== "/" && pathname !== viewPaths.level1) return;
  const filter = readViewFilter(pathname === "/" ? "" : search, actualPeriods, viewPaths.level1);
  if (!filter.dateFrom || !filter.dateTo) return;
  prefetchCards(level1Layout, filter);
}
