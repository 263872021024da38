import type { Cube, MonthIndex } from "@varia/variance";
import { memo } from "./resolve-filter";

export interface ActiveSpan {
  first: MonthIndex;
  last: MonthIndex;
}

/**
 * The first and last month in which each client is active (DESIGN 7.2: its Recurring revenue of the
 * month is > 0), Actual records only. One pass over the cube (a client's cells of a month are
 * contiguous), kept with the cube.
 */
export function activeSpans(cube: Cube): ReadonlyMap<number, ActiveSpan> {
  return memo(
    cube,
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
            if (cube.category[i] === 0) recurring += cube.revenue[i]!;
          }
          if (recurring > 0) {
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
