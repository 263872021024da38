import { type Period, periodCompare } from "./period";
import { periodPrevious } from "./step-period";

/** Actual periods newest first (spec 4.4); the input is left as it was. */
export function periodsSortNewestFirst(periods: readonly Period[]): Period[] {
  return [...periods].sort((a, b) => periodCompare(b, a));
}

/**
 * The default comparison of spec 4.4: dateTo is the latest actual period; dateFrom the second
 * latest, or the period before the latest when there is only one. No periods, no default.
 */
export function periodDefaultRange(
  actual: readonly Period[],
): { dateFrom: Period; dateTo: Period } | undefined {
  const [latest, second] = periodsSortNewestFirst(actual);
  if (!latest) return undefined;
  return { dateTo: latest, dateFrom: second ?? periodPrevious(latest) };
}
