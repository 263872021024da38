import {
  type PeriodKey,
  periodFromKey,
  periodFromMonthIndex,
  periodKey,
  periodMonthIndex,
} from "@varia/period";

/** The first month of a series of `count` months ending at `to`. */
export function seriesStart(to: PeriodKey, count: number): PeriodKey {
  return periodKey(periodFromMonthIndex(periodMonthIndex(periodFromKey(to)) - (count - 1)));
}
