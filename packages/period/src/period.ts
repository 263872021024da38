/** A period (docs/behaviour.md#periods): a year, optionally a month of it, optionally a day of that month. */
export interface Period {
  readonly yearNo: number;
  readonly monthNo?: number;
  readonly dayNo?: number;
}

/** The granularities a period range steps by (docs/behaviour.md#periods). */
export const PeriodGranularity = { Year: "Year", Month: "Month", Week: "Week" } as const;
export type PeriodGranularity = (typeof PeriodGranularity)[keyof typeof PeriodGranularity];

/** The other enumeration of granularities, which has Day (docs/behaviour.md#periods). */
export const DateGranularity = { Year: "Year", Month: "Month", Week: "Week", Day: "Day" } as const;
export type DateGranularity = (typeof DateGranularity)[keyof typeof DateGranularity];

export const monthAbbreviations = [
  "Jan",
  "Feb",
  "Mar",
  "Apr",
  "May",
  "Jun",
  "Jul",
  "Aug",
  "Sep",
  "Oct",
  "Nov",
  "Dec",
] as const;

/** Leap years: divisible by 4, centuries only when divisible by 400 (docs/behaviour.md#periods). */
export function periodIsLeapYear(yearNo: number): boolean {
  return (yearNo % 4 === 0 && yearNo % 100 !== 0) || yearNo % 400 === 0;
}

export function periodDaysInMonth(yearNo: number, monthNo: number): number {
  if (monthNo === 2) return periodIsLeapYear(yearNo) ? 29 : 28;
  return [4, 6, 9, 11].includes(monthNo) ? 30 : 31;
}

export function periodDescribe(p: Period): string {
  return `{yearNo: ${p.yearNo}${p.monthNo === undefined ? "" : `, monthNo: ${p.monthNo}`}${p.dayNo === undefined ? "" : `, dayNo: ${p.dayNo}`}}`;
}

/** Checks a period's parts; throws an error naming the period when one is out of range. */
export function periodCreate(yearNo: number, monthNo?: number, dayNo?: number): Period {
  const p: Period = {
    yearNo,
    ...(monthNo === undefined ? {} : { monthNo }),
    ...(dayNo === undefined ? {} : { dayNo }),
  };
  const valid =
    Number.isInteger(yearNo) &&
    yearNo >= 1 &&
    yearNo <= 9999 &&
    (monthNo === undefined || (Number.isInteger(monthNo) && monthNo >= 1 && monthNo <= 12)) &&
    (dayNo === undefined ||
      (monthNo !== undefined &&
        Number.isInteger(dayNo) &&
        dayNo >= 1 &&
        dayNo <= periodDaysInMonth(yearNo, monthNo)));
  if (!valid) throw new RangeError(`Invalid period ${periodDescribe(p)}`);
  return p;
}

/** The granularity a period is written at: Year, Month or Day. */
export function periodLevel(p: Period): "Year" | "Month" | "Day" {
  if (p.dayNo !== undefined) return "Day";
  return p.monthNo !== undefined ? "Month" : "Year";
}

/** Orders periods by time; a coarser period sorts before the finer ones it contains. */
export function periodCompare(a: Period, b: Period): number {
  return a.yearNo - b.yearNo || (a.monthNo ?? 0) - (b.monthNo ?? 0) || (a.dayNo ?? 0) - (b.dayNo ?? 0);
}

export function periodEquals(a: Period, b: Period): boolean {
  return periodCompare(a, b) === 0 && periodLevel(a) === periodLevel(b);
}
