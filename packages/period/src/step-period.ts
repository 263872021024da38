import {
  type DateGranularity,
  type Period,
  periodCompare,
  periodCreate,
  periodDaysInMonth,
  periodDescribe,
} from "./period";

/** The most steps a range expansion takes (docs/behaviour.md#periods). */
export const periodRangeCap = 500;

function addMonths(p: Period, n: number): Period {
  if (p.monthNo === undefined)
    throw new RangeError(`Cannot step ${periodDescribe(p)} by months: it has no month`);
  const index = p.yearNo * 12 + (p.monthNo - 1) + n;
  return periodCreate(Math.floor(index / 12), (index % 12) + 1);
}

function addDays(p: Period, n: number): Period {
  if (p.dayNo === undefined || p.monthNo === undefined) {
    throw new RangeError(`Cannot step ${periodDescribe(p)} by days: it has no day`);
  }
  // Whole months first keeps the arithmetic exact far from the epoch; then the rest in days.
  let { yearNo, monthNo, dayNo } = { yearNo: p.yearNo, monthNo: p.monthNo, dayNo: p.dayNo };
  let remaining = n;
  while (remaining > 0) {
    const left = periodDaysInMonth(yearNo, monthNo) - dayNo;
    if (remaining <= left) {
      dayNo += remaining;
      remaining = 0;
    } else {
      remaining -= left + 1;
      dayNo = 1;
      monthNo += 1;
      if (monthNo > 12) {
        monthNo = 1;
        yearNo += 1;
      }
    }
  }
  while (remaining < 0) {
    if (-remaining < dayNo) {
      dayNo += remaining;
      remaining = 0;
    } else {
      remaining += dayNo;
      monthNo -= 1;
      if (monthNo < 1) {
        monthNo = 12;
        yearNo -= 1;
      }
      dayNo = periodDaysInMonth(yearNo, monthNo);
    }
  }
  return periodCreate(yearNo, monthNo, dayNo);
}

/**
 * Steps a period by `n` units of a granularity, rolling months, years and days over
 * (leap years included). Years step any period; months need a month; weeks and days need a day.
 */
export function periodAdd(p: Period, n: number, granularity: DateGranularity): Period {
  if (!Number.isInteger(n)) throw new RangeError(`Cannot step by ${n}: steps are whole numbers`);
  switch (granularity) {
    case "Year":
      if (p.dayNo !== undefined && p.monthNo === 2 && p.dayNo === 29) {
        const yearNo = p.yearNo + n;
        return periodCreate(yearNo, 2, periodDaysInMonth(yearNo, 2));
      }
      return periodCreate(p.yearNo + n, p.monthNo, p.dayNo);
    case "Month":
      if (p.dayNo !== undefined) {
        const month = addMonths({ yearNo: p.yearNo, monthNo: p.monthNo! }, n);
        return periodCreate(
          month.yearNo,
          month.monthNo,
          Math.min(p.dayNo, periodDaysInMonth(month.yearNo, month.monthNo!)),
        );
      }
      return addMonths(p, n);
    case "Week":
      return addDays(p, 7 * n);
    case "Day":
      return addDays(p, n);
  }
}

/** The natural step of a period: a year steps by years, a month by months, a day by days. */
export function periodNext(p: Period, n = 1): Period {
  if (p.dayNo !== undefined) return periodAdd(p, n, "Day");
  return periodAdd(p, n, p.monthNo !== undefined ? "Month" : "Year");
}

export function periodPrevious(p: Period, n = 1): Period {
  return periodNext(p, -n);
}

/**
 * The periods from `from` to `to` inclusive, stepping by a granularity. The expansion stops at
 * {@link periodRangeCap} steps: a longer range throws a RangeError naming the cap.
 */
export function periodRange(from: Period, to: Period, granularity: DateGranularity): Period[] {
  const out: Period[] = [];
  let current = from;
  while (periodCompare(current, to) <= 0) {
    if (out.length >= periodRangeCap) {
      throw new RangeError(`A period range is capped at ${periodRangeCap} steps`);
    }
    out.push(current);
    current = periodAdd(current, 1, granularity);
  }
  return out;
}
