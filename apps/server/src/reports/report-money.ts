import { type Cents, centsToMajor } from "@varia/variance";

/** Money in major units, as every report answers it (docs/methodology.md, "The same numbers everywhere"). */
export const money = (cents: Cents): number => centsToMajor(cents);

/** A change as a fraction of its base (0.25 = 25 %), null when the base is zero. */
export function changeRatio(from: Cents, to: Cents): number | null {
  return from === 0 ? null : (to - from) / Math.abs(from);
}

/** Quantities are held in ten-thousandths. */
export const quantity = (tenThousandths: number): number => tenThousandths / 10_000;
