import { periodFormat, periodFromKey } from "@varia/period";

/** A month of a series read against the month before, and whether the data starts there. */
export interface MonthAgainstBefore {
  period: string;
  startsTheData: boolean;
}

const month = (key: string) => periodFormat(periodFromKey(key));

/**
 * Why the first months of a chart of months against the month before have no change
 * (docs/methodology.md, "Charts"): the data starts there, and against the empty month before it
 * every client would be new. Those months come first; null when there are none.
 */
export function dataStartsNote(points: MonthAgainstBefore[]): string | null {
  const starts = points.filter((p) => p.startsTheData);
  const last = starts.at(-1);
  if (!last) return null;
  if (starts.length === points.length)
    return `No change is counted in these months: the data starts in ${month(last.period)} or later.`;
  if (starts.length === 1)
    return `The data starts in ${month(last.period)}: no change is counted for it, as there is no month before it to compare with.`;
  return `The data starts in ${month(last.period)}: no change is counted for it or the months before it.`;
}

/** The note under a chart of months against the month before, when the data starts within it. */
export function DataStartsNote({ points }: { points: MonthAgainstBefore[] }) {
  const note = dataStartsNote(points);
  return note ? (
    <p className="chart-note" data-starts-the-data>
      {note}
    </p>
  ) : null;
}
