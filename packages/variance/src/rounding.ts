/**
 * The engine's one rounding rule, and the spreading of an amount over months (docs/methodology.md,
 * "Spreading" and "Rounding"). Money is integer cents throughout; a division that does not come out
 * even rounds half to even, and an amount spread over months keeps every cent.
 */

/** Rounds numerator / denominator to the nearest integer, halves to even (banker's rounding). */
export function divideHalfEven(numerator: bigint, denominator: bigint): bigint {
  const negative = numerator < 0n !== denominator < 0n;
  const n = numerator < 0n ? -numerator : numerator;
  const d = denominator < 0n ? -denominator : denominator;
  let q = n / d;
  const r = n % d;
  if (r * 2n > d || (r * 2n === d && q % 2n === 1n)) q += 1n;
  return negative ? -q : q;
}

/**
 * `divideHalfEven` of integers given as numbers (`denominator` > 0): in floating point while the
 * numerator is exact there, in BigInt beyond.
 */
export function divideHalfEvenNumber(numerator: number, denominator: number): number {
  if (!Number.isSafeInteger(numerator)) return Number(divideHalfEven(BigInt(numerator), BigInt(denominator)));
  const rest = numerator % denominator;
  const quotient = (numerator - rest) / denominator;
  const twice = Math.abs(rest) * 2;
  if (twice > denominator || (twice === denominator && quotient % 2 !== 0))
    return quotient + Math.sign(numerator);
  return quotient === 0 ? 0 : quotient;
}

/**
 * Month `k` (0 the first) of `n`'s share of `amount` cents spread over `n` months: equal shares,
 * the leftover cents one each to the earliest months (with the amount's sign), so that the shares
 * add up to the amount exactly.
 */
export function spreadShare(amount: number, n: number, k: number): number {
  const rest = amount % n;
  const share = (amount - rest) / n;
  return k < Math.abs(rest) ? share + Math.sign(rest) : share;
}
