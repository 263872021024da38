import { monthAbbreviations, type Period, periodCreate } from "./period";

const monthIndex = new Map<string, number>(monthAbbreviations.map((name, i) => [name.toLowerCase(), i + 1]));

function monthOf(name: string): number | undefined {
  return monthIndex.get(name.toLowerCase());
}

const forms: { pattern: RegExp; build(m: RegExpExecArray): Period | undefined }[] = [
  // '1st Jan 2024'
  {
    pattern: /^(\d{1,2})(?:st|nd|rd|th)\s+([A-Za-z]{3})\s+(\d{4})$/,
    build: (m) => {
      const monthNo = monthOf(m[2]!);
      return monthNo === undefined ? undefined : periodCreate(Number(m[3]), monthNo, Number(m[1]));
    },
  },
  // 'Jan 2024' and 'Jan-2024'
  {
    pattern: /^([A-Za-z]{3})[\s-](\d{4})$/,
    build: (m) => {
      const monthNo = monthOf(m[1]!);
      return monthNo === undefined ? undefined : periodCreate(Number(m[2]), monthNo);
    },
  },
  // 'YYYY-MM'
  { pattern: /^(\d{4})-(\d{2})$/, build: (m) => periodCreate(Number(m[1]), Number(m[2])) },
  // 'MM/YYYY'
  { pattern: /^(\d{1,2})\/(\d{4})$/, build: (m) => periodCreate(Number(m[2]), Number(m[1])) },
  // 'YYYY'
  { pattern: /^(\d{4})$/, build: (m) => periodCreate(Number(m[1])) },
];

/**
 * Reads any string form of a period (docs/behaviour.md#periods): 'Jan 2024', '1st Jan 2024', 'Jan-2024',
 * '2024-01', '01/2024' or '2024'. Anything else, or a form naming a month or day that does not exist, throws
 * an error that quotes the input.
 */
export function periodParse(text: string): Period {
  const trimmed = text.trim();
  for (const form of forms) {
    const match = form.pattern.exec(trimmed);
    if (!match) continue;
    try {
      const period = form.build(match);
      if (period) return period;
    } catch {
      // out-of-range parts: reported below with the input
    }
    break;
  }
  throw new RangeError(`Invalid period '${text}'`);
}

/** Like {@link periodParse}, but answers undefined instead of throwing. */
export function periodTryParse(text: string): Period | undefined {
  try {
    return periodParse(text);
  } catch {
    return undefined;
  }
}
