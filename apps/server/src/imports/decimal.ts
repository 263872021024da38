/** Exact decimal arithmetic for money and quantities, on integers (BigInt) only. */

const decimalPattern = /^([+-]?)(\d+)(?:\.(\d+))?$/;

/** Parses a decimal with at most `places` fraction digits into an integer scaled by 10^places. */
export function parseScaled(text: string, places: number): bigint | undefined {
  const match = decimalPattern.exec(text.trim().replace(/,(?=\d{3}(\D|$))/g, ""));
  if (!match) return undefined;
  const [, sign, whole, fraction = ""] = match;
  if (fraction.length > places) return undefined;
  const value = BigInt(whole! + fraction.padEnd(places, "0"));
  return sign === "-" ? -value : value;
}

/** Formats an integer scaled by 10^places as a decimal string. */
export function formatScaled(value: bigint, places: number): string {
  const negative = value < 0n;
  const digits = (negative ? -value : value).toString().padStart(places + 1, "0");
  const whole = digits.slice(0, digits.length - places);
  const fraction = digits.slice(digits.length - places);
  return `${negative ? "-" : ""}${whole}${places ? `.${fraction}` : ""}`;
}
