import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { periodDefaultRange, periodsSortNewestFirst } from "./actual-periods";
import { periodFormat } from "./format-period";
import { periodParse } from "./parse-period";
import { type Period, periodCompare, periodCreate, periodIsLeapYear } from "./period";
import { periodFromKey, periodFromMonthIndex, periodKey, periodMonthIndex } from "./period-key";
import { periodAdd, periodNext, periodPrevious, periodRange, periodRangeCap } from "./step-period";

const month = (y: number, m: number) => periodCreate(y, m);
const day = (y: number, m: number, d: number) => periodCreate(y, m, d);

const arbYear = fc.integer({ min: 1000, max: 9000 });
const arbMonth = fc
  .record({ yearNo: arbYear, monthNo: fc.integer({ min: 1, max: 12 }) })
  .map((p) => month(p.yearNo, p.monthNo));
const arbDay = fc
  .record({
    yearNo: arbYear,
    monthNo: fc.integer({ min: 1, max: 12 }),
    dayNo: fc.integer({ min: 1, max: 31 }),
  })
  .filter((p) => {
    try {
      periodCreate(p.yearNo, p.monthNo, p.dayNo);
      return true;
    } catch {
      return false;
    }
  })
  .map((p) => day(p.yearNo, p.monthNo, p.dayNo));

describe("parsing and printing", () => {
  it.each([
    ["Jan 2024", { yearNo: 2024, monthNo: 1 }],
    ["1st Jan 2024", { yearNo: 2024, monthNo: 1, dayNo: 1 }],
    ["22nd Feb 2023", { yearNo: 2023, monthNo: 2, dayNo: 22 }],
    ["13th Mar 2023", { yearNo: 2023, monthNo: 3, dayNo: 13 }],
    ["Dec-2025", { yearNo: 2025, monthNo: 12 }],
    ["2024-07", { yearNo: 2024, monthNo: 7 }],
    ["07/2024", { yearNo: 2024, monthNo: 7 }],
    ["2024", { yearNo: 2024 }],
  ])("reads '%s'", (text, expected) => {
    expect(periodParse(text)).toEqual(expected);
  });

  it.each(["13/2024", "2024-13", "Foo 2024", "30th Feb 2024", "29th Feb 2023", "", "2024-1", "Jan 24"])(
    "rejects '%s' naming it",
    (text) => {
      expect(() => periodParse(text)).toThrow(`Invalid period '${text}'`);
    },
  );

  it("prints each form", () => {
    expect(periodFormat(month(2024, 1))).toBe("Jan 2024");
    expect(periodFormat(day(2024, 1, 1))).toBe("1st Jan 2024");
    expect(periodFormat(day(2024, 1, 11))).toBe("11th Jan 2024");
    expect(periodFormat(day(2024, 1, 23))).toBe("23rd Jan 2024");
    expect(periodFormat(month(2024, 3), "monYear")).toBe("Mar-2024");
    expect(periodFormat(month(2024, 3), "yearMonth")).toBe("2024-03");
    expect(periodFormat(month(2024, 3), "slash")).toBe("03/2024");
    expect(periodFormat(periodCreate(2024))).toBe("2024");
    expect(() => periodFormat(periodCreate(2024), "yearMonth")).toThrow(/has no month/);
  });

  it("round-trips every form: parse(print(p)) = p", () => {
    fc.assert(
      fc.property(arbMonth, (p) => {
        for (const form of ["display", "monYear", "yearMonth", "slash"] as const) {
          expect(periodParse(periodFormat(p, form))).toEqual(p);
        }
      }),
    );
    fc.assert(
      fc.property(arbDay, (p) => {
        expect(periodParse(periodFormat(p))).toEqual(p);
      }),
    );
    fc.assert(
      fc.property(arbYear, (y) => {
        expect(periodParse(periodFormat(periodCreate(y)))).toEqual({ yearNo: y });
      }),
    );
  });

  it("rejects invalid parts when created", () => {
    expect(() => periodCreate(2024, 13)).toThrow("Invalid period {yearNo: 2024, monthNo: 13}");
    expect(() => periodCreate(2024, undefined, 3)).toThrow(/Invalid period/);
  });
});

describe("leap years", () => {
  it("divisible by 4, centuries only by 400", () => {
    expect(periodIsLeapYear(2024)).toBe(true);
    expect(periodIsLeapYear(2023)).toBe(false);
    expect(periodIsLeapYear(1900)).toBe(false);
    expect(periodIsLeapYear(2000)).toBe(true);
    expect(() => day(2000, 2, 29)).not.toThrow();
    expect(() => day(1900, 2, 29)).toThrow(/Invalid period/);
  });

  it("rolls days over month, year and leap boundaries", () => {
    expect(periodAdd(day(2024, 2, 28), 1, "Day")).toEqual(day(2024, 2, 29));
    expect(periodAdd(day(2023, 2, 28), 1, "Day")).toEqual(day(2023, 3, 1));
    expect(periodAdd(day(1900, 2, 28), 1, "Day")).toEqual(day(1900, 3, 1));
    expect(periodAdd(day(2024, 12, 31), 1, "Day")).toEqual(day(2025, 1, 1));
    expect(periodAdd(day(2025, 1, 1), -1, "Day")).toEqual(day(2024, 12, 31));
    expect(periodAdd(day(2024, 3, 1), -1, "Day")).toEqual(day(2024, 2, 29));
    expect(periodAdd(day(2024, 1, 1), 366, "Day")).toEqual(day(2025, 1, 1));
    expect(periodAdd(day(2024, 12, 28), 1, "Week")).toEqual(day(2025, 1, 4));
  });
});

