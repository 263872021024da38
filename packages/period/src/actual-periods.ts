import { type Period, periodCompare } from "./period";
import { periodPrevious } from "./step-period";

/** Actual periods newest first (docs/methodology.md#periods); the input is left as it was. */
export function periodsSortNewestFirst(periods: readonly Period[]): Period[] {
  return [...periods].sort((a, b) => periodCompare(b, a));
}

/**
 * The default comparison (docs/methodology.md#periods): dateTo is the latest actual period; dateFrom the
 * second latest, or the period before the latest when there is only one. No periods, no default.
 */
export function periodDefaultRange(
  actual: readonly Period[],
): { dateFrom: Period; dateTo: Period } | undefined {
  const [latest, second] = periodsSortNewestFirst(actual);
  if (!latest) return undefined;
  return { dateTo: latest, dateFrom: second ?? periodPrevious(latest) };
}
