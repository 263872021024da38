import { periodFormat } from "./format-period";
import { type Period, periodCreate, periodDescribe } from "./period";

declare const periodKeyBrand: unique symbol;
/**
 * A month as 'YYYY-MM': how the API sends periods (docs/api.md#filter-parameters) and how the engine keys its
 * cube.
 */
export type PeriodKey = string & { readonly [periodKeyBrand]: true };

const keyPattern = /^(\d{4})-(0[1-9]|1[0-2])$/;

export function periodKey(p: Period): PeriodKey {
  if (p.monthNo === undefined || p.dayNo !== undefined) {
    throw new RangeError(`Period ${periodDescribe(p)} is not a month`);
  }
  return periodFormat(p, "yearMonth") as PeriodKey;
}

export function periodIsKey(text: string): text is PeriodKey {
  return keyPattern.test(text);
}

export function periodKeyParse(text: string): PeriodKey {
  if (!periodIsKey(text)) throw new RangeError(`Invalid period key '${text}': expected YYYY-MM`);
  return text;
}

export function periodFromKey(key: PeriodKey | string): Period {
  const match = keyPattern.exec(key);
  if (!match) throw new RangeError(`Invalid period key '${key}': expected YYYY-MM`);
  return periodCreate(Number(match[1]), Number(match[2]));
}

/** A month as a dense integer (year x 12 + month - 1): cheap to compare and to index arrays by. */
export function periodMonthIndex(p: Period): number {
  if (p.monthNo === undefined) throw new RangeError(`Period ${periodDescribe(p)} is not a month`);
  return p.yearNo * 12 + p.monthNo - 1;
}

export function periodFromMonthIndex(index: number): Period {
  return periodCreate(Math.floor(index / 12), (index % 12) + 1);
}