describe("stepping", () => {
  it("rolls months over years", () => {
    expect(periodNext(month(2024, 12))).toEqual(month(2025, 1));
    expect(periodPrevious(month(2024, 1))).toEqual(month(2023, 12));
    expect(periodAdd(month(2024, 5), 20, "Month")).toEqual(month(2026, 1));
    expect(periodNext(periodCreate(2024))).toEqual({ yearNo: 2025 });
  });

  it("keeps the day within the month when stepping a day by months or years", () => {
    expect(periodAdd(day(2024, 1, 31), 1, "Month")).toEqual(day(2024, 2, 29));
    expect(periodAdd(day(2024, 2, 29), 1, "Year")).toEqual(day(2025, 2, 28));
  });

  it("forward then back is the identity", () => {
    const n = fc.integer({ min: -400, max: 400 });
    fc.assert(
      fc.property(arbMonth, n, (p, k) => {
        expect(periodPrevious(periodNext(p, k), k)).toEqual(p);
      }),
    );
    fc.assert(
      fc.property(arbDay, n, (p, k) => {
        expect(periodAdd(periodAdd(p, k, "Day"), -k, "Day")).toEqual(p);
      }),
    );
    fc.assert(
      fc.property(arbDay, n, (p, k) => {
        expect(periodAdd(periodAdd(p, k, "Week"), -k, "Week")).toEqual(p);
      }),
    );
  });

  it("refuses a step finer than the period", () => {
    expect(() => periodAdd(month(2024, 1), 1, "Day")).toThrow(/has no day/);
    expect(() => periodAdd(periodCreate(2024), 1, "Month")).toThrow(/has no month/);
  });
});

describe("ranges", () => {
  it("expands inclusive ranges in order", () => {
    expect(
      periodRange(month(2023, 11), month(2024, 2), "Month").map((p) => periodFormat(p, "yearMonth")),
    ).toEqual(["2023-11", "2023-12", "2024-01", "2024-02"]);
    expect(periodRange(month(2024, 2), month(2024, 1), "Month")).toEqual([]);
  });

  it("is ordered and never longer than the cap", () => {
    fc.assert(
      fc.property(arbMonth, fc.integer({ min: 0, max: 499 }), (from, k) => {
        const range = periodRange(from, periodNext(from, k), "Month");
        expect(range).toHaveLength(k + 1);
        for (let i = 1; i < range.length; i++)
          expect(periodCompare(range[i - 1]!, range[i]!)).toBeLessThan(0);
      }),
    );
  });

  it(`stops at ${periodRangeCap} steps`, () => {
    expect(periodRange(month(2000, 1), periodNext(month(2000, 1), 499), "Month")).toHaveLength(500);
    expect(() => periodRange(month(2000, 1), periodNext(month(2000, 1), 500), "Month")).toThrow(
      "A period range is capped at 500 steps",
    );
  });
});

describe("actual periods", () => {
  const periods: Period[] = [month(2024, 3), month(2025, 1), month(2024, 12)];

  it("sorts newest first without changing the input", () => {
    expect(periodsSortNewestFirst(periods)).toEqual([month(2025, 1), month(2024, 12), month(2024, 3)]);
    expect(periods[0]).toEqual(month(2024, 3));
  });

  it("defaults dateTo to the latest and dateFrom to the second latest", () => {
    expect(periodDefaultRange(periods)).toEqual({ dateTo: month(2025, 1), dateFrom: month(2024, 12) });
  });

  it("defaults dateFrom to the previous period when there is only one", () => {
    expect(periodDefaultRange([month(2025, 1)])).toEqual({
      dateTo: month(2025, 1),
      dateFrom: month(2024, 12),
    });
    expect(periodDefaultRange([])).toBeUndefined();
  });
});

describe("period keys", () => {
  it("maps months to 'YYYY-MM' and dense indexes and back", () => {
    expect(periodKey(month(2024, 7))).toBe("2024-07");
    expect(periodFromKey("2024-07")).toEqual(month(2024, 7));
    expect(() => periodFromKey("2024-7")).toThrow("Invalid period key '2024-7': expected YYYY-MM");
    fc.assert(
      fc.property(arbMonth, (p) => {
        expect(periodFromMonthIndex(periodMonthIndex(p))).toEqual(p);
      }),
    );
    fc.assert(
      fc.property(arbMonth, (p) => {
        expect(periodFromKey(periodKey(p))).toEqual(p);
      }),
    );
  });
});
