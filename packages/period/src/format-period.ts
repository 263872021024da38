import { monthAbbreviations, type Period, periodDescribe } from "./period";

/** The string forms of a period (docs/behaviour.md#periods). */
export type PeriodFormat = "display" | "yearMonth" | "monYear" | "slash" | "year";

function ordinal(n: number): string {
  const tens = n % 100;
  if (tens >= 11 && tens <= 13) return `${n}th`;
  return `${n}${["th", "st", "nd", "rd"][n % 10] ?? "th"}`;
}

const pad = (n: number, width = 2) => String(n).padStart(width, "0");

function month(p: Period, format: PeriodFormat): number {
  if (p.monthNo === undefined)
    throw new RangeError(`Period ${periodDescribe(p)} has no month for the '${format}' form`);
  return p.monthNo;
}

/**
 * Prints a period. `display` (the default) is 'Jan 2024' for a month, '1st Jan 2024' for a day and
 * '2024' for a year; `yearMonth` is '2024-01'; `monYear` is 'Jan-2024'; `slash` is '01/2024';
 * `year` is '2024'.
 */
export function periodFormat(p: Period, format: PeriodFormat = "display"): string {
  const year = pad(p.yearNo, 4);
  switch (format) {
    case "display": {
      if (p.monthNo === undefined) return year;
      const name = monthAbbreviations[p.monthNo - 1];
      return p.dayNo === undefined ? `${name} ${year}` : `${ordinal(p.dayNo)} ${name} ${year}`;
    }
    case "yearMonth":
      return `${year}-${pad(month(p, format))}`;
    case "monYear":
      return `${monthAbbreviations[month(p, format) - 1]}-${year}`;
    case "slash":
      return `${pad(month(p, format))}/${year}`;
    case "year":
      return year;
  }
}
