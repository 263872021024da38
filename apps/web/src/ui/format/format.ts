/**
 * How Varia writes numbers (apps/web/README.md, "Formatting"): money through Intl in the
 * organisation's currency with its narrow symbol, 0 decimals on cards and 2 in tables; percentages
 * with 2 decimals; durations in months under 24 and in years and months from 24. Money arrives in
 * integer cents, as every call answers it.
 */

export interface FormatSettings {
  /** ISO 4217 code; the profile's subscriptionCurrencyCode (upper-cased; USD when unknown). */
  currency?: string | null;
  /** A locale the organisation forces; otherwise the browser's. */
  forcedLocale?: string | null;
}

export interface MoneyOptions {
  /** Fraction digits: 0 on cards (the default), 2 in tables. */
  decimals?: 0 | 2;
  /** Always show the sign (changes). */
  signed?: boolean;
  /** Short form for chart axes: $1.2M. */
  compact?: boolean;
}

export interface Format {
  readonly currency: string;
  readonly locale: string;
  /** Money from cents. */
  money(cents: number, options?: MoneyOptions): string;
  /** A ratio as a percentage (0.1234 → 12.34%), 2 decimals unless told. */
  percent(ratio: number, options?: { decimals?: number; signed?: boolean }): string;
  /** A difference of two percentages in percentage points (0.0125 → +1.25 pp). */
  percentagePoints(ratioDifference: number): string;
  /** A count (clients, rows). */
  count(n: number, options?: { signed?: boolean }): string;
  /** A length of time in months: '5 months' under 24, '2 years 3 months' from 24. */
  duration(months: number): string;
  /** The locale's decimal and group separators (for charts that write percentages themselves). */
  separators(): { decimal: string; group: string };
}

export const defaultCurrency = "USD";

function currencyOf(code: string | null | undefined): string {
  const upper = (code ?? "").trim().toUpperCase();
  if (!/^[A-Z]{3}$/.test(upper)) return defaultCurrency;
  try {
    new Intl.NumberFormat("en", { style: "currency", currency: upper });
    return upper;
  } catch {
    return defaultCurrency;
  }
}

function localeOf(forced: string | null | undefined): string {
  if (forced) {
    try {
      return Intl.getCanonicalLocales(forced)[0] ?? forced;
    } catch {
      // An unknown locale falls back to the browser's.
    }
  }
  return new Intl.NumberFormat().resolvedOptions().locale;
}

/** Builds the formatter of an organisation; formatters of Intl are made once each and reused. */
export function createFormat(settings: FormatSettings = {}): Format {
  const currency = currencyOf(settings.currency);
  const locale = localeOf(settings.forcedLocale);
  const cache = new Map<string, Intl.NumberFormat>();
  const numberFormat = (key: string, options: Intl.NumberFormatOptions) => {
    let format = cache.get(key);
    if (!format) {
      format = new Intl.NumberFormat(locale, options);
      cache.set(key, format);
    }
    return format;
  };
  const sign = (signed: boolean | undefined) => (signed ? ("exceptZero" as const) : ("auto" as const));
  /** -0 and tiny negatives print as 0, never '-0'. */
  const clean = (n: number) => (Object.is(n, -0) ? 0 : n);

  return {
    currency,
    locale,
    money(cents, options = {}) {
      const decimals = options.decimals ?? 0;
      const key = `money:${decimals}:${options.signed ?? false}:${options.compact ?? false}`;
      const format = numberFormat(key, {
        style: "currency",
        currency,
        currencyDisplay: "narrowSymbol",
        signDisplay: sign(options.signed),
        ...(options.compact
          ? { notation: "compact", maximumFractionDigits: 1 }
          : { minimumFractionDigits: decimals, maximumFractionDigits: decimals }),
      });
      const major = cents / 100;
      // Rounded as printed, so that a value that prints as zero is not signed.
      const shown = options.compact ? major : Number(major.toFixed(decimals));
      return format.format(clean(shown));
    },
    percent(ratio, options = {}) {
      const decimals = options.decimals ?? 2;
      const format = numberFormat(`percent:${decimals}:${options.signed ?? false}`, {
        style: "percent",
        minimumFractionDigits: decimals,
        maximumFractionDigits: decimals,
        signDisplay: sign(options.signed),
      });
      return format.format(clean(Number((ratio * 100).toFixed(decimals)) / 100));
    },
    percentagePoints(difference) {
      const format = numberFormat("points", {
        minimumFractionDigits: 2,
        maximumFractionDigits: 2,
        signDisplay: "exceptZero",
      });
      return `${format.format(clean(Number((difference * 100).toFixed(2))))} pp`;
    },
    count(n, options = {}) {
      return numberFormat(`count:${options.signed ?? false}`, {
        maximumFractionDigits: 0,
        signDisplay: sign(options.signed),
      }).format(clean(n));
    },
    duration(months) {
      const whole = Math.max(0, Math.round(months));
      const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? "" : "s"}`;
      if (whole < 24) return plural(whole, "month");
      const years = Math.floor(whole / 12);
      const rest = whole % 12;
      return rest === 0 ? plural(years, "year") : `${plural(years, "year")} ${plural(rest, "month")}`;
    },
    separators() {
      const parts = numberFormat("separators", { minimumFractionDigits: 1 }).formatToParts(12345.6);
      return {
        decimal: parts.find((p) => p.type === "decimal")?.value ?? ".",
        group: parts.find((p) => p.type === "group")?.value ?? ",",
      };
    },
  };
}

/** The direction of a change, for its colour and arrow. */
export type Trend = "up" | "down" | "flat";

export function trendOf(value: number | null | undefined): Trend {
  if (!value) return "flat";
  return value > 0 ? "up" : "down";
}

/**
 * The direction a change is shown with: its value's, except that a change written as zero (a few
 * cents written with 0 decimals: '$0', '+0.00%') is shown unchanged, so that no red arrow stands
 * beside '$0' (apps/web/README.md, "Formatting").
 */
export function shownTrend(value: number | null | undefined, text: string): Trend {
  return /[1-9]/.test(text) ? trendOf(value) : "flat";
}

/**
 * The arrow that says a change's direction without its colour (▲ up, ▼ down, = flat; not a dash,
 * which before "0" reads as minus zero).
 */
export const trendArrows: Record<Trend, string> = { up: "▲", down: "▼", flat: "=" };

/** The words a screen reader hears for a change's direction. */
export const trendWords: Record<Trend, string> = { up: "up", down: "down", flat: "unchanged" };
