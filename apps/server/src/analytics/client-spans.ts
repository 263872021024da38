import type { MonthIndex } from "@varia/variance";
import type { Analysis } from "./cube-cache";
import { memo } from "./resolve-filter";

export interface ActiveSpan {
  first: MonthIndex;
  last: MonthIndex;
}

/**
 * The first and last month in which each client is active (its Recurring revenue of the
 * month is > 0), Actual records only, leaving out what the active exclusion lists exclude (an
 * excluded client has no span; an excluded item's revenue does not count). One pass over the cube
 * (a client's cells of a month are contiguous), kept with the analysis.
 */
export function activeSpans(analysis: Analysis): ReadonlyMap<number, ActiveSpan> {
  const { cube, excluded } = analysis;
  return memo(
    analysis,
    "active-spans",
    () => {
      const spans = new Map<number, ActiveSpan>();
      for (const month of cube.months("Actual")) {
        const { start, end } = cube.slice("Actual", month);
        let i = start;
        while (i < end) {
          const clientId = cube.clientId[i]!;
          let recurring = 0;
          for (; i < end && cube.clientId[i] === clientId; i++) {
            if (cube.category[i] === 0 && !excluded.itemIds.has(cube.itemId[i]!))
              recurring += cube.revenue[i]!;
          }
          if (recurring > 0 && !excluded.clientIds.has(clientId)) {
            const span = spans.get(clientId);
            if (span) span.last = month;
            else spans.set(clientId, { first: month, last: month });
          }
        }
      }
      return spans;
    },
    (spans) => spans.size,
  );
}
